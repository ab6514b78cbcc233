"""The page a visitor came to a form from, kept as consent evidence: only ever a page this site has."""
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.utils.http import url_has_allowed_host_and_scheme

from caching.fragments import CachedContent
from core.pages import urls_by_language
from core.public_pages import public_pages

MAX_LENGTH = 300
# The forms' own pages (not in the sitemap), by URL name: a form of an app above registers its own
# (``register_form_page``).
_form_view_names = ["signups:signup"]


def register_form_page(view_name):
    """Called from an app's ``AppConfig.ready()``: the page of its form is a page a visitor may come from."""
    if view_name not in _form_view_names:
        _form_view_names.append(view_name)


@dataclass(frozen=True)
class RealPaths:
    version: int
    paths: frozenset


def load_real_paths(version):
    """Every public page (the sitemap's) and the forms, in every language: a path that merely matches a
    URL pattern (``/es/gpus/invented/``) is no page."""
    paths = {path for page in public_pages() for path in page.values()}
    for view_name in _form_view_names:
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
