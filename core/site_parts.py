"""What every page, or a page of a lower app, shows of an app above it: named links (the home page, the signup,
the calculator, the open data files) and regions (the site's header and footer).

Core and the lower apps may not name an app above them, in Python or in a template (``tests/site/test_layers.py``), so
the app that owns the page, or the composition on top (``storefront``), registers each part from its
``AppConfig.ready()``; templates ask for it by key (``{% site_link "home" %}``, ``{% site_region "header" %}``,
``core.templatetags.site_parts``) and Python by ``link_path("home")``. A key nobody registered is a mistake in a
template or an app, refused loudly (the tests render every page).

A region's template shows nothing but its context, the active language's translations and URLs: the markup of
a context is rendered once per language and cached (``caching.fragments``), so that a page rendered again after
a price import, or another page with the same header, pays for neither; a page asked with a query string (each
visitor's input on the calculator) shares it with the page's other queries."""
import functools
from dataclasses import dataclass

from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import get_language

from caching.fragments import render_cached_around

_link_view_names = {}
_regions = {}


@dataclass(frozen=True)
class Region:
    template_name: str
    context: object  # a function of the page's template context that returns the region template's context


def register_link(key, view_name):
    """``key`` links to the page of ``view_name`` (a URL name such as "catalog:gpu_list")."""
    _link_view_names[key] = view_name


def register_region(key, template_name, context):
    """The region ``key`` is ``template_name`` rendered with ``context(page_context)`` alone."""
    _regions[key] = Region(template_name, context)


def path_of(view_name):
    """``reverse(view_name)`` for a page without arguments, worked out once per language, script prefix and URL
    configuration: the header and footer link the same few pages on every page."""
    return reversed_in(view_name, get_language(), get_script_prefix(), get_urlconf())


@functools.lru_cache(maxsize=1024)  # bounded: a script prefix comes with the request
def reversed_in(view_name, _language, _script_prefix, _urlconf):
    """``reverse(view_name)``; the other arguments are the active state ``reverse`` reads, the memo's key."""
    return reverse(view_name)


def link_path(key, *args):
    """The path of the page registered under ``key``, in the active language (``args``: the URL's arguments,
    such as a GPU's slug)."""
    try:
        view_name = _link_view_names[key]
    except KeyError:
        raise LookupError(f"No app registered the link {key!r} (core.site_parts.register_link).") from None
    return reverse(view_name, args=args) if args else path_of(view_name)


def page_query(context):
    """The query string ("?…") every language link of a page ends with (a page whose content the query chooses,
    ``core.pages.with_query``), or "" for a page without one."""
    paths = [alternate["path"] for alternate in context.get("alternates") or ()]
    query = paths[0][paths[0].find("?"):] if paths and "?" in paths[0] else ""
    return query if all(path.endswith(query) for path in paths) else ""


def render_region(key, page_context):
    """The region ``key`` of the page: its markup cached once per language and context, and once for all the query
    strings a page is asked with (each visitor's input on the calculator, the catalogue, the comparison)."""
    try:
        region = _regions[key]
    except KeyError:
        raise LookupError(f"No app registered the region {key!r} (core.site_parts.register_region).") from None
    context = region.context(page_context)
    return render_cached_around(region.template_name, context, page_query(context))
