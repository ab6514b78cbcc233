"""How long unconfirmed signups are kept: SIGNUP_UNCONFIRMED_RETENTION_DAYS after their confirmation was
asked for, then they are deleted with their mails, as are waiting requests that old and price alerts never
confirmed (the mail worker's loop does it about once an hour; ``manage.py purge_unconfirmed`` on demand).

A confirmed or unsubscribed signup is never deleted here: it is the evidence of a consent, or of its
withdrawal. Neither is a signup whose confirmation link still works or whose mail is still being tried
(a staff member's "send again" can give an old signup a fresh link): its visitor may yet confirm."""
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from .erasure import delete_with_admin_history
from .models import OutboxEmail, PriceAlert, Signup, WaitlistRequest


@dataclass(frozen=True)
class Purged:
    signups: int
    mails: int
    requests: int
    alerts: int

    def __str__(self):
        return (f"{self.signups} signups, {self.mails} mails, {self.requests} waiting requests, "
                f"{self.alerts} price alerts")

    def __bool__(self):
        return any((self.signups, self.mails, self.requests, self.alerts))


def cutoff(now):
    """Requests made before this are kept no longer."""
    return now - timedelta(days=settings.SIGNUP_UNCONFIRMED_RETENTION_DAYS)


def lapsed_signups(now):
    mail_on_its_way = OutboxEmail.objects.filter(
        confirmation_for=OuterRef("pk"), sent_at__isnull=True, next_attempt_at__isnull=False,
    )
    return Signup.objects.filter(
        Q(confirmation_expires_at__isnull=True) | Q(confirmation_expires_at__lte=now),
        confirmed_at__isnull=True, unsubscribed_at__isnull=True, signed_up_at__lt=cutoff(now),
    ).exclude(Exists(mail_on_its_way))


def lapsed_alerts(now):
    """Price alerts never confirmed, on the same terms as signups."""
    mail_on_its_way = OutboxEmail.objects.filter(
        alert_confirmation_for=OuterRef("pk"), sent_at__isnull=True, next_attempt_at__isnull=False,
    )
    return PriceAlert.objects.filter(
        Q(confirmation_expires_at__isnull=True) | Q(confirmation_expires_at__lte=now),
        confirmed_at__isnull=True, created_at__lt=cutoff(now),
    ).exclude(Exists(mail_on_its_way))


@transaction.atomic
def purge_unconfirmed(now=None):
    """Delete the signups and price alerts never confirmed whose time is up, their mails and the admin's
    history of them, and the waiting requests as old; returns how many of each."""
    now = now or timezone.now()
    # Locked, so a visitor confirming or signing up again at this moment either waits and finds the row
    # gone, or holds it and keeps it (skipped here, and no longer lapsed after their change).
    pks = list(lapsed_signups(now).select_for_update(skip_locked=True).values_list("pk", flat=True))
    mails, _ = OutboxEmail.objects.filter(confirmation_for__in=pks).delete()
    _, deleted = delete_with_admin_history(Signup.objects.filter(pk__in=pks))
    requests, _ = WaitlistRequest.objects.filter(received_at__lt=cutoff(now)).delete()
    alert_pks = list(lapsed_alerts(now).select_for_update(skip_locked=True).values_list("pk", flat=True))
    alert_mails, _ = OutboxEmail.objects.filter(alert_confirmation_for__in=alert_pks).delete()
    _, deleted_alerts = delete_with_admin_history(PriceAlert.objects.filter(pk__in=alert_pks))
    return Purged(signups=deleted.get(Signup._meta.label, 0), mails=mails + alert_mails, requests=requests,
                  alerts=deleted_alerts.get(PriceAlert._meta.label, 0))
