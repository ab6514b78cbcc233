import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from catalog.price_import import import_prices


class Command(BaseCommand):
    help = (
        "Import GPU prices from the market feed: a CSV (columns gpu, usd_per_hour, time) or JSON file "
        "(a list of objects with those keys). All or nothing: one bad row and nothing changes. A row older "
        "than the GPU's current price is not applied: the newer price is kept."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="The price file, .csv or .json; - for standard input (CSV or JSON).")

    def handle(self, *args, path, **options):
        if path == "-":
            content, name = sys.stdin.buffer.read(), ""
        else:
            try:
                content, name = Path(path).read_bytes(), path
            except OSError as error:
                raise CommandError(f"Cannot read {path}: {error.strerror}") from error
        report = import_prices(content, name)
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
