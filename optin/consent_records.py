"""The evidence of consent, kept apart from what was consented to (``models.ConsentRecord``).

A form's row (a signup, a price alert, a provider application) holds what was asked (``ConsentEvidence``, moved
here from ``signups``: abstract, so its fields stay in each row's own table) and points to its record
(``consent_record_field``); the forms tell this module when a consent was asked (``asked``, ``reasked``),
confirmed (``confirm``) or renewed (``renew``), and the outbox records when the confirmation mail went out
(``outbox.send`` calls ``confirmation_mail_sent``).

When the consent ends (``withdraw``: an unsubscribe, an alert deleted by its owner or lapsed, a request never
confirmed, an erasure), its row is deleted at once and the record is kept for the evidence's retention period
(``evidence_months``: the operator record's "consent evidence kept", else CONSENT_EVIDENCE_RETENTION_MONTHS),
then purged (``purge_expired``, in the mail worker's hourly retention pass). A request never confirmed is kept
the same period after the purge that deletes it: it proves why its one confirmation mail was sent.

Deleting a row never deletes its record (the foreign key points from the row to the record, and protects a
record still pointed to); a row deleted some other way (its GPU removed from the catalogue, say) still ends
its record, as "removed" (``register_evidence_holder``)."""
import calendar

from django.conf import settings
from django.db import models
from django.db.models.signals import post_delete
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import addresses, pseudonyms
from .models import ConsentRecord

Purpose, Withdrawal = ConsentRecord.Purpose, ConsentRecord.Withdrawal


def consent_record_field():
    """A form's row points to the evidence of its consent, which outlives it: deleting the row leaves the record; a
    record is never deleted while a row points to it."""
    return models.ForeignKey(
        ConsentRecord, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False,
        verbose_name=_("consent record"),
    )


class ConsentEvidence(models.Model):
    """What a visitor was asked to consent to: which consent text, in which language, on which page; copied into
    the row's consent record (``optin.ConsentRecord``), which keeps it after the row is deleted."""

    consent_text_version = models.CharField(_("consent text version"), max_length=40)
    privacy_policy_version = models.CharField(_("privacy policy version"), max_length=40, blank=True)
    consent_language = models.CharField(
        _("consent language"), max_length=8, choices=settings.LANGUAGES,
        help_text=_("The language the consent text was shown in."),
    )
    source_path = models.CharField(
        _("form's page"), max_length=300,
        help_text=_("The page on this site the visitor came to the form from."),
    )

    class Meta:
        abstract = True


# What a form's ``consent_evidence`` holds, copied into the record as it was when asked.
EVIDENCE_FIELDS = tuple(field.name for field in ConsentEvidence._meta.local_fields)

_holders = []


def register_evidence_holder(model):
    """Called from the ``AppConfig.ready()`` of an app whose ``model`` points to consent records
    (``consent_record``): a row deleted without saying why ends its record as "removed", and
    ``purge_expired`` leaves alone a record such a row still points to."""
    if model not in _holders:
        _holders.append(model)
    post_delete.connect(_row_deleted, sender=model, dispatch_uid=f"consent-evidence-{model._meta.label}")


def _row_deleted(sender, instance, **kwargs):
    if instance.consent_record_id is not None:
        withdraw(ConsentRecord.objects.filter(pk=instance.consent_record_id), Withdrawal.REMOVED)


def add_months(moment, months):
    """``moment`` ``months`` calendar months later; a day the month lacks becomes its last (31 Jan + 1 month is
    28 or 29 Feb)."""
    index = moment.month - 1 + months
    year, month = moment.year + index // 12, index % 12 + 1
    return moment.replace(year=year, month=month, day=min(moment.day, calendar.monthrange(year, month)[1]))


def evidence_months(record=None):
    """How many months evidence is kept after withdrawal: the operator record's period, the setting while it is
    empty."""
    from company.models import OperatorRecord

    record = record if record is not None else OperatorRecord.current()
    months = record.consent_evidence_retention_months
    return months if months is not None else settings.CONSENT_EVIDENCE_RETENTION_MONTHS


