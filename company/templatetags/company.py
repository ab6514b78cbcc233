"""The operator record in templates: the draft banner of the legal pages and the signature of every mail."""
from django import template
from django.template.loader import render_to_string

from ..cached_record import operator_record
from ..completeness import missing_details
from ..legal_fields import country_name

register = template.Library()


@register.inclusion_tag("company/draft_banner.html")
def draft_banner():
    """A visible "draft" note while the record is incomplete (production refuses to start then)."""
    return {"missing": missing_details(operator_record())}


@register.simple_tag
def mail_signature():
    """The sender's identity, as the last lines of a mail (plain text): brand, company, address, contact.
    Details not yet filled are left out (production refuses to start without them)."""
    record = operator_record()
    company = " ".join(part for part in (record.legal_name, record.legal_form) if part)
    city = " ".join(part for part in (record.postal_code, record.city) if part)
    address = ", ".join(part for part in (record.street, city, country_name(record.country) if record.country
                                          else "") if part)
    return render_to_string("company/mail_signature.txt", {
        "company": company, "address": address, "contact_email": record.contact_email,
    }).strip()
