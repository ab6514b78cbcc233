"""Template filters that format through ``core.formatting`` and ``catalog.specs``, in the active language:
Django's own number formatting does not follow the deck (Spanish thousands, currency patterns)."""
from django import template

from core.formatting import format_model_size, format_number, format_price_per_hour, format_quantity, format_usd
from core.formatting import not_published

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
def usd(value, places=2):
    """``{{ amount|usd }}``, ``{{ amount|usd:4 }}``; "not published" for no amount."""
    return not_published() if value is None else format_usd(value, int(places))


@register.filter
def price_per_hour(value):
    return format_price_per_hour(value)


@register.filter
def model_size(billions):
    return format_model_size(billions)
