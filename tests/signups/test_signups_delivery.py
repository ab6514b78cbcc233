"""Mail through a real SMTP server on loopback, sent by the mail worker (`send_outbox`) only; a mail server
that is down loses nothing: the signup is kept, its mail waits in the outbox and the worker delivers it,
once, when the server is back."""
import email
import email.policy
import io
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone, translation
from django.utils.translation import gettext

from optin import confirmation, outbox
from optin.models import OutboxEmail
from signups.models import Signup, WaitlistRequest

from .. import factories, servers
from ..localized_urls import url_in
from ..signup_helpers import (
    CONFIRM_LINK,
    confirmation_path,
    run_mail_worker,
    signup_data,
    smtp_server,
    smtp_settings,
)


def received(mailbox):
    return [email.message_from_bytes(envelope.content, policy=email.policy.default)
            for envelope in mailbox.messages]


def post_signup(client, page_language="es", **data):
    return client.post(url_in(page_language, "signups:signup"), signup_data(**data))


def test_the_confirmation_goes_through_a_real_smtp_server_and_its_link_confirms(client, launch_content):
    with smtp_server() as (port, mailbox), override_settings(**smtp_settings(port)):
        response = post_signup(client, "es", email="lucia@example.com", language="es")
        assert mailbox.messages == []  # the request only stored the signup
        run_mail_worker()
    assert response.status_code == 303
    [message] = received(mailbox)
    assert mailbox.messages[0].rcpt_tos == ["lucia@example.com"]
    with translation.override("es"):
        assert message["Subject"] == gettext("Confirm your EverXCloud signup")
    assert message["Content-Language"] == "es"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/es/" in message["List-Unsubscribe"]
    body = message.get_content()
    assert client.post(confirmation_path(body)).status_code == 200
    assert Signup.objects.get().is_subscribed
    sent = OutboxEmail.objects.get()
    assert sent.sent_at is not None and sent.attempts == 1 and sent.next_attempt_at is None


def test_with_the_mail_server_down_the_signup_is_kept_and_the_worker_sends_it_later(client, launch_content):
    closed_port = servers.free_port()
    with override_settings(**smtp_settings(closed_port)):
        response = post_signup(client, "pt", email="rui@example.com", language="pt")
        run_mail_worker()
    assert response.status_code == 303
    assert response["Location"] == url_in("pt", "signups:signup_thanks")
    assert Signup.objects.filter(email="rui@example.com").exists()
    pending = OutboxEmail.objects.get()
    assert pending.sent_at is None and pending.attempts == 1 and pending.last_error
    # The waiting mail holds no usable link: it gets one when it is finally sent.
    assert confirmation.LINK_PLACEHOLDER in pending.body and CONFIRM_LINK.search(pending.body) is None
    assert timezone.now() < pending.next_attempt_at <= timezone.now() + outbox.FIRST_RETRY_DELAY

    with smtp_server() as (port, mailbox), override_settings(**smtp_settings(port)):
        call_command("send_outbox", stdout=io.StringIO())
        assert mailbox.messages == []  # not due yet: the worker respects the backoff
        OutboxEmail.objects.update(next_attempt_at=timezone.now())
        out = io.StringIO()
        call_command("send_outbox", stdout=out)
        call_command("send_outbox", stdout=io.StringIO())
    assert "1 sent" in out.getvalue()
    [message] = received(mailbox)
    with translation.override("pt"):
        assert message["Subject"] == gettext("Confirm your EverXCloud signup")
    assert client.post(confirmation_path(message.get_content())).status_code == 200
    sent = OutboxEmail.objects.get()
    assert sent.sent_at is not None and sent.attempts == 2 and sent.last_error == ""


def test_retries_back_off_and_give_up_after_the_last_attempt(db, settings):
    settings.OUTBOX_MAX_ATTEMPTS = 3
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", servers.free_port(), 2
    mail = factories.outbox_email()
    delays = []
    for _attempt in range(3):
        due = OutboxEmail.objects.filter(pk=mail.pk, next_attempt_at__isnull=False)
        due.update(next_attempt_at=timezone.now())
        before = timezone.now()
        assert outbox.send(mail.pk) is False
        mail.refresh_from_db()
        if mail.next_attempt_at:
            delays.append(mail.next_attempt_at - before)
    assert mail.attempts == 3 and mail.next_attempt_at is None and mail.sent_at is None
    assert timedelta(minutes=1) <= delays[0] < timedelta(minutes=1, seconds=5)
    assert timedelta(minutes=2) <= delays[1] < timedelta(minutes=2, seconds=5)
    minutes = [outbox.retry_delay(n) / timedelta(minutes=1) for n in (1, 2, 3, 4, 9, 10, 30)]
    assert minutes == [1, 2, 4, 8, 256, 360, 360]


def test_a_mail_is_claimed_once_so_two_workers_never_both_send_it(db, mailoutbox):
    mail = factories.outbox_email()
    now = timezone.now()
    assert outbox.claim(mail.pk, now) is True
    assert outbox.claim(mail.pk, now) is False
    assert outbox.send(mail.pk) is None
    assert outbox.send_due() == (0, 0)
    assert mailoutbox == []


def test_a_signup_whose_transaction_rolls_back_sends_no_mail(db, mailoutbox):
    from django.db import transaction

    from signups import waitlist

    with pytest.raises(RuntimeError), transaction.atomic():
        waitlist.join(email="x@example.com", currency="EUR", language="es", workload_id=None,
                      consent=factories.consent("renter-1"), at=timezone.now())
        raise RuntimeError("something failed after the signup was written")
    assert outbox.send_due() == (0, 0)
    assert not Signup.objects.exists() and not OutboxEmail.objects.exists() and mailoutbox == []


@pytest.mark.multiprocess
def test_the_worker_loop_applies_signups_delivers_and_stops_cleanly_on_sigterm(transactional_db):
    factories.outbox_email()
    factories.waitlist_request(email="waiting@example.com")
    with smtp_server() as (port, mailbox):
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "everx.settings.test",
               "DATABASE_URL": servers.test_database_url(),
               "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend", "EMAIL_HOST": "127.0.0.1",
               "EMAIL_PORT": str(port)}
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "send_outbox", "--loop", "--interval", "0.2"],
            cwd=servers.PROJECT_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        try:
            deadline = time.monotonic() + 30
            while len(mailbox.messages) < 2 and time.monotonic() < deadline and worker.poll() is None:
                time.sleep(0.1)
            assert len(mailbox.messages) == 2, "the worker did not send both mails"
        finally:
            worker.send_signal(signal.SIGTERM)
            stdout, stderr = worker.communicate(timeout=15)
    assert worker.returncode == 0, stderr
    assert "Waitlist: 1 applied" in stdout and "2 sent" in stdout
    assert not WaitlistRequest.objects.exists() and Signup.objects.get().email == "waiting@example.com"
    assert OutboxEmail.objects.filter(sent_at__isnull=True).count() == 0
