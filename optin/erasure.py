"""Erasure of one person's data on request (GDPR Art. 17, LGPD Art. 18): every row that holds their
address, the admin history that names those rows, and only a pseudonymous trace that it was done (a
keyed hash of the address: ``pseudonyms.py``). The evidence of the person's consents stays, ended as
"erased on request" and kept for the evidence's period: it holds no address, only another keyed hash, and
proves what was consented to and that it ended (docs/decisions/0013-consent-evidence-apart.md).

Rows are found by RFC equivalence plus Gmail's rules (``addresses.equivalent_address``), so any spelling of one
mailbox (``IDN@BÜCHER.example``, ``idn@xn--bcher-kva.example``, ``"ana"@…``, ``a.na+x@googlemail.com``) erases
the same rows, also rows stored before the forms stored that one spelling. The rows are the forms' (in apps above
this one): each registers its models that hold addresses (``register_address_holder``).

An erasure takes the mailbox's lock (``mail_budget.lock``) before anything else, as the mail worker does before it
applies a waiting request: an erasure that comes while the worker holds a request of that address waits for its
commit, and then erases what it made."""
from typing import NamedTuple

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import connections, router, transaction
from django.db.models import Q
from django.db.models.functions import Lower

from . import addresses, consent_records, mail_budget, pseudonyms
from .models import ErasureLog, OutboxEmail


class AddressHolder(NamedTuple):
    model: type
    field: str  # the address field, with the ``Lower`` lookup registered on it
    admin_history: bool  # whether the admin's history names its rows (then deleted with them)


_holders = [AddressHolder(OutboxEmail, "recipient", admin_history=False)]


def register_address_holder(model, field="email", *, admin_history=True):
    """Called from the ``AppConfig.ready()`` of an app whose ``model`` stores people's addresses."""
    holder = AddressHolder(model, field, admin_history)
    model._meta.get_field(field).register_lookup(Lower)  # ``<field>__lower``, as the forms' constraints compare
    if holder not in _holders:
        _holders.insert(-1, holder)  # the outbox last: deleting the rows deletes their confirmation mails first


def address_holders():
    return list(_holders)


def email_hash(email):
    """One-way, yet lets us answer "did you erase my data?" from the address alone, however it is spelt."""
    return pseudonyms.erasure_hash(addresses.key(email))


def erasures_of(email):
    """The erasures logged for ``email``, however it is spelt, under SECRET_KEY or one of its fallbacks (and the
    key hashes were made from before ``addresses.equivalent_address``)."""
    hashes = [found for key in addresses.keys(email) for found in pseudonyms.erasure_hashes(key)]
    return ErasureLog.objects.filter(email_hash__in=hashes)


def rows_of(holder, email):
    """The rows of ``holder`` whose address is equivalent to ``email`` (``addresses.equivalent_address``): the
    stored spelling, compared ignoring case as the unique constraints do, and any other spelling at the same
    domain (at Gmail: either of its domains), compared in Python. Only erasure and its like read them so."""
    target = addresses.key(email)
    local, _at, domain = target.rpartition("@")
    domains = addresses.GMAIL_DOMAINS if domain == addresses.GMAIL_DOMAIN else {domain}
    at_domain = Q()
    for name in domains:
        at_domain |= Q(**{f"{holder.field}__iendswith": f"@{name}"})
    found = [pk for pk, address in holder.model.objects.filter(at_domain).values_list("pk", holder.field)
             if addresses.key(address) == target] if local else []
    spellings = {target, addresses.legacy_key(email)}
    return holder.model.objects.filter(Q(pk__in=found) | Q(**{f"{holder.field}__lower__in": spellings}))


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


def checkpoint_sqlite(using):
    """On SQLite, copy the write-ahead log into the database (whose deleted rows ``secure_delete`` overwrote) and
    empty it: the log still holds the pages as they were before the erasure. Best effort: a reader in the middle of
    a transaction keeps the log until the next checkpoint."""
    connection = connections[using]
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def erase_person(email, now=None):
    """Erase every row of ``email``'s mailbox (its spellings), then, on SQLite, the write-ahead log's copies."""
    using = router.db_for_write(ErasureLog)
    with transaction.atomic(using=using):
        # Once the outermost transaction has committed (an admin action's, the restore command's).
        transaction.on_commit(lambda: checkpoint_sqlite(using), using=using)
        return erase_rows(email, now)


def erase_rows(email, now=None):
    mail_budget.lock(email)  # after the worker's commit of a request of this mailbox, if it holds one
    consent_records.withdraw(consent_records.records_of(email), consent_records.Withdrawal.ERASED, now)
    for holder in _holders:
        rows = rows_of(holder, email)
        if holder.admin_history:
            delete_with_admin_history(rows)
        else:
            rows.delete()
    return ErasureLog.objects.create(email_hash=email_hash(email))
