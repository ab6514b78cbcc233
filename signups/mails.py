"""The mails of the signup flows, written in the recipient's language and queued in the outbox.

They never repeat what a visitor typed (a name, a company): a form that mails arbitrary text to any
address would be a spam relay."""
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from core.formatting import format_usd
from core.pages import absolute_url

from . import confirmation, outbox
from .links import url_in
from .models import OutboxEmail


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
        confirmation_for=signup, headers=one_click_unsubscribe(unsubscribe),
    )


def one_click_unsubscribe(url):
    return {
        "List-Unsubscribe": f"<{url}>",
        # RFC 8058: mail clients unsubscribe with one POST, without opening a page.
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def alert_delete_url(alert):
    """The link in every mail about a price alert, in the alert's language: a page with one button, and the
    address mail clients POST to (RFC 8058) to delete the alert."""
    return url_in(alert.language, "signups:price_alert_delete", key=alert.unsubscribe_key)


def queue_alert_confirmation(alert, target):
    """The double opt-in mail of a new alert, or of a new ``target`` for a confirmed one (its link is made
    when it is sent)."""
    delete_url = alert_delete_url(alert)
    with translation.override(alert.language):
        body = render_to_string("signups/email/price_alert_confirmation.txt", {
            "gpu": alert.gpu.name,
            "target": format_usd(target),
            "confirm_url": confirmation.LINK_PLACEHOLDER,
            "delete_url": delete_url,
            "valid_days": confirmation.VALID_FOR.days,
        })
        subject = gettext("Confirm your EverXCloud price alert for the %(gpu)s") % {"gpu": alert.gpu.name}
    return outbox.queue(
        recipient=alert.email, subject=subject, body=body, language=alert.language,
        alert_confirmation_for=alert, headers=one_click_unsubscribe(delete_url),
    )


def queue_alert_limit_reached(*, email, gpu, target, language, held):
    """The answer to a request for one alert more than an address may hold (``held``, its alerts): nothing was
    stored; each alert's delete link makes room."""
    with translation.override(language):
        body = render_to_string("signups/email/price_alert_limit.txt", {
            "gpu": gpu.name,
            "target": format_usd(target),
            "count": len(held),
            "alerts": [(alert.gpu.name, format_usd(alert.target_usd_per_hour), alert_delete_url(alert))
                       for alert in held],
        })
        subject = gettext("Your EverXCloud price alert for the %(gpu)s was not set") % {"gpu": gpu.name}
    return outbox.queue(recipient=email, subject=subject, body=body, language=language)


def price_alert_mail(alert, gpu, price):
    """The alert itself, unsaved (``outbox.queue_all`` stores many at once): the GPU's new best price, its
    page and the link that deletes the alert."""
    delete_url = alert_delete_url(alert)
    with translation.override(alert.language):
        price_text = format_usd(price)
        body = render_to_string("signups/email/price_alert.txt", {
            "gpu": gpu.name,
            "price": price_text,
            "target": format_usd(alert.target_usd_per_hour),
            "gpu_url": absolute_url(gpu.get_absolute_url(alert.language)),
            "delete_url": delete_url,
        })
        subject = gettext("The %(gpu)s is at %(price)s per GPU-hour") % {"gpu": gpu.name, "price": price_text}
    return OutboxEmail(
        recipient=alert.email, subject=subject, body=body, language=alert.language,
        headers=one_click_unsubscribe(delete_url),
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
