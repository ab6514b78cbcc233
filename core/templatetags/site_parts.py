"""``{% site_link "home" %}`` and ``{% site_region "header" %}``: a link or a region an app above registered
(``core.site_parts``), for templates that may not name that app."""
from django import template
from django.utils.safestring import mark_safe

from .. import site_parts

register = template.Library()


@register.simple_tag
def site_link(key):
    return site_parts.link_path(key)


@register.simple_tag(takes_context=True)
def site_region(context, key):
    return mark_safe(site_parts.render_region(key, context))
