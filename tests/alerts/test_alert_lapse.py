"""Confirmed price alerts lapse (alerts/lapse.py): PRICE_ALERT_LIFETIME_DAYS after their confirmation or last
renewal unless renewed; PRICE_ALERT_RENEWAL_NOTICE_DAYS before that the mail worker queues one reminder, in the
alert's language, with a renew link (made as it is sent, used once, until the lapse) and the delete link. A
lapsed alert is deleted and its consent record ends as "lapsed"; a renewal is noted in the record."""
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import translation
from django.utils.translation import gettext

from alerts import lapse
from alerts.models import PriceAlert
from optin.confirmation import LinkState
from optin.models import ConsentRecord, OutboxEmail
from optin.outbox import send_due

from ..html import assert_page_heading
from ..signup_helpers import SAMPLE_UUID, link_pattern, path_of
from .price_alert_steps import DELETE_LINK, ask, confirmed_alert

RENEW_LINK = link_pattern("alerts:price_alert_renew", "token", "sample-token")
LIFETIME, NOTICE = 180, 14
pytestmark = pytest.mark.usefixtures("launch_content")


@pytest.fixture(autouse=True)
def periods():
    with override_settings(PRICE_ALERT_LIFETIME_DAYS=LIFETIME, PRICE_ALERT_RENEWAL_NOTICE_DAYS=NOTICE):
        yield


def reminder_of(alert, now):
    """The worker's chore at ``now``, then the outbox sent (its link made then): the reminder's mail."""
    before = len(mail.outbox)
    lapse.remind_and_lapse(100, now=now)
    send_due()
    return mail.outbox[before:]


def test_the_reminder_is_queued_once_at_the_notice_in_the_alerts_language(client):
    alert = confirmed_alert(client, "de")
    start = alert.renewed_at
    assert start == alert.confirmed_at
    assert reminder_of(alert, start + timedelta(days=LIFETIME - NOTICE) - timedelta(seconds=1)) == []
    sent = reminder_of(alert, start + timedelta(days=LIFETIME - NOTICE))
    assert len(sent) == 1
    message = sent[0]
    with translation.override("de"):
        assert message.subject == gettext("Your EverXCloud price alert for the %(gpu)s ends soon") % {
            "gpu": alert.gpu.name}
    assert message.extra_headers["Content-Language"] == "de"
    assert RENEW_LINK.search(message.body) and DELETE_LINK.search(message.body)
    assert str(alert.unsubscribe_key) in message.extra_headers["List-Unsubscribe"]
    # Once: later passes queue nothing more.
    assert reminder_of(alert, start + timedelta(days=LIFETIME - 1)) == []
    assert OutboxEmail.objects.filter(subject=message.subject).count() == 1
    # Only the token's hash is stored.
    token = path_of(RENEW_LINK.search(message.body).group(0)).rstrip("/").rsplit("/", 1)[1]
    assert token not in OutboxEmail.objects.get(subject=message.subject).body
    assert PriceAlert.objects.get().renewal_token_hash not in (None, token)


def test_an_alert_not_renewed_lapses_and_its_evidence_stays(client):
    alert = confirmed_alert(client, "es")
    start = alert.renewed_at
    reminder_of(alert, start + timedelta(days=LIFETIME - NOTICE))
    lapse.remind_and_lapse(100, now=start + timedelta(days=LIFETIME) - timedelta(seconds=1))
    assert PriceAlert.objects.exists()
    end = start + timedelta(days=LIFETIME)
    assert lapse.remind_and_lapse(100, now=end) == 1
    assert not PriceAlert.objects.exists()
    record = ConsentRecord.objects.get()
    assert (record.withdrawal, record.withdrawn_at) == (ConsentRecord.Withdrawal.LAPSED, end)


def test_a_late_reminder_still_gives_the_full_notice(client):
    alert = confirmed_alert(client, "en")
    late = alert.renewed_at + timedelta(days=LIFETIME + 30)  # the worker was stopped
    assert len(reminder_of(alert, late)) == 1
    lapse.remind_and_lapse(100, now=late + timedelta(days=NOTICE) - timedelta(seconds=1))
    assert PriceAlert.objects.exists()
    lapse.remind_and_lapse(100, now=late + timedelta(days=NOTICE))
    assert not PriceAlert.objects.exists()


