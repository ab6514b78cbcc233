"""The page a visitor came to a form from, kept as consent evidence: only ever a path on this site."""
from urllib.parse import urlsplit

from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language_from_path

MAX_LENGTH = 300


def site_path(candidate):
    """``candidate``'s path if it is a page of this site (``/es/…``), else None; any query is dropped."""
    if not candidate or len(candidate) > MAX_LENGTH or "\\" in candidate:
        return None
    parts = urlsplit(candidate)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return None
    # Language prefixes only resolve in their own language.
    with translation.override(get_language_from_path(parts.path) or translation.get_language()):
        try:
            resolve(parts.path)
        except Resolver404:
            return None
    return parts.path


def referring_path(request):
    """The path of the Referer header when it is a page of this site."""
    referer = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()}):
        return None
    return site_path(urlsplit(referer).path)
