"""Absolute links for mails: built on SITE_URL, never on the Host header, which a visitor controls."""
from django.conf import settings
from django.urls import reverse
from django.utils import translation


def absolute_url(path):
    return settings.SITE_URL + path


def url_in(language, view_name, **kwargs):
    with translation.override(language):
        return absolute_url(reverse(view_name, kwargs=kwargs or None))
