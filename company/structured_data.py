"""The operator record as schema.org Organization properties (the brand's name and logo are the page's)."""
from .cached_record import operator_record


def organization_details(record=None):
    """legalName, address, email, telephone and vatID, each only once filled in."""
    record = record if record is not None else operator_record()
    details = {}
    if record.legal_name:
        details["legalName"] = " ".join(part for part in (record.legal_name, record.legal_form) if part)
    address = {
        "streetAddress": record.street, "postalCode": record.postal_code, "addressLocality": record.city,
        "addressCountry": record.country,
    }
    if any(address.values()):
        details["address"] = {"@type": "PostalAddress", **{key: value for key, value in address.items() if value}}
    for key, value in (("email", record.contact_email), ("telephone", record.phone), ("vatID", record.vat_id)):
        if value:
            details[key] = value
    return details
