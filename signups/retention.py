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

from . import mail_budget
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


def lapsed(unconfirmed, mail_link, now):
    """The rows of ``unconfirmed`` (asked for before the cutoff) never confirmed, whose link no longer works and
    whose confirmation mail is not still being tried (``mail_link``: the outbox's key to them)."""
    mail_on_its_way = OutboxEmail.objects.filter(
        **{mail_link: OuterRef("pk")}, sent_at__isnull=True, next_attempt_at__isnull=False,
    )
    return unconfirmed.filter(
        Q(confirmation_expires_at__isnull=True) | Q(confirmation_expires_at__lte=now), confirmed_at__isnull=True,
    ).exclude(Exists(mail_on_its_way))


def lapsed_signups(now):
    return lapsed(Signup.objects.filter(unsubscribed_at__isnull=True, signed_up_at__lt=cutoff(now)),
                  "confirmation_for", now)


def lapsed_alerts(now):
    """Price alerts never confirmed, on the same terms as signups."""
    return lapsed(PriceAlert.objects.filter(created_at__lt=cutoff(now)), "alert_confirmation_for", now)


def purge(lapsed_rows, mail_link):
    """Delete ``lapsed_rows``, their mails and the admin's history of them; returns (rows, mails) deleted. The
    rows are locked, so a visitor confirming or asking again at this moment either waits and finds the row
    gone, or holds it and keeps it (skipped here, and no longer lapsed after their change)."""
    model = lapsed_rows.model
    pks = list(lapsed_rows.select_for_update(skip_locked=True).values_list("pk", flat=True))
    mails, _ = OutboxEmail.objects.filter(**{f"{mail_link}__in": pks}).delete()
    _, deleted = delete_with_admin_history(model.objects.filter(pk__in=pks))
    return deleted.get(model._meta.label, 0), mails


@transaction.atomic
def purge_unconfirmed(now=None):
    """Delete the signups and price alerts never confirmed whose time is up, their mails and the admin's
    history of them, the waiting requests as old, and the mail budgets' spent rows; returns how many of each
    (but the budgets')."""
    now = now or timezone.now()
    signups, signup_mails = purge(lapsed_signups(now), "confirmation_for")
    requests, _ = WaitlistRequest.objects.filter(received_at__lt=cutoff(now)).delete()
    alerts, alert_mails = purge(lapsed_alerts(now), "alert_confirmation_for")
    mail_budget.purge_spent(now)  # only keyed hashes, kept no longer than a budget counts them
    return Purged(signups=signups, mails=signup_mails + alert_mails, requests=requests, alerts=alerts)
