"""The mails of price alerts, written in the recipient's language and queued in the outbox (``optin``).

They never repeat what a visitor typed: a form that mails arbitrary text to any address would be a spam relay."""
from django.template.loader import render_to_string
from django.utils import formats, translation
from django.utils.translation import gettext

from core.formatting import format_usd
from core.pages import absolute_url
from optin import outbox
from optin.confirmation import LINK_PLACEHOLDER, VALID_FOR
from optin.links import one_click_unsubscribe, url_in
from optin.models import OutboxEmail
from signups import mails as signup_mails

# The mails' wording, as consent records keep it: bump a version whenever its template or subject changes.
CONFIRMATION_MAIL_VERSION = "price-alert-confirmation-2"
# The outbox's name for the renew link of a reminder (registered in ``apps.py``).
RENEWAL_LINK_KIND = "price_alert_renewal"


def alert_delete_url(alert):
    """The link in every mail about a price alert, in the alert's language: a page with one button, and the
    address mail clients POST to (RFC 8058) to delete the alert."""
    return url_in(alert.language, "alerts:price_alert_delete", key=alert.unsubscribe_key)


def queue_alert_confirmation(alert, target):
    """The double opt-in mail of a new alert, or of a new ``target`` for a confirmed one (its link is made
    when it is sent)."""
    delete_url = alert_delete_url(alert)
    # A launch-list signup asked for with the alert: the same link confirms it, and the mail says so.
    signup = alert.launch_list_signup if alert.launch_list_signup_id is not None else None
    with translation.override(alert.language):
        body = render_to_string("alerts/email/price_alert_confirmation.txt", {
            "launch_list_unsubscribe_url": signup_mails.unsubscribe_url(signup) if signup is not None else "",
            "gpu": alert.gpu.name,
            "target": format_usd(target),
            "confirm_url": LINK_PLACEHOLDER,
            "delete_url": delete_url,
            "valid_days": VALID_FOR.days,
        })
        subject = gettext("Confirm your EverXCloud price alert for the %(gpu)s") % {"gpu": alert.gpu.name}
    return outbox.queue(
        recipient=alert.email, subject=subject, body=body, language=alert.language,
        confirmation_of=alert, headers=one_click_unsubscribe(delete_url),
    )


def queue_alert_limit_reached(*, email, gpu, target, language, held):
    """The answer to a request for one alert more than an address may hold (``held``, its alerts): nothing was
    stored; each alert's delete link makes room."""
    with translation.override(language):
        body = render_to_string("alerts/email/price_alert_limit.txt", {
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
        body = render_to_string("alerts/email/price_alert.txt", {
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


def queue_renewal_reminder(alert, ends_at):
    """The reminder that ``alert`` lapses at ``ends_at`` unless renewed: the renew link (made when it is sent, as a
    confirmation link is: ``lapse.RENEWAL_LINK``) and the delete link."""
    delete_url = alert_delete_url(alert)
    with translation.override(alert.language):
        body = render_to_string("alerts/email/price_alert_renewal.txt", {
            "gpu": alert.gpu.name,
            "target": format_usd(alert.target_usd_per_hour),
            "ends": formats.date_format(ends_at, "DATE_FORMAT"),
            "renew_url": LINK_PLACEHOLDER,
            "delete_url": delete_url,
        })
        subject = gettext("Your EverXCloud price alert for the %(gpu)s ends soon") % {"gpu": alert.gpu.name}
    return outbox.queue(
        recipient=alert.email, subject=subject, body=body, language=alert.language,
        confirmation_of=alert, link_kind=RENEWAL_LINK_KIND, headers=one_click_unsubscribe(delete_url),
    )
