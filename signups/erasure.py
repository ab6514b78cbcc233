"""Erasure of one person's data on request (GDPR Art. 17, LGPD Art. 18): every row that holds their
address, the admin history that names those rows, and only a pseudonymous trace that it was done (a
keyed hash of the address: ``pseudonyms.py``).

The address is normalized as the forms store it (``addresses.py``), so any spelling of one mailbox
(``IDN@BÜCHER.example``, ``idn@xn--bcher-kva.example``) erases the same rows."""
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Value
from django.db.models.functions import Lower

from . import addresses, pseudonyms
from .models import ErasureLog, OutboxEmail, PriceAlert, ProviderApplication, Signup, WaitlistRequest


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


@transaction.atomic
def erase_person(email):
    # Lowercased by the database, as the signups' unique constraint compares addresses.
    lowered = Lower(Value(addresses.normalize(email)))
    for model in (Signup, PriceAlert, ProviderApplication):
        delete_with_admin_history(model.objects.filter(email__lower=lowered))
    WaitlistRequest.objects.filter(email__lower=lowered).delete()
    OutboxEmail.objects.filter(recipient__lower=lowered).delete()
    return ErasureLog.objects.create(email_hash=email_hash(email))
