"""Template filters that format through ``core.formatting`` and ``catalog.specs``, in the active language:
Django's own number formatting does not follow the deck (Spanish thousands, currency patterns)."""
from django import template

from core.formatting import format_number, format_price_per_hour, format_quantity

from ..specs import spec_text

register = template.Library()


@register.filter
def spec(gpu, name):
    """``{{ gpu|spec:"memory_gb" }}``: the spec as the GPU's pages show it."""
    return spec_text(gpu, name)


@register.filter
def number(value):
    return format_number(value)


@register.filter
def gigabytes(value):
    return format_quantity(value, "GB")


@register.filter
def price_per_hour(usd):
    return format_price_per_hour(usd)
