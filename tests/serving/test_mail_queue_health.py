"""/healthz reports a stalled mail queue: "degraded" (still 200: pages are served) with "mail_queue":
"failing" while the oldest mail waiting to be sent is older than MAIL_QUEUE_STALL_SECONDS; a mail given up
on after its attempts is not waiting. The mail server is real (aiosmtpd on loopback), stopped to break it."""
from datetime import timedelta

from django.test.utils import override_settings
from django.utils import timezone

from optin.models import OutboxEmail

from .. import factories
from ..localized_urls import url_in
from ..servers import free_port
from ..signup_helpers import run_mail_worker, signup_data, smtp_server, smtp_settings

HEALTHY = {"status": "ok", "database": "ok", "cache": "ok", "mail_queue": "ok"}
STALLED = {"status": "degraded", "database": "ok", "cache": "ok", "mail_queue": "failing"}


def health(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    return response.json()


def queue_mail(age_seconds, **fields):
    mail = factories.outbox_email(**fields)
    OutboxEmail.objects.filter(pk=mail.pk).update(created_at=timezone.now() - timedelta(seconds=age_seconds))
    return mail


def test_an_unsent_mail_older_than_the_threshold_makes_the_health_check_degraded(client, db):
    assert health(client) == HEALTHY
    queue_mail(age_seconds=600)
    assert health(client) == HEALTHY  # within the default 900 seconds
    old = queue_mail(age_seconds=901)
    assert health(client) == STALLED
    with override_settings(MAIL_QUEUE_STALL_SECONDS=3600):
        assert health(client) == HEALTHY
    OutboxEmail.objects.filter(pk=old.pk).update(sent_at=timezone.now(), next_attempt_at=None)
    assert health(client) == HEALTHY


def test_a_mail_given_up_on_is_not_waiting(client, db):
    queue_mail(age_seconds=7 * 24 * 3600, next_attempt_at=None, attempts=20, last_error="refused")
    assert health(client) == HEALTHY


def test_a_mail_server_that_refuses_stalls_the_queue_until_it_answers_again(client, launch_content):
    """The worker really tries: first against a port nothing listens on, then against a real server."""
    port = free_port()
    client.post(url_in("es", "signups:signup"), signup_data())
    with override_settings(**smtp_settings(port)):
        run_mail_worker()
    mail = OutboxEmail.objects.get()
    assert mail.sent_at is None and mail.attempts == 1 and mail.last_error
    with override_settings(MAIL_QUEUE_STALL_SECONDS=0):
        assert health(client) == STALLED
        OutboxEmail.objects.update(next_attempt_at=timezone.now())  # due again now, not after the back-off
        with smtp_server(port) as (_port, mailbox), override_settings(**smtp_settings(port)):
            run_mail_worker()
        assert len(mailbox.messages) == 1
        assert health(client) == HEALTHY