def test_the_renew_link_shows_a_button_renews_by_post_once_and_postpones_the_lapse(client):
    alert = confirmed_alert(client, "pt")
    start = alert.renewed_at
    body = reminder_of(alert, start + timedelta(days=LIFETIME - NOTICE))[0].body
    path = path_of(RENEW_LINK.search(body).group(0))
    shown = client.get(path)
    assert shown.status_code == 200 and shown["X-Robots-Tag"] == "noindex"
    assert_page_heading(shown, "pt", "Keep your price alert")
    assert PriceAlert.objects.get().renewed_at == start  # opening it changes nothing
    response = client.post(path)
    assert response.status_code == 200
    assert_page_heading(response, "pt", "Your price alert is renewed")
    renewed = PriceAlert.objects.get()
    assert renewed.renewed_at > start and renewed.renewal_reminder_queued_at is None
    assert renewed.consent_record.renewed_at == renewed.renewed_at
    # Single use.
    again = client.post(path)
    assert_page_heading(again, "pt", "Your price alert is already renewed")
    assert PriceAlert.objects.get().renewed_at == renewed.renewed_at
    # The old end deletes nothing (a new reminder is due: it was renewed just now, on the first day).
    lapse.remind_and_lapse(100, now=start + timedelta(days=LIFETIME + NOTICE))
    assert PriceAlert.objects.exists()


def test_a_renew_link_expires_when_the_alert_would_lapse(client):
    alert = confirmed_alert(client, "en")
    start = alert.renewed_at
    body = reminder_of(alert, start + timedelta(days=LIFETIME - NOTICE))[0].body
    token = path_of(RENEW_LINK.search(body).group(0)).rstrip("/").rsplit("/", 1)[1]
    end = start + timedelta(days=LIFETIME)
    assert lapse.renew(token, now=end) is LinkState.EXPIRED
    assert PriceAlert.objects.get().renewed_at == start
    assert lapse.renew(token, now=end - timedelta(seconds=1)) is LinkState.CONFIRMED
    # Renewed a second before its end: a whole lifetime more, with its reminder at the notice before it.
    assert lapse.remind_and_lapse(100, now=end + timedelta(days=LIFETIME - NOTICE) - timedelta(seconds=2)) == 0
    assert len(reminder_of(alert, end + timedelta(days=LIFETIME - NOTICE))) == 1
    assert lapse.remind_and_lapse(100, now=end + timedelta(days=LIFETIME) - timedelta(seconds=2)) == 0
    assert lapse.remind_and_lapse(100, now=end + timedelta(days=LIFETIME)) == 1
    assert not PriceAlert.objects.exists()


def test_the_delete_link_of_the_reminder_deletes_the_alert(client):
    alert = confirmed_alert(client, "de")
    body = reminder_of(alert, alert.renewed_at + timedelta(days=LIFETIME - NOTICE))[0].body
    response = client.post(path_of(DELETE_LINK.search(body).group(0)))
    assert response.status_code == 200 and not PriceAlert.objects.exists()
    assert ConsentRecord.objects.get().withdrawal == ConsentRecord.Withdrawal.DELETED_BY_OWNER


@pytest.mark.parametrize("token", ["nope", "x" * 200, SAMPLE_UUID])
def test_unknown_renew_links_are_a_404_not_an_error(client, token):
    from ..localized_urls import url_in

    for method in (client.get, client.post):
        response = method(url_in("es", "alerts:price_alert_renew", token=token))
        assert response.status_code == 404
        assert re.search(r"<h1[^>]*>", response.content.decode())


def test_the_renewal_gets_no_reminder_before_confirmation(client):
    ask(client, "es")
    lapse.remind_and_lapse(100, now=PriceAlert.objects.get().created_at + timedelta(days=LIFETIME * 2))
    assert PriceAlert.objects.get().renewal_reminder_queued_at is None
