"""The home page's line about the company behind the site, from the operator record alone (never invented):
its legal name, city, country and contact address, or nothing while one of them is still empty."""
from .cached_record import operator_record
from .completeness import is_empty
from .legal_fields import country_name

SHOWN_FIELDS = ("legal_name", "city", "country", "contact_email")


def company_line(record=None):
    """{"name", "place", "email"} in the active language, or None while the record lacks one of them."""
    record = record if record is not None else operator_record()
    if any(is_empty(getattr(record, field)) for field in SHOWN_FIELDS):
        return None
    return {
        "name": " ".join(part for part in (record.legal_name, record.legal_form) if part),
        "place": f"{record.city}, {country_name(record.country)}",
        "email": record.contact_email,
    }
