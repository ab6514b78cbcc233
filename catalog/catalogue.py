"""The catalogue of every GPU: filtered by vendor and minimum memory, sorted best first by a key spec,
the price, the price per GB of memory, or the change of the price over 7 days (the largest drop or rise first);
GPUs without the figure come last."""
from dataclasses import dataclass
from datetime import datetime, timedelta
from operator import attrgetter
from typing import NamedTuple
from urllib.parse import urlencode

from django.db.models import DecimalField, ExpressionWrapper, F, OuterRef, Subquery
from django.db.models.functions import Coalesce, NullIf
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from caching.content_version import content_version
from caching.fragments import cached
from core.formatting import format_signed_share, format_usd, not_published

from . import sizing
from .models import GPU, PricePoint
from .specs import DERIVED_FIELDS, shows_not_supported, spec_label, spec_text_with_derived

CHANGE_DAYS = 7

# Each order: its label, the field it sorts on, and its direction (the better values first).
SORTS = {
    "memory": (gettext_lazy("Most memory first"), "memory_gb", "descending"),
    # A figure derived from a system figure sorts with the published ones (the cell says it is derived).
    "bandwidth": (gettext_lazy("Highest memory bandwidth first"), "bandwidth_ranked", "descending"),
    "bf16": (gettext_lazy("Highest dense BF16 throughput first"), "bf16_ranked", "descending"),
    "price": (gettext_lazy("Lowest price first"), "price_usd_per_hour", "ascending"),
    "price-per-gb": (gettext_lazy("Lowest price per GB of memory first"), "price_per_gb", "ascending"),
    "change-7d": (gettext_lazy("Largest price drop over 7 days first"), "change_7d", "ascending"),
    "change-7d-rise": (gettext_lazy("Largest price rise over 7 days first"), "change_7d", "descending"),
}
DEFAULT_SORT = "memory"
SORT_CHOICES = [(key, label) for key, (label, _field, _direction) in SORTS.items()]


def annotated_gpus(cutoff):
    """Every GPU with ``price_per_gb``, ``earlier_price`` (its price history's price at ``cutoff``, None when it had
    none), ``change_7d`` (the share by which the price changed since) and the ranked figures: one query."""
    earlier = PricePoint.objects.filter(gpu=OuterRef("pk"), time__lte=cutoff).order_by("-time", "-pk")
    decimal = DecimalField(max_digits=16, decimal_places=8)
    return GPU.objects.annotate(
        price_per_gb=ExpressionWrapper(F("price_usd_per_hour") / F("memory_gb"), output_field=decimal),
        earlier_price=Subquery(earlier.values("usd_per_hour")[:1]),
        bandwidth_ranked=Coalesce("bandwidth_gbs", DERIVED_FIELDS["bandwidth_gbs"]),
        bf16_ranked=Coalesce("bf16_dense_tflops", DERIVED_FIELDS["bf16_dense_tflops"]),
    ).annotate(change_7d=ExpressionWrapper(
        (F("price_usd_per_hour") - F("earlier_price")) / NullIf(F("earlier_price"), 0), output_field=decimal,
    ))


@dataclass(frozen=True)
class PricedGPUs:
    """Every GPU as ``annotated_gpus`` reads it, in name order (the database's collation), and the vendors in
    order, as of one minute of one content version."""
    version: int
    minute: datetime
    gpus: tuple
    vendors: tuple


_latest = None  # the PricedGPUs this process read last


def priced_gpus(now=None):
    """The GPUs with their price change over ``CHANGE_DAYS`` days up to ``now``'s minute: read once per content
    version and minute in each process (two queries), so that a page rendered again, whatever its filters and
    order, reads nothing. Only an editor's change or an import changes the stored figures (both move the content
    version); the change over 7 days moves with the clock, counted to the minute."""
    global _latest
    minute = (now or timezone.now()).replace(second=0, microsecond=0)
    version = content_version()
    latest = _latest
    if latest is None or latest.version != version or latest.minute != minute:
        latest = _latest = PricedGPUs(
            version, minute, tuple(annotated_gpus(minute - timedelta(days=CHANGE_DAYS)).order_by("name")),
            tuple(GPU.objects.order_by("vendor").values_list("vendor", flat=True).distinct()),
        )
    return latest


