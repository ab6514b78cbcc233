"""How long unconfirmed requests are kept: SIGNUP_UNCONFIRMED_RETENTION_DAYS after their confirmation was
asked for, then they are deleted with their mails (the mail worker's loop does it about once an hour;
``manage.py purge_unconfirmed`` on demand). Each form that asks for confirmations registers its purge
(``register_purge``); the mail budgets' spent rows go with them, and so do the consent records kept past
their period (``consent_records.purge_expired``).

A confirmed row is never deleted here. Neither is a row whose confirmation link still works or whose mail is
still being tried (a staff member's "send again" can give an old row a fresh link): its visitor may yet
confirm. A purged row's consent record ends as "never confirmed" and is kept for the evidence's period: it
shows why its confirmation mail was sent."""
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from . import consent_records, mail_budget, outbox
from .erasure import delete_with_admin_history
from .models import OutboxEmail


class Purged:
    """How many rows of each kind a purge deleted (``purged.signups``, ``purged.mails`` …; 0 for a kind it did
    not name), in the order the purges named them; ``str`` names each as ``labels`` says."""

    def __init__(self, counts, labels):
        self.counts, self.labels = counts, labels

    def __getattr__(self, kind):
        if kind.startswith("_") or kind in ("counts", "labels"):
            raise AttributeError(kind)
        return self.counts.get(kind, 0)

    def __str__(self):
        return ", ".join(f"{count} {self.labels.get(kind, kind)}" for kind, count in self.counts.items())

    def __bool__(self):
        return any(self.counts.values())


_purges = []


def register_purge(purge_rows, labels):
    """Called from the ``AppConfig.ready()`` of an app that asks for confirmations: ``purge_rows(now)`` deletes
    what has lapsed and returns {kind: count}; ``labels`` names each kind in the worker's output."""
    if (purge_rows, labels) not in _purges:
        _purges.append((purge_rows, labels))


def cutoff(now):
    """Requests made before this are kept no longer."""
    return now - timedelta(days=settings.SIGNUP_UNCONFIRMED_RETENTION_DAYS)


def lapsed(unconfirmed, now):
    """The rows of ``unconfirmed`` (asked for before the cutoff) never confirmed, whose link no longer works and
    whose confirmation mail is not still being tried."""
    mail_on_its_way = OutboxEmail.objects.filter(
        link_kind=outbox.kind_of(unconfirmed.model), link_row_id=OuterRef("pk"), sent_at__isnull=True,
        next_attempt_at__isnull=False,
    )
    return unconfirmed.filter(
        Q(confirmation_expires_at__isnull=True) | Q(confirmation_expires_at__lte=now), confirmed_at__isnull=True,
    ).exclude(Exists(mail_on_its_way))


def purge(lapsed_rows, now=None):
    """Delete ``lapsed_rows``, their mails and the admin's history of them, and end their consent records as
    never confirmed; returns (rows, mails) deleted. The rows are locked, so a visitor confirming or asking
    again at this moment either waits and finds the row gone, or holds it and keeps it (skipped here, and no
    longer lapsed after their change)."""
    model = lapsed_rows.model
    pks = list(lapsed_rows.select_for_update(skip_locked=True).values_list("pk", flat=True))
    consent_records.withdraw(consent_records.records_for(model.objects.filter(pk__in=pks)),
                             consent_records.Withdrawal.NOT_CONFIRMED, now)
    mails, _ = outbox.linked_mails(model, pks).delete()
    _, deleted = delete_with_admin_history(model.objects.filter(pk__in=pks))
    return deleted.get(model._meta.label, 0), mails


@transaction.atomic
def purge_unconfirmed(now=None):
    """Run every registered purge, delete the mail budgets' spent rows and the consent records kept long enough;
    returns how many rows of each kind (but the budgets') were deleted."""
    now = now or timezone.now()
    counts, labels = {}, {}
    for purge_rows, kind_labels in _purges:
        for kind, count in purge_rows(now).items():
            counts[kind] = counts.get(kind, 0) + count
        labels.update(kind_labels)
    mail_budget.purge_spent(now)  # only keyed hashes, kept no longer than a budget counts them
    counts["consent_records"] = consent_records.purge_expired(now)
    labels["consent_records"] = "consent records past their period"
    return Purged(counts, labels)
