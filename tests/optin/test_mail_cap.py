"""One sender cannot stop everyone's confirmations (issue 48): forms' mails to addresses not confirmed are capped
per hour, and each client network (an IPv4 address, an IPv6 /64) gets at most a share of the cap; beyond, mail
waits, never dropped. A flood of signups from one /64, then one signup from elsewhere: the real worker, against a
real SMTP server, mails the other address's confirmation and only the flood's share."""
import tempfile
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from optin.models import OutboxEmail, RequestOrigin
from signups.models import WaitlistRequest

from .. import factories
from ..localized_urls import url_in
from ..servers import mail_worker_process
from ..signup_helpers import run_mail_worker, signup_data, smtp_server

FLOOD = 30
CAP = {"OUTBOX_UNCONFIRMED_MAILS_PER_HOUR": 20, "OUTBOX_UNCONFIRMED_SHARE_PERCENT": 25}  # 5 per network
SHARE = 5


def flood_and_one_other(client):
    for number in range(FLOOD):
        response = client.post(url_in("es", "signups:signup"), signup_data(email=f"flood{number}@example.com"),
                               REMOTE_ADDR=f"2001:db8:48:64:{number:x}::1")
        assert response.status_code == 303
    assert client.post(url_in("es", "signups:signup"), signup_data(email="other@example.com"),
                       REMOTE_ADDR="203.0.113.9").status_code == 303


@pytest.mark.multiprocess
def test_a_flood_from_one_network_leaves_another_addresss_confirmation_mailed(live_launch_content, client,
                                                                             settings):
    settings.SIGNUP_RATE_LIMIT = 1000
    flood_and_one_other(client)
    with tempfile.TemporaryFile() as log, smtp_server() as (port, mailbox), \
            mail_worker_process(port, log, **{name: str(value) for name, value in CAP.items()}):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(
                "other@example.com" in message.rcpt_tos for message in mailbox.messages):
            time.sleep(0.1)
        time.sleep(1)  # more passes: the flood's share stays spent
        recipients = [recipient for message in mailbox.messages for recipient in message.rcpt_tos]
        log.seek(0)
        output = log.read().decode(errors="replace")
    assert "other@example.com" in recipients, output[-3000:]
    assert len([recipient for recipient in recipients if recipient.startswith("flood")]) == SHARE
    # The rest wait for the next hour: none dropped, none given up.
    assert not WaitlistRequest.objects.exists() and not RequestOrigin.objects.exists()
    waiting = OutboxEmail.objects.filter(sent_at__isnull=True)
    assert waiting.count() == FLOOD - SHARE
    assert not waiting.filter(next_attempt_at__isnull=True).exists()
    assert not waiting.filter(attempts__gt=0).exists()


def test_the_mail_that_waited_goes_in_the_next_hour_and_other_mail_is_never_capped(client, launch_content,
                                                                                     settings, mailoutbox):
    settings.SIGNUP_RATE_LIMIT = 1000
    for name, value in CAP.items():
        setattr(settings, name, value)
    flood_and_one_other(client)
    run_mail_worker()
    assert len(mailoutbox) == SHARE + 1
    # Mail nobody asked through a form (an alert, a reminder) is not capped.
    factories.outbox_email()
    run_mail_worker()
    assert len(mailoutbox) == SHARE + 2
    OutboxEmail.objects.filter(sent_at__isnull=False).update(sent_at=timezone.now() - timedelta(minutes=61))
    run_mail_worker()
    assert len(mailoutbox) == 2 * SHARE + 2


def test_the_migration_keeps_the_outbox_and_leaves_its_mails_uncapped(migrations_rolled_back):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    others = [(app, name) for app, name in MigrationExecutor(connection).loader.graph.leaf_nodes() if app != "optin"]
    old = migrations_rolled_back([*others, ("optin", "0002_consent_records")])
    old.get_model("optin", "OutboxEmail").objects.create(recipient="old@example.com", subject="s", body="b",
                                                        language="de", link_kind="signup", link_row_id=7)
    new = migrations_rolled_back([*others, ("optin", "0003_outbox_cap_and_request_origins")])
    mail = new.get_model("optin", "OutboxEmail").objects.get()
    assert (mail.recipient, mail.link_kind, mail.link_row_id, mail.capped, mail.origin) == (
        "old@example.com", "signup", 7, False, "")
    assert not new.get_model("optin", "RequestOrigin").objects.exists()
