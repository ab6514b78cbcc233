"""The page a visitor came to a form from, kept as consent evidence: only ever a page this site has."""
from urllib.parse import urlsplit

from django.utils.http import url_has_allowed_host_and_scheme

from core.pages import urls_by_language

MAX_LENGTH = 300


def real_pages():
    """Every public page (the sitemap's) and the forms, in every language: a path that merely matches a
    URL pattern (``/es/gpus/invented/``) is no page."""
    from core.sitemaps import public_pages  # the composition of every app's pages

    paths = {path for page in public_pages() for path in page.values()}
    for view_name in ("signups:signup", "signups:provider_application"):
        paths.update(urls_by_language(view_name).values())
    return paths


def site_path(candidate):
    """``candidate``'s path if it is a page of this site (``/es/…``), else None; any query is dropped."""
    if not candidate or len(candidate) > MAX_LENGTH or "\\" in candidate:
        return None
    parts = urlsplit(candidate)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return None
    return parts.path if parts.path in real_pages() else None


def referring_path(request):
    """The path of the Referer header when it is a page of this site."""
    referer = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()}):
        return None
    return site_path(urlsplit(referer).path)
