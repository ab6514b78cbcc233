"""Template filters that format through ``core.formatting`` and ``catalog.specs``, in the active language:
Django's own number formatting does not follow the deck (Spanish thousands, currency patterns)."""
from django import template

from core.formatting import (
    format_date_time,
    format_long_date,
    format_memory,
    format_number,
    format_price_per_hour,
    format_quantity,
    plural_count,
)

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
def memory(value):
    """Memory an estimate needs, to three significant digits ("37,7 GB", "512 MB")."""
    return format_memory(value)


@register.filter
def price_per_hour(usd):
    return format_price_per_hour(usd)


@register.filter
def date_time(moment):
    """A moment in the active language: "30 de noviembre de 2026, 12:05:00 UTC"."""
    return format_date_time(moment)


@register.filter
def long_date(day):
    """A date in the active language: "1 de dezembro de 2026"."""
    return format_long_date(day)


@register.filter
def iso_seconds(moment):
    """A machine-readable moment for <time datetime>, which takes at most three decimals of a second."""
    return moment.isoformat(timespec="seconds")


register.filter("plural_count", plural_count)
