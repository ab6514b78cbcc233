"""``{% cached_include "includes/x.html" name=value … %}``: ``{% include … with name=value … only %}`` rendered once
per language and values (``caching.fragments.render_cached``)."""
from django import template

from ..fragments import render_cached

register = template.Library()


@register.simple_tag
def cached_include(template_name, **values):
    return render_cached(template_name, values)
