"""The mails of the signup flows, written in the recipient's language and queued in the outbox.

They never repeat what a visitor typed (a name, a company): a form that mails arbitrary text to any
address would be a spam relay."""
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from . import outbox


def absolute_url(path):
    # The configured address, never the request's Host header, which a visitor controls.
    return settings.SITE_URL + path


def queue_confirmation(signup, token, valid_days):
    """The double opt-in mail: the confirmation link, and the unsubscribe link every list mail carries."""
    with translation.override(signup.language):
        unsubscribe_url = signup.unsubscribe_url()
        body = render_to_string("signups/email/confirmation.txt", {
            "confirm_url": absolute_url(reverse("signups:confirm", kwargs={"token": token})),
            "unsubscribe_url": unsubscribe_url,
            "valid_days": valid_days,
        })
        subject = gettext("Confirm your EverXCloud signup")
    return outbox.queue(
        recipient=signup.email, subject=subject, body=body, language=signup.language,
        headers={
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            # RFC 8058: mail clients unsubscribe with one POST, without opening a page.
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def queue_provider_acknowledgement(application):
    with translation.override(application.language):
        body = render_to_string("signups/email/provider_acknowledgement.txt", {
            "privacy_url": absolute_url(reverse("signups:privacy")),
        })
        subject = gettext("We received your application to the EverXCloud Network")
    return outbox.queue(recipient=application.email, subject=subject, body=body, language=application.language)
