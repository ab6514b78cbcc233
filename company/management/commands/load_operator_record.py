"""Fill the operator record from a TOML file (company/operator-record.example.toml shows its shape): how
operators fill it before the first production start, which refuses to serve an incomplete record.

The file's fields replace the record's; its recipients replace the record's recipients. The details still
missing are listed afterwards."""
import tomllib

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from company.completeness import missing_details
from company.models import OperatorRecord, Recipient


class Command(BaseCommand):
    help = "Fill the operator record (the company behind the site) from a TOML file."

    def add_arguments(self, parser):
        parser.add_argument("path")

    def handle(self, path, **options):
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
        recipients = data.pop("recipients", None)
        fields = {field.name for field in OperatorRecord._meta.concrete_fields} - {"id"}
        unknown = set(data) - fields
        if unknown:
            raise CommandError(f"Unknown fields in {path}: {', '.join(sorted(unknown))}")
        with transaction.atomic():
            record = OperatorRecord.objects.filter(pk=1).first() or OperatorRecord(pk=1)
            for name, value in data.items():
                setattr(record, name, value)
            try:
                record.full_clean()
                record.save()
                if recipients is not None:
                    record.recipients.all().delete()
                    for values in recipients:
                        recipient = Recipient(record=record, **values)
                        recipient.full_clean()
                        recipient.save()
            except (ValidationError, TypeError) as error:
                raise CommandError(f"{path}: {error}") from None
        missing = missing_details(OperatorRecord.current())
        if missing:
            self.stdout.write("Still missing: " + ", ".join(f"{detail.label} ({detail.field})"
                                                             for detail in missing))
        else:
            self.stdout.write("The operator record is complete.")
