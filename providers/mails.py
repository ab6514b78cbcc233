"""The acknowledgement of an application, in the applicant's language, queued in the outbox (``optin``). It
repeats nothing the visitor typed (a name, a company): a form that mails arbitrary text to any address would be
a spam relay."""
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from optin import outbox
from optin.links import url_in


def queue_acknowledgement(application):
    with translation.override(application.language):
        body = render_to_string("providers/email/acknowledgement.txt", {
            "privacy_url": url_in(application.language, "company:privacy"),
        })
        subject = gettext("We received your application to the EverXCloud Network")
    return outbox.queue(
        recipient=application.email, subject=subject, body=body, language=application.language,
    )
