"""The page a visitor came to a form from, kept as consent evidence: only ever a page this site has."""
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.urls import URLResolver, get_resolver
from django.utils.http import url_has_allowed_host_and_scheme

from caching.fragments import CachedContent
from core.pages import urls_by_language
from core.sitemaps import public_pages

MAX_LENGTH = 300


def form_view_names(patterns=None):
    """The URL names of the public forms' own pages (not in the sitemap), as the URLconf serves them: every view
    built on ``views.PublicFormView`` at an address without arguments (the signup, and the forms of the apps
    above, such as the provider application; not a form per GPU, such as the price alert's)."""
    from .views import PublicFormView  # the views import this module

    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from form_view_names(pattern.url_patterns)
        elif (issubclass(getattr(pattern.callback, "view_class", object), PublicFormView)
              and not pattern.pattern.converters):
            yield pattern.callback.view_class.view_name


@dataclass(frozen=True)
class RealPaths:
    version: int
    paths: frozenset


def load_real_paths(version):
    """Every public page (the sitemap's) and the forms, in every language: a path that merely matches a
    URL pattern (``/es/gpus/invented/``) is no page."""
    paths = {path for page in public_pages() for path in page.values()}
    for view_name in form_view_names():
        paths.update(urls_by_language(view_name).values())
    return RealPaths(version, frozenset(paths))


# Worked out once per content version in each process, not on every form a visitor sends.
real_paths = CachedContent(load_real_paths)


def site_path(candidate):
    """``candidate``'s path if it is a page of this site (``/es/…``), else None; any query is dropped."""
    if not candidate or len(candidate) > MAX_LENGTH or "\\" in candidate:
        return None
    parts = urlsplit(candidate)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return None
    return parts.path if parts.path in real_paths().paths else None


def referring_path(request):
    """The path of the Referer header when it is a page of this site."""
    referer = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()}):
        return None
    return site_path(urlsplit(referer).path)