def keep_until(withdrawn_at, months=None):
    return add_months(withdrawn_at, evidence_months() if months is None else months)


def address_hash(email):
    return pseudonyms.consent_address_hash(addresses.key(email))


def records_of(email):
    """The records of ``email``, however it is spelt, under SECRET_KEY or one of its fallbacks."""
    hashes = [found for key in addresses.keys(email) for found in pseudonyms.consent_address_hashes(key)]
    return ConsentRecord.objects.filter(address_hash__in=hashes)


def asked(purpose, *, email, consent, asked_at):
    """A new record: ``consent`` (a form's ``consent_evidence``) was asked of ``email`` at ``asked_at``."""
    return ConsentRecord.objects.create(
        purpose=purpose, address_hash=address_hash(email), asked_at=asked_at,
        **{field: consent[field] for field in EVIDENCE_FIELDS},
    )


def reasked(record, purpose, *, email, consent, asked_at):
    """A request not confirmed yet, asked again with new answers: its record (None: it had none) says what is
    now asked; a record that has ended or was confirmed stays as it is, and a new one is made."""
    if record is None or record.withdrawn_at is not None or record.confirmed_at is not None:
        return asked(purpose, email=email, consent=consent, asked_at=asked_at)
    values = {field: consent[field] for field in EVIDENCE_FIELDS}
    ConsentRecord.objects.filter(pk=record.pk).update(asked_at=asked_at, address_hash=address_hash(email),
                                                      confirmation_mail_version="", confirmation_mail_sent_at=None,
                                                      **values)
    record.refresh_from_db()
    return record


def confirmation_mail_sent(record_id, version, sent_at):
    """The confirmation mail of a record went out: which wording (a version per mail kind), and when. A record
    already confirmed keeps the mail its click came from."""
    ConsentRecord.objects.filter(pk=record_id, confirmed_at__isnull=True).update(
        confirmation_mail_version=version, confirmation_mail_sent_at=sent_at,
    )


def confirm(records, now, *, via=None):
    """Mark ``records`` (a queryset) confirmed at ``now``; ``via``: the record whose mail's link was clicked,
    when one click confirms several (price alerts), whose mail then stands for them all."""
    values = {"confirmed_at": now}
    if via is not None:
        via.refresh_from_db(fields=["confirmation_mail_version", "confirmation_mail_sent_at"])
        values |= {"confirmation_mail_version": via.confirmation_mail_version,
                   "confirmation_mail_sent_at": via.confirmation_mail_sent_at}
        records.filter(pk=via.pk, confirmed_at__isnull=True).update(confirmed_at=now)
        records = records.exclude(pk=via.pk)
    return records.filter(confirmed_at__isnull=True).update(**values)


def renew(records, now):
    return records.update(renewed_at=now)


def withdraw(records, how, now=None):
    """End the consents of ``records`` (a queryset) that still hold: withdrawn ``how`` at ``now``, kept until the
    evidence's period has passed. Returns how many ended."""
    now = now or timezone.now()
    return records.filter(withdrawn_at__isnull=True).update(withdrawn_at=now, withdrawal=how,
                                                            keep_until=keep_until(now))


def records_for(rows):
    """The records the rows of a queryset point to."""
    return ConsentRecord.objects.filter(pk__in=list(
        rows.exclude(consent_record__isnull=True).values_list("consent_record_id", flat=True)))


def purge_expired(now=None):
    """Delete the records kept long enough (never one a row still points to). Returns how many."""
    now = now or timezone.now()
    expired = ConsentRecord.objects.filter(keep_until__lte=now)
    for model in _holders:
        expired = expired.exclude(pk__in=model.objects.filter(consent_record__isnull=False)
                                  .values("consent_record_id"))
    deleted, _by_model = expired.delete()
    return deleted
