"""What every page tells the base template: its URL in each language it exists in (for the language
switcher, canonical and hreflang links, and the sitemap)."""
from django.conf import settings
from django.urls import reverse
from django.utils import translation

X_DEFAULT_LANGUAGE = "en"


def language_codes():
    return [code for code, _name in settings.LANGUAGES]


def urls_by_language(view_name, languages=None, **kwargs):
    """The path of a page without per-language arguments, in each language."""
    paths = {}
    for code in languages or language_codes():
        with translation.override(code):
            paths[code] = reverse(view_name, kwargs=kwargs or None)
    return paths


def alternates(paths):
    """Language switcher and hreflang entries, in the site's language order."""
    return [
        {"code": code, "name": settings.LANGUAGE_NATIVE_NAMES[code], "path": paths[code]}
        for code in language_codes() if code in paths
    ]


def x_default_path(paths):
    return paths.get(X_DEFAULT_LANGUAGE) or next(iter(paths.values()))


def page_context(request, paths, *, title, description):
    """Context every page template needs from its view."""
    language = translation.get_language()
    return {
        "page_title": title,
        "page_description": description,
        "alternates": [
            {**alternate, "url": request.build_absolute_uri(alternate["path"])} for alternate in alternates(paths)
        ],
        "canonical_url": request.build_absolute_uri(paths[language]),
        "x_default_url": request.build_absolute_uri(x_default_path(paths)),
    }
