"""Template filters about a spec's three states (a value, not published, not supported)."""
from django import template

from ..specs import shows_not_supported

register = template.Library()


@register.filter
def shows_not_supported_mark(texts):
    """``{% if rows|shows_not_supported_mark %}``: whether a table's texts show the "not supported" mark, so its
    legend appears only where the mark does."""
    return shows_not_supported(texts)
