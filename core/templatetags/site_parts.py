"""``{% site_link "home" %}`` and ``{% site_region "header" %}``: a link or a region an app above registered
(``core.site_parts``), for templates that may not name that app; ``{% page_head %}``: the head every page has."""
from django import template
from django.utils.safestring import mark_safe

from caching.fragments import render_cached

from .. import site_parts

register = template.Library()


@register.simple_tag
def site_link(key):
    return site_parts.link_path(key)


@register.simple_tag(takes_context=True)
def site_region(context, key):
    return mark_safe(site_parts.render_region(key, context))


# What the head shows of a page (``core.pages.page_context`` gives them all): its markup is rendered once per
# language and set of values, so a page rendered again after a price import pays only for looking it up.
PAGE_HEAD_NAMES = ("page_title", "page_description", "canonical_url", "alternates", "x_default_url", "og_locale",
                   "social_image_url", "structured_data")


@register.simple_tag(takes_context=True)
def page_head(context):
    """The head after its title: the description, canonical and hreflang links, social cards, icons, style sheet and
    JSON-LD. A page without some of these values (an error page) renders without them, as if they were missing."""
    return render_cached("includes/page_head.html",
                         {name: context[name] for name in PAGE_HEAD_NAMES if name in context})
