"""Erasure of one person's data on request (GDPR Art. 17, LGPD Art. 18): every row that holds their
address, the admin history that names those rows, and only an anonymous trace that it was done.

The address is normalized as the forms store it (``addresses.py``), so any spelling of one mailbox
(``IDN@BÜCHER.example``, ``idn@xn--bcher-kva.example``) erases the same rows."""
import hashlib

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Value
from django.db.models.functions import Lower

from . import addresses
from .models import ErasureLog, OutboxEmail, ProviderApplication, Signup, WaitlistRequest


def email_sha256(email):
    """One-way, yet lets us answer "did you erase my data?" from the address alone, however it is spelt."""
    return hashlib.sha256(addresses.key(email).encode()).hexdigest()


@transaction.atomic
def erase_person(email):
    # Lowercased by the database, as the signups' unique constraint compares addresses.
    lowered = Lower(Value(addresses.normalize(email)))
    for model in (Signup, ProviderApplication):
        rows = model.objects.filter(email__lower=lowered)
        # The admin's history names each row by its email address or company.
        LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(model),
            object_id__in=[str(pk) for pk in rows.values_list("pk", flat=True)],
        ).delete()
        rows.delete()
    WaitlistRequest.objects.filter(email__lower=lowered).delete()
    OutboxEmail.objects.filter(recipient__lower=lowered).delete()
    return ErasureLog.objects.create(email_sha256=email_sha256(email))
