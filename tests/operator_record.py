"""A complete operator record with clearly fictional values (the company's real details are never
invented), kept in tests/operator-record.fictional.toml: the shape `manage.py load_operator_record` and
OPERATOR_RECORD_FILE read, also used by scripts/check-docker-image.sh."""
import tomllib
from pathlib import Path

from company.models import OperatorRecord, Recipient

FICTIONAL_RECORD_FILE = Path(__file__).resolve().parent / "operator-record.fictional.toml"
FICTIONAL_RECORD = tomllib.loads(FICTIONAL_RECORD_FILE.read_text(encoding="utf-8"))
FICTIONAL_RECIPIENTS = FICTIONAL_RECORD.pop("recipients")


def fill_operator_record(**overrides):
    record = OperatorRecord(pk=1, **{**FICTIONAL_RECORD, **overrides})
    record.save()
    record.recipients.all().delete()
    for recipient in FICTIONAL_RECIPIENTS:
        Recipient.objects.create(record=record, **recipient)
    return record


def operator_record_toml():
    return FICTIONAL_RECORD_FILE.read_text(encoding="utf-8")
