"""``manage.py check --deploy`` fails while the operator record is incomplete, naming each missing detail:
scripts/start-production.sh runs it, so production refuses to start with legal pages that are a draft."""
from django.core.checks import Error, register
from django.db import DatabaseError
from django.utils import translation

from .completeness import missing_details
from .models import OperatorRecord

HINT = "Fill it in the admin: Company › Operator record (see docs/decisions/0001-operator-record.md)."


@register("company", deploy=True)
def operator_record_complete(app_configs=None, **kwargs):
    # Messages in English, whatever the shell's language: they go to the operator's log.
    with translation.override("en"):
        try:
            missing = missing_details(OperatorRecord.current())
        except DatabaseError as error:
            return [Error(f"The operator record cannot be read ({error}).", hint="Run manage.py migrate.",
                          id="company.E002")]
        return [
            Error(f"The operator record is incomplete: {detail.label} ({detail.field}) is empty.",
                  hint=HINT, obj="company.OperatorRecord", id="company.E001")
            for detail in missing
        ]
