"""Outgoing mail through the outbox table: queued in the caller's transaction, sent only by the mail worker
(``manage.py send_outbox --loop``), and retried while the mail server is unreachable.

No request ever talks to the mail server: one that answers slowly or never would hold a web worker for
EMAIL_TIMEOUT, and the difference in time would tell whether a request had mailed. A mail is claimed
before it is sent (its next attempt moved past a lease), so any number of workers never send it twice. A
confirmation mail gets its link only as it is sent (``confirmation.py``): the outbox never holds a usable
token."""
import logging
import smtplib
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.utils import timezone

from . import alert_confirmation, confirmation
from .models import OutboxEmail

logger = logging.getLogger(__name__)

# Longer than an SMTP attempt can take (EMAIL_TIMEOUT); a mail whose sender died mid-send is due
# again after it.
CLAIM_LEASE = timedelta(minutes=10)
FIRST_RETRY_DELAY = timedelta(minutes=1)
LONGEST_RETRY_DELAY = timedelta(hours=6)


def queue(*, recipient, subject, body, language, headers=None, confirmation_for=None,
          alert_confirmation_for=None):
    """Store a mail, in the caller's transaction, for the worker to send."""
    return OutboxEmail.objects.create(
        recipient=recipient, subject=subject, body=body, language=language, headers=headers or {},
        confirmation_for=confirmation_for, alert_confirmation_for=alert_confirmation_for,
    )


def queue_all(mails):
    """Store many mails (unsaved OutboxEmail rows) in one statement per batch, in the caller's transaction."""
    return OutboxEmail.objects.bulk_create(mails, batch_size=500)


def retry_delay(attempts):
    """1, 2, 4, 8 … minutes after each failed attempt, at most six hours."""
    return min(FIRST_RETRY_DELAY * 2 ** (attempts - 1), LONGEST_RETRY_DELAY)


def claim(pk, now):
    return OutboxEmail.objects.filter(pk=pk, sent_at__isnull=True, next_attempt_at__lte=now).update(
        next_attempt_at=now + CLAIM_LEASE,
    ) == 1


def as_message(mail):
    body = mail.body
    if mail.confirmation_for is not None:
        body = body.replace(confirmation.LINK_PLACEHOLDER, confirmation.issue_link(mail.confirmation_for))
    if mail.alert_confirmation_for is not None:
        body = body.replace(confirmation.LINK_PLACEHOLDER,
                            alert_confirmation.issue_link(mail.alert_confirmation_for))
    return EmailMessage(
        subject=mail.subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[mail.recipient],
        headers={"Content-Language": mail.language, **mail.headers},
    )


def send(pk):
    """Send one due mail; True once sent, False after a failed attempt, None if it is not due or taken."""
    now = timezone.now()
    if not claim(pk, now):
        return None
    mail = OutboxEmail.objects.select_related("confirmation_for", "alert_confirmation_for").get(pk=pk)
    mail.attempts += 1
    try:
        as_message(mail).send()
    except (smtplib.SMTPException, OSError) as error:
        mail.last_error = f"{type(error).__name__}: {error}"[:2000]
        gave_up = mail.attempts >= settings.OUTBOX_MAX_ATTEMPTS
        mail.next_attempt_at = None if gave_up else timezone.now() + retry_delay(mail.attempts)
        mail.save(update_fields=["attempts", "last_error", "next_attempt_at"])
        logger.warning("Outbox mail %s: attempt %s failed (%s)%s", pk, mail.attempts, mail.last_error,
                       ", giving up" if gave_up else "")
        return False
    mail.sent_at = timezone.now()
    mail.next_attempt_at = None
    mail.last_error = ""
    mail.save(update_fields=["attempts", "last_error", "next_attempt_at", "sent_at"])
    return True


def due_mail_ids(limit, now=None):
    now = now or timezone.now()
    return list(
        OutboxEmail.objects.filter(sent_at__isnull=True, next_attempt_at__lte=now)
        .order_by("next_attempt_at").values_list("pk", flat=True)[:limit]
    )


def send_due(limit=100):
    """One pass over the mails that are due: returns (sent, failed)."""
    results = [send(pk) for pk in due_mail_ids(limit)]
    return results.count(True), results.count(False)
