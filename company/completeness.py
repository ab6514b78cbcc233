"""Which details of the operator record are still missing: what ``check --deploy`` names, what makes the
legal pages a draft. A detail the law asks for only in some cases counts as missing until an operator
decides whether it applies."""
from typing import NamedTuple

from django.utils.translation import gettext_lazy as _

from .models import Applicability, OperatorRecord, Recipient

ALWAYS_NEEDED = (
    "legal_name", "legal_form", "street", "postal_code", "city", "country", "representatives",
    "register_name", "register_number", "vat_id", "contact_email", "phone", "privacy_email",
    "lead_supervisory_authority", "content_responsible", "consent_evidence_retention_months",
    "provider_application_retention_months", "erasure_record_retention_months", "backup_retention_days",
)
# (decision, detail needed when it applies)
NEEDED_WHEN_APPLICABLE = (
    ("cnpj_applies", "cnpj"), ("dpo_applies", "dpo"), ("eu_representative_applies", "eu_representative"),
    ("licensing_authority_applies", "licensing_authority"),
)


class Missing(NamedTuple):
    field: str  # the model field, or "recipients:<role>"
    label: str


def label(field):
    return str(OperatorRecord._meta.get_field(field).verbose_name)


def is_empty(value):
    return value is None or (isinstance(value, str) and not value.strip())


def missing_details(record):
    """Each missing detail of ``record`` (an OperatorRecord, saved or not), in the admin's order."""
    missing = [Missing(field, label(field)) for field in ALWAYS_NEEDED if is_empty(getattr(record, field))]
    for decision, detail in NEEDED_WHEN_APPLICABLE:
        if getattr(record, decision) == Applicability.UNDECIDED:
            missing.append(Missing(decision, label(decision)))
        elif getattr(record, decision) == Applicability.APPLIES and is_empty(getattr(record, detail)):
            missing.append(Missing(detail, label(detail)))
    if record.dispute_resolution == OperatorRecord.DisputeResolution.UNDECIDED:
        missing.append(Missing("dispute_resolution", label("dispute_resolution")))
    elif (record.dispute_resolution == OperatorRecord.DisputeResolution.WILLING
          and is_empty(record.dispute_resolution_body)):
        missing.append(Missing("dispute_resolution_body", label("dispute_resolution_body")))
    recipients = list(record.recipients.all()) if record.pk and not record._state.adding else []
    roles = {recipient.role for recipient in recipients}
    for role in Recipient.Role:
        if role not in roles:
            missing.append(Missing(f"recipients:{role.value}",
                                   _("recipient of personal data: %(role)s") % {"role": role.label}))
    for recipient in recipients:
        if recipient.outside_eea and not recipient.safeguard:
            missing.append(Missing(f"recipients:{recipient.role}:safeguard",
                                   _("transfer safeguard of %(name)s") % {"name": recipient.name}))
    return missing
