"""Erasure of one person's data on request (GDPR Art. 17, LGPD Art. 18): every row that holds their
address, the admin history that names those rows, and only a pseudonymous trace that it was done (a
keyed hash of the address: ``pseudonyms.py``). The evidence of the person's consents stays, ended as
"erased on request" and kept for the evidence's period: it holds no address, only another keyed hash, and
proves what was consented to and that it ended (docs/decisions/0013-consent-evidence-apart.md).

The address is normalized as the forms store it (``addresses.py``), so any spelling of one mailbox
(``IDN@BÜCHER.example``, ``idn@xn--bcher-kva.example``) erases the same rows. The rows are the forms' (in apps
above this one): each registers its models that hold addresses (``register_address_holder``)."""
from typing import NamedTuple

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Value
from django.db.models.functions import Lower

from . import addresses, consent_records, pseudonyms
from .models import ErasureLog, OutboxEmail


class AddressHolder(NamedTuple):
    model: type
    field: str  # the address field, with the ``Lower`` lookup registered on it
    admin_history: bool  # whether the admin's history names its rows (then deleted with them)


_holders = [AddressHolder(OutboxEmail, "recipient", admin_history=False)]


def register_address_holder(model, field="email", *, admin_history=True):
    """Called from the ``AppConfig.ready()`` of an app whose ``model`` stores people's addresses."""
    holder = AddressHolder(model, field, admin_history)
    if holder not in _holders:
        _holders.insert(-1, holder)  # the outbox last: deleting the rows deletes their confirmation mails first


def address_holders():
    return list(_holders)


def email_hash(email):
    """One-way, yet lets us answer "did you erase my data?" from the address alone, however it is spelt."""
    return pseudonyms.erasure_hash(addresses.key(email))


def erasures_of(email):
    """The erasures logged for ``email``, however it is spelt, under SECRET_KEY or one of its fallbacks."""
    return ErasureLog.objects.filter(email_hash__in=pseudonyms.erasure_hashes(addresses.key(email)))


def delete_with_admin_history(rows):
    """Delete ``rows`` and the admin's history entries about them, which name each row by its email
    address or company. Returns what ``QuerySet.delete`` returns."""
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(rows.model),
        object_id__in=[str(pk) for pk in rows.values_list("pk", flat=True)],
    ).delete()
    return rows.delete()


def held_addresses():
    """Every address the database holds, in any registered model."""
    found = set()
    for holder in _holders:
        found.update(holder.model.objects.values_list(holder.field, flat=True).distinct())
    return found


@transaction.atomic
def erase_person(email, now=None):
    consent_records.withdraw(consent_records.records_of(email), consent_records.Withdrawal.ERASED, now)
    # Lowercased by the database, as the forms' unique constraints compare addresses.
    lowered = Lower(Value(addresses.normalize(email)))
    for holder in _holders:
        rows = holder.model.objects.filter(**{f"{holder.field}__lower": lowered})
        if holder.admin_history:
            delete_with_admin_history(rows)
        else:
            rows.delete()
    return ErasureLog.objects.create(email_hash=email_hash(email))
