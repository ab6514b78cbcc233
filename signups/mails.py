"""The mails of the signup flows, written in the recipient's language and queued in the outbox.

They never repeat what a visitor typed (a name, a company): a form that mails arbitrary text to any
address would be a spam relay."""
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from . import confirmation, outbox
from .links import url_in


def unsubscribe_url(signup):
    """The unsubscribe link that every mail to the list carries, in the signup's language: a page with one
    button, and the address mail clients POST to for a one-click unsubscribe (RFC 8058)."""
    return url_in(signup.language, "signups:unsubscribe", key=signup.unsubscribe_key)


def queue_confirmation(signup):
    """The double opt-in mail: the confirmation link (made when it is sent) and the unsubscribe link."""
    unsubscribe = unsubscribe_url(signup)
    with translation.override(signup.language):
        body = render_to_string("signups/email/confirmation.txt", {
            "confirm_url": confirmation.LINK_PLACEHOLDER,
            "unsubscribe_url": unsubscribe,
            "valid_days": confirmation.VALID_FOR.days,
        })
        subject = gettext("Confirm your EverXCloud signup")
    return outbox.queue(
        recipient=signup.email, subject=subject, body=body, language=signup.language,
        confirmation_for=signup,
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            # RFC 8058: mail clients unsubscribe with one POST, without opening a page.
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def queue_provider_acknowledgement(application):
    with translation.override(application.language):
        body = render_to_string("signups/email/provider_acknowledgement.txt", {
            "privacy_url": url_in(application.language, "signups:privacy"),
        })
        subject = gettext("We received your application to the EverXCloud Network")
    return outbox.queue(
        recipient=application.email, subject=subject, body=body, language=application.language,
    )
