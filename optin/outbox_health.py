"""The mail queue's health, for /healthz (serving.health): stalled while the oldest mail waiting to be sent
(unsent, not given up) is older than MAIL_QUEUE_STALL_SECONDS: the mail worker is not running, or every
attempt fails. Mails given up on (OUTBOX_MAX_ATTEMPTS) are not waiting: the admin's outbox lists them."""
from datetime import timedelta

from django.conf import settings
from django.db.models import Min
from django.utils import timezone

from .models import OutboxEmail


def oldest_waiting_mail():
    """When the oldest mail still waiting to be sent was queued, or None."""
    return OutboxEmail.objects.filter(sent_at__isnull=True, next_attempt_at__isnull=False).aggregate(
        oldest=Min("created_at"))["oldest"]


def mail_queue_ok():
    oldest = oldest_waiting_mail()
    return oldest is None or timezone.now() - oldest <= timedelta(seconds=settings.MAIL_QUEUE_STALL_SECONDS)
