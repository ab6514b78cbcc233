"""What every page tells the base template: its URL in each language it exists in (for the language
switcher, canonical and hreflang links, and the sitemap). Absolute URLs are built on SITE_URL, never on
the request's Host or scheme: a cached page is served to every visitor, whatever one of them sent."""
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import get_language_info, gettext

from .formatting import REGIONAL_LOCALES
from .site_parts import link_path, path_of
from .social_image import social_image_url

X_DEFAULT_LANGUAGE = "en"


def absolute_url(path):
    """The public URL of a site path, on the configured origin."""
    return settings.SITE_URL + path


def language_codes():
    """The site's languages, in its order (settings.LANGUAGES)."""
    return [code for code, _name in settings.LANGUAGES]


def language_name(code):
    """A language's name in itself, as a menu item starts: "Español", "Português", "Deutsch"."""
    return capfirst(get_language_info(code)["name_local"])


def urls_by_language(view_name, languages=None, **kwargs):
    """The path of a page without per-language arguments, in each language."""
    paths = {}
    for code in languages or language_codes():
        with translation.override(code):
            paths[code] = reverse(view_name, kwargs=kwargs) if kwargs else path_of(view_name)
    return paths


def with_query(paths, query):
    """``paths`` with an encoded query string appended, for pages whose content the query chooses."""
    return {code: f"{path}?{query}" if query else path for code, path in paths.items()}


def alternates(paths):
    """Language switcher and hreflang entries, in the site's language order."""
    return [
        {"code": code, "name": language_name(code), "path": paths[code]}
        for code in language_codes() if code in paths
    ]


def x_default_path(paths):
    return paths.get(X_DEFAULT_LANGUAGE) or next(iter(paths.values()))


def page_context(request, paths, *, title, description, breadcrumbs=None, structured_data=()):
    """Context every page template needs from its view.

    ``breadcrumbs``: the (name, path) trail above this page, home first (default: home only);
    ``structured_data``: JSON-LD objects besides the BreadcrumbList every page gets."""
    language = translation.get_language()
    canonical_url = absolute_url(paths[language])
    home = link_path("home")
    trail = [(gettext("Home"), home)] if breadcrumbs is None else list(breadcrumbs)
    if paths[language] != home:
        trail.append((title, paths[language]))
    return {
        "structured_data": [breadcrumb_list(trail), *structured_data],
        "social_image_url": absolute_url(social_image_url(title, paths[language])),
        "og_locale": REGIONAL_LOCALES[language],
        "page_title": title,
        "page_description": description,
        "alternates": [
            {**alternate, "url": absolute_url(alternate["path"])} for alternate in alternates(paths)
        ],
        "canonical_url": canonical_url,
        "x_default_url": absolute_url(x_default_path(paths)),
    }


def breadcrumb_list(trail):
    """schema.org BreadcrumbList for a trail of (name, path), home first."""
    return {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": position, "name": name, "item": absolute_url(path)}
            for position, (name, path) in enumerate(trail, start=1)
        ],
    }
