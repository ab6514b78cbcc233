"""Confirmed price alerts do not run forever: an alert lapses PRICE_ALERT_LIFETIME_DAYS after its confirmation or
last renewal (``PriceAlert.renewed_at``) unless its owner renews it with one click.

PRICE_ALERT_RENEWAL_NOTICE_DAYS before that, the mail worker (a chore it runs before each pass: ``apps.py``)
queues one reminder in the alert's language with a renew link and the delete link. The renew link is made as
the mail is sent and only its hash is kept, like a confirmation link; it works once, until the alert lapses.
Opening it shows a button; the button's POST renews (``renew``), and the consent record notes the renewal.
An alert always gets its full notice: it lapses no sooner than NOTICE days after its reminder was queued, even
if the worker was stopped for a while. A lapsed alert is deleted; its consent record ends as "lapsed" and is
kept for the evidence's period (``optin.consent_records``).

The reminder does not count against the mailbox's budget (``optin.mail_budget``): nobody can ask for it, it
goes only to an address that confirmed, at most once per renewal period."""
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from optin import consent_records
from optin.confirmation import Link, LinkState
from optin.erasure import delete_with_admin_history

from . import mails
from .models import PriceAlert


def lifetime():
    return timedelta(days=settings.PRICE_ALERT_LIFETIME_DAYS)


def notice():
    return timedelta(days=settings.PRICE_ALERT_RENEWAL_NOTICE_DAYS)


def lapses_at(renewed_at, reminder_queued_at=None):
    """When an alert confirmed or renewed at ``renewed_at`` lapses: its lifetime later, and never sooner than the
    notice after its reminder was queued."""
    end = renewed_at + lifetime()
    return end if reminder_queued_at is None else max(end, reminder_queued_at + notice())


def due_for_reminder(now):
    return PriceAlert.objects.filter(
        confirmed_at__isnull=False, renewal_reminder_queued_at__isnull=True,
        renewed_at__lte=now - (lifetime() - notice()),
    )


def lapsed(now):
    return PriceAlert.objects.filter(
        renewal_reminder_queued_at__isnull=False, renewal_reminder_queued_at__lte=now - notice(),
        renewed_at__lte=now - lifetime(),
    )


# The reminder's renew link, as the confirmation's: only the hash of a token made as the mail is sent. It waits
# for its click from the reminder to the renewal, and works until the alert lapses.
RENEWAL_LINK = Link(
    PriceAlert, "alerts:price_alert_renew", awaiting=Q(renewal_reminder_queued_at__isnull=False),
    hash_field="renewal_token_hash", expires_field="renewal_expires_at", related=("gpu",),
    expires=lambda alert: lapses_at(alert.renewed_at, alert.renewal_reminder_queued_at),
)


@transaction.atomic
def remind(limit, now):
    """Queue the reminder of at most ``limit`` alerts whose lapse is within the notice; returns how many."""
    alerts = list(due_for_reminder(now).select_for_update(skip_locked=True, of=("self",))
                  .select_related("gpu").order_by("renewed_at", "pk")[:limit])
    for alert in alerts:
        alert.renewal_reminder_queued_at = now
        alert.renewal_token_hash = alert.renewal_expires_at = None  # an older renew link dies
        alert.save(update_fields=["renewal_reminder_queued_at", "renewal_token_hash", "renewal_expires_at"])
        mails.queue_renewal_reminder(alert, lapses_at(alert.renewed_at, now))
    return len(alerts)


@transaction.atomic
def lapse(limit, now):
    """Delete at most ``limit`` lapsed alerts, their consent records ending as "lapsed"; returns how many."""
    pks = list(lapsed(now).select_for_update(skip_locked=True).values_list("pk", flat=True)[:limit])
    alerts = PriceAlert.objects.filter(pk__in=pks)
    consent_records.withdraw(consent_records.records_for(alerts), consent_records.Withdrawal.LAPSED, now)
    delete_with_admin_history(alerts)
    return len(pks)


def remind_and_lapse(limit, now=None):
    """The mail worker's chore: reminders due, then lapses; returns how many alerts were reminded or lapsed."""
    now = now or timezone.now()
    return remind(limit, now) + lapse(limit, now)


@transaction.atomic
def renew(token, now=None):
    """Renew the alert the reminder's token was mailed for: CONFIRMED (renewed until a lifetime from ``now``), or
    the state that prevented it."""
    now = now or timezone.now()
    state = RENEWAL_LINK.use(token, now, renewed_at=now, renewal_reminder_queued_at=None, renewal_expires_at=None)
    if state is LinkState.CONFIRMED:
        consent_records.renew(consent_records.records_for(RENEWAL_LINK.rows(token)), now)
    return state
