"""The operator record as the legal pages' fields: ``{legal_name}`` in a page's text is replaced by the
record's value, in the page's language (country names from CLDR, periods and roles translated).

A value is text (its lines kept), a list (a block holding only the field becomes a list), NOT_APPLICABLE
(the line holding the field is left out: a detail the operator decided does not apply) or a Missing
detail (shown as "not yet filled": the page is a draft)."""
from django.conf import settings
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.formatting import babel_locale

from .cached_record import operator_record
from .completeness import Missing, is_empty, label
from .models import Applicability, OperatorRecord, Recipient

NOT_APPLICABLE = object()


def country_name(code):
    return babel_locale().territories.get(code, code)


def months(count):
    if count % 12 == 0:
        return ngettext("%(count)d year", "%(count)d years", count // 12) % {"count": count // 12}
    return ngettext("%(count)d month", "%(count)d months", count) % {"count": count}


def days(count):
    return ngettext("%(count)d day", "%(count)d days", count) % {"count": count}


def text(record, field, shown=str):
    value = getattr(record, field)
    return Missing(field, label(field)) if is_empty(value) else shown(value)


def applicable(record, decision, detail):
    if getattr(record, decision) == Applicability.DOES_NOT_APPLY:
        return NOT_APPLICABLE
    if getattr(record, decision) == Applicability.UNDECIDED:
        return Missing(decision, label(decision))
    return text(record, detail)


def dispute_resolution(record):
    if record.dispute_resolution == OperatorRecord.DisputeResolution.NOT_WILLING:
        return _("We are neither willing nor obliged to take part in dispute resolution proceedings before a "
                 "consumer arbitration board.")
    if record.dispute_resolution == OperatorRecord.DisputeResolution.WILLING and record.dispute_resolution_body:
        return _("We take part in dispute resolution proceedings before this consumer arbitration board: "
                 "%(body)s.") % {"body": record.dispute_resolution_body}
    if record.dispute_resolution == OperatorRecord.DisputeResolution.WILLING:
        return Missing("dispute_resolution_body", label("dispute_resolution_body"))
    return Missing("dispute_resolution", label("dispute_resolution"))


def recipient_lines(record, roles):
    recipients = {role: [] for role in roles}
    for recipient in record_recipients(record):
        recipients[recipient.role].append(recipient)
    lines = []
    for role in roles:
        if not recipients[role]:
            lines.append(Missing(f"recipients:{role.value}", _("recipient of personal data: %(role)s")
                                 % {"role": role.label}))
        for recipient in recipients[role]:
            lines.append(_("%(role)s: %(name)s (%(country)s)") % {
                "role": capfirst(role.label), "name": recipient.name, "country": country_name(recipient.country)})
    return lines


def record_recipients(record):
    return list(record.recipients.all()) if not record._state.adding else []


def transfers(record):
    """The recipients outside the EEA with the safeguard of each, or a sentence saying there are none."""
    lines = []
    for recipient in record_recipients(record):
        if not recipient.outside_eea:
            continue
        if not recipient.safeguard:
            lines.append(Missing(f"recipients:{recipient.role}:safeguard",
                                 _("transfer safeguard of %(name)s") % {"name": recipient.name}))
            continue
        lines.append(_("%(name)s (%(country)s): %(safeguard)s") % {
            "name": recipient.name, "country": country_name(recipient.country),
            "safeguard": Recipient.Safeguard(recipient.safeguard).label})
    if not lines and record_recipients(record):
        return _("None of our service providers is outside the European Economic Area.")
    return lines or [Missing("recipients", _("recipients of personal data"))]


def controller(record):
    parts = [text(record, "legal_name"), text(record, "legal_form")]
    if any(isinstance(part, Missing) for part in parts):
        return next(part for part in parts if isinstance(part, Missing))
    return f"{record.legal_name} {record.legal_form}"


def address_lines(record):
    """The postal address, one line per part: street, postcode and city, country."""
    parts = [text(record, "street"), text(record, "postal_code"), text(record, "city"),
             text(record, "country", country_name)]
    missing = [part for part in parts if isinstance(part, Missing)]
    if missing:
        return missing[0]
    street, postal_code, city, country = parts
    return f"{street}\n{postal_code} {city}\n{country}"


def legal_fields(record=None):
    """Every field the legal pages may name, in the active language: {name: value}."""
    record = record if record is not None else operator_record()
    address = address_lines(record)
    return {
        "company": controller(record),
        "address": address,
        "address_line": address.replace("\n", ", ") if isinstance(address, str) else address,
        "representatives": text(record, "representatives", lambda value: "\n".join(
            line.strip() for line in value.splitlines() if line.strip())),
        "contact_email": text(record, "contact_email"),
        "phone": text(record, "phone"),
        "privacy_email": text(record, "privacy_email"),
        "register_name": text(record, "register_name"),
        "register_number": text(record, "register_number"),
        "vat_id": text(record, "vat_id"),
        "cnpj": applicable(record, "cnpj_applies", "cnpj"),
        "dpo": applicable(record, "dpo_applies", "dpo"),
        "eu_representative": applicable(record, "eu_representative_applies", "eu_representative"),
        "licensing_authority": applicable(record, "licensing_authority_applies", "licensing_authority"),
        "lead_supervisory_authority": text(record, "lead_supervisory_authority"),
        "content_responsible": text(record, "content_responsible"),
        "dispute_resolution": dispute_resolution(record),
        "consent_evidence_retention": text(record, "consent_evidence_retention_months", months),
        "unconfirmed_retention": days(settings.SIGNUP_UNCONFIRMED_RETENTION_DAYS),
        "confirmation_link_validity": days(settings.CONFIRMATION_LINK_VALID_DAYS),
        "price_alert_lifetime": days(settings.PRICE_ALERT_LIFETIME_DAYS),
        "price_alert_renewal_notice": days(settings.PRICE_ALERT_RENEWAL_NOTICE_DAYS),
        "provider_application_retention": text(record, "provider_application_retention_months", months),
        "erasure_record_retention": text(record, "erasure_record_retention_months", months),
        "backup_retention": text(record, "backup_retention_days", days),
        "recipients": recipient_lines(record, list(Recipient.Role)),
        "transfers": transfers(record),
    }
