"""Absolute links for mails: built on SITE_URL (``core.pages.absolute_url``), never on the Host header,
which a visitor controls."""
from django.urls import reverse
from django.utils import translation

from core.pages import absolute_url


def url_in(language, view_name, **kwargs):
    with translation.override(language):
        return absolute_url(reverse(view_name, kwargs=kwargs or None))


def one_click_unsubscribe(url):
    """The headers of a mail whose ``url`` ends what it is about (an unsubscribe, an alert's deletion)."""
    return {
        "List-Unsubscribe": f"<{url}>",
        # RFC 8058: mail clients unsubscribe with one POST, without opening a page.
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
