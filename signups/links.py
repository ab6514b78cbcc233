"""Absolute links for mails: built on SITE_URL (``core.pages.absolute_url``), never on the Host header,
which a visitor controls."""
from django.urls import reverse
from django.utils import translation

from core.pages import absolute_url


def url_in(language, view_name, **kwargs):
    with translation.override(language):
        return absolute_url(reverse(view_name, kwargs=kwargs or None))
