import shutil
import sys
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from prices.price_import import import_prices

# Standard input is copied to a temporary file (in memory up to this size) so that it is read like a file.
STDIN_MEMORY_BYTES = 1024 * 1024


class Command(BaseCommand):
    help = (
        "Import GPU prices from the market feed: a CSV (columns gpu, usd_per_hour, time) or JSON file "
        "(a list of objects with those keys). All or nothing: one bad row and nothing changes. A row older "
        "than the GPU's current price is not applied: the newer price is kept. A CSV file is read as a stream; "
        "files above PRICE_IMPORT_MAX_BYTES (JSON: PRICE_IMPORT_MAX_JSON_BYTES) are refused."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="The price file, .csv or .json; - for standard input (CSV or JSON).")

    def handle(self, *args, path, **options):
        limit = settings.PRICE_IMPORT_MAX_BYTES
        if path == "-":
            with tempfile.SpooledTemporaryFile(max_size=STDIN_MEMORY_BYTES) as copy:
                # One byte more than the cap at most: enough to know the input is too large.
                shutil.copyfileobj(LimitedReader(sys.stdin.buffer, limit + 1), copy)
                copy.seek(0)
                report = import_prices(copy, "")
        else:
            try:
                size = Path(path).stat().st_size
                if size > limit:
                    raise CommandError(f"{path} has {size:,} bytes, more than the {limit:,} an import reads "
                                       "(PRICE_IMPORT_MAX_BYTES): split it into smaller files.")
                with open(path, "rb") as price_file:
                    report = import_prices(price_file, path)
            except OSError as error:
                raise CommandError(f"Cannot read {path}: {error.strerror}") from error
        for change in report.changes:
            self.stdout.write(f"changed {change.slug}: {change.old} → {change.new} USD/h at {change.time.isoformat()}")
        for slug in report.unchanged:
            self.stdout.write(f"unchanged {slug}")
        for row in report.kept:
            self.stdout.write(f"row {row.number}, {row.slug}: {row.reason} ({row.time.isoformat()})")
        for number, reason in report.refused:
            self.stderr.write(f"refused row {number}: {reason}" if number else f"refused: {reason}")
        if not report.applied:
            raise CommandError("Nothing was imported.")
        self.stdout.write(self.style.SUCCESS(
            f"{len(report.changes)} prices changed, {len(report.unchanged)} unchanged, "
            f"{len(report.kept)} older than the current price (recorded as history only)."
        ))


class LimitedReader:
    """At most ``limit`` bytes of ``stream``."""

    def __init__(self, stream, limit):
        self.stream, self.left = stream, limit

    def read(self, size=-1):
        size = self.left if size is None or size < 0 else min(size, self.left)
        data = self.stream.read(size)
        self.left -= len(data)
        return data
