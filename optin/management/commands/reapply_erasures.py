"""After a database restore (docs/operations.md): erase again the people whose data was erased after the
backup was made. The backup still holds their rows; the erasure records made since are read from a CSV file
exported from the database before the restore (``email_hash,erased_at``, as psql's ``\\copy … CSV HEADER``
writes them).

An erasure already in the restored database is left alone (a person may have signed up again after it);
one that is not is applied to every row whose address it matches, and recorded with its original time."""
import csv
from datetime import datetime

from django.core.management.base import BaseCommand
from django.db import transaction

from optin import addresses, pseudonyms
from optin.erasure import erase_person, held_addresses
from optin.models import ErasureLog


class Command(BaseCommand):
    help = "Apply again the erasures made after the restored backup (a CSV of email_hash,erased_at)."

    def add_arguments(self, parser):
        parser.add_argument("path")

    @transaction.atomic
    def handle(self, path, **options):
        with open(path, newline="", encoding="utf-8") as handle:
            erasures = {row["email_hash"]: datetime.fromisoformat(row["erased_at"]) for row in csv.DictReader(handle)}
        known = set(ErasureLog.objects.filter(email_hash__in=erasures).values_list("email_hash", flat=True))
        missing = {email_hash: erased_at for email_hash, erased_at in erasures.items() if email_hash not in known}
        erased = 0
        for address in sorted(held_addresses()):
            hashes = {found for key in addresses.keys(address) for found in pseudonyms.erasure_hashes(key)}
            matches = hashes & set(missing)
            if not matches:
                continue
            erase_person(address).delete()  # its own record is replaced by the original one below
            erased += 1
        ErasureLog.objects.bulk_create(
            ErasureLog(email_hash=email_hash, erased_at=erased_at) for email_hash, erased_at in missing.items())
        self.stdout.write(f"{len(missing)} erasures made after the backup applied again ({erased} addresses "
                          f"held rows); {len(known)} already in the restored database.")
