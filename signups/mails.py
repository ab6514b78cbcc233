"""The mails of the signup flows, written in the recipient's language and queued in the outbox (``optin``).

They never repeat what a visitor typed (a name, a company): a form that mails arbitrary text to any
address would be a spam relay."""
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from optin import consent_records, outbox
from optin.confirmation import LINK_PLACEHOLDER, VALID_FOR
from optin.links import one_click_unsubscribe, url_in

# The confirmation mail's wording, as its consent records keep it: bump it whenever
# ``signups/email/confirmation.txt`` or its subject changes.
CONFIRMATION_MAIL_VERSION = "signup-confirmation-1"


def unsubscribe_url(signup):
    """The unsubscribe link that every mail to the list carries, in the signup's language: a page with one
    button, and the address mail clients POST to for a one-click unsubscribe (RFC 8058)."""
    return url_in(signup.language, "signups:unsubscribe", key=signup.unsubscribe_key)


def ask_consent(signup):
    """The signup's consent record as its consent is asked (made, or while unconfirmed, taking its new answers)."""
    record = consent_records.reasked(
        signup.consent_record, consent_records.Purpose.WAITLIST, email=signup.email, asked_at=signup.signed_up_at,
        consent={field: getattr(signup, field) for field in consent_records.EVIDENCE_FIELDS},
    )
    if record.pk != signup.consent_record_id:
        signup.consent_record = record
        type(signup).objects.filter(pk=signup.pk).update(consent_record=record)
    return record


def queue_confirmation(signup):
    """The double opt-in mail: the confirmation link (made when it is sent) and the unsubscribe link. Asking for
    a confirmation is asking for consent: the signup's consent record is made here (or, while the signup is
    unconfirmed, takes its new answers), so every mail that can confirm has its evidence."""
    ask_consent(signup)
    unsubscribe = unsubscribe_url(signup)
    with translation.override(signup.language):
        body = render_to_string("signups/email/confirmation.txt", {
            "confirm_url": LINK_PLACEHOLDER,
            "unsubscribe_url": unsubscribe,
            "valid_days": VALID_FOR.days,
        })
        subject = gettext("Confirm your EverXCloud signup")
    return outbox.queue(
        recipient=signup.email, subject=subject, body=body, language=signup.language,
        confirmation_of=signup, headers=one_click_unsubscribe(unsubscribe),
    )