def catalogue_gpus(priced, vendor=None, min_memory_gb=None, sort=DEFAULT_SORT):
    """``priced``'s GPUs of ``vendor`` with at least ``min_memory_gb``, in ``sort``'s order (GPUs without the
    figure last), then by name."""
    _label, field, direction = SORTS[sort]
    chosen = [gpu for gpu in priced.gpus
              if (not vendor or gpu.vendor == vendor) and (min_memory_gb is None or gpu.memory_gb >= min_memory_gb)]
    known = [gpu for gpu in chosen if getattr(gpu, field) is not None]
    # A stable sort, reversed or not, keeps GPUs with equal figures in name order.
    known.sort(key=attrgetter(field), reverse=direction == "descending")
    return known + [gpu for gpu in chosen if getattr(gpu, field) is None]


def price_per_gb_hour(gpu):
    """What one GB of the GPU's memory costs per hour at its best live offer."""
    if gpu.price_usd_per_hour is None:
        return None
    return sizing.exact(gpu.price_usd_per_hour) / sizing.exact(gpu.memory_gb)


def price_per_gb_text(gpu):
    value = price_per_gb_hour(gpu)
    return not_published() if value is None else format_usd(value, places=4)


def change_text(gpu):
    """How the price moved over ``CHANGE_DAYS`` days, as a signed percentage."""
    if gpu.price_usd_per_hour is None:
        return _("No live offer")
    if gpu.change_7d is None:
        return _("No earlier price")
    if gpu.change_7d == 0:
        return _("No change")
    return format_signed_share(gpu.change_7d)


def spec_column(sort, spec):
    return (sort, spec_label(spec), lambda gpu: spec_text_with_derived(gpu, spec))


def catalogue_columns(shows_changes=True):
    """The table's columns after the GPU's name: (the order it sorts by, or the orders its heading switches
    between, or None; heading; cell text). The 7-day change comes last, and only ``shows_changes``: a column
    that says "no earlier price" on every row says nothing."""
    columns = [
        spec_column("memory", "memory_gb"),
        spec_column(None, "memory_type"),
        spec_column("bandwidth", "bandwidth_gbs"),
        spec_column("bf16", "bf16_dense_tflops"),
        spec_column("price", "price_usd_per_hour"),
        ("price-per-gb", _("Price per GB of memory per hour"), price_per_gb_text),
    ]
    if shows_changes:
        columns.append((("change-7d", "change-7d-rise"), _("Price change over 7 days"), change_text))
    return columns


def any_change(priced):
    """Whether any GPU's price moved over ``CHANGE_DAYS`` days: before launch none has an earlier price, and a
    week after it every launch price is its own earlier price ("no change" on every row says nothing either)."""
    return any(gpu.change_7d for gpu in priced.gpus)


class CatalogueRow(NamedTuple):
    """A GPU's card (phones) and table row (the full table), rendered."""
    card: str
    row: str
    shows_not_supported: bool


def catalogue_row(gpu, columns):
    cells = [text(gpu) for _key, _label, text in columns]
    return CatalogueRow(
        card=render_to_string("includes/catalog/catalogue_card.html", {"gpu": gpu}),
        row=render_to_string("includes/catalog/catalogue_row.html", {"gpu": gpu, "cells": cells}),
        shows_not_supported=shows_not_supported(cells),
    )


def catalogue_table(priced, gpus, sort, filters):
    """Headings (a sortable one links to its order, or, sorted by it, to its next order, keeping ``filters``) and
    a row per GPU (of ``gpus``, read in ``priced``). A GPU's row shows its stored figures, which only an editor's
    change or an import changes (both move the content version), and its price change over 7 days: it is rendered
    once per content version, language and price change, and cached (``caching.fragments``), whatever the
    filters and order."""
    shows_changes = any_change(priced)
    columns = catalogue_columns(shows_changes)
    headings = []
    for keys, label, _text in columns:
        orders = (keys,) if isinstance(keys, str) else keys or ()
        key = orders[(orders.index(sort) + 1) % len(orders)] if sort in orders else next(iter(orders), None)
        query = urlencode(filters + ([("sort", key)] if key and key != DEFAULT_SORT else []))
        headings.append({
            "label": label, "link": f"?{query}" if key else None,
            "sorted": SORTS[sort][2] if sort in orders else None,
        })
    version, language = priced.version, get_language()
    rows = [cached(("catalogue-row", version, language, gpu.pk, gpu.change_7d, shows_changes),
                   lambda gpu=gpu: catalogue_row(gpu, columns)) for gpu in gpus]
    return headings, rows
