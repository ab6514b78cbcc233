"""The GPU specs, each written once: its unit, how a value reads in the active language, whether the
comparison ranks it, whether a chart can plot it against the price, and whether a workload table may show
it as a column. The list is in the reading order of a GPU's page and of the comparison. A spec's name is
its GPU model field's (one translatable string). Pages, column choices, rankings and charts derive from
this list."""
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.text import capfirst
from django.utils.translation import gettext

from core.formatting import format_number, format_price_per_hour, format_quantity, not_published

from .models import GPU


def as_quantity_or_word(spec, gpu, value):
    """A number with the spec's unit ("80 GB"), or a name as stored ("HBM3")."""
    return format_quantity(value, spec.unit) if spec.unit else str(value)


def as_year(spec, gpu, value):
    return str(value)  # never grouped: 2024, not 2.024


def as_price_per_hour(spec, gpu, value):
    return format_price_per_hour(value)


def as_ray_tracing_cores(spec, gpu, value):
    """The core count, with its generation when known."""
    if gpu.rt_core_generation is None:
        return format_number(value)
    return gettext("%(count)s (gen. %(generation)s)") % {
        "count": format_number(value), "generation": gpu.rt_core_generation,
    }


@dataclass(frozen=True)
class Spec:
    key: str  # the GPU model field
    unit: str = ""  # the same in every language; "" for names, counts and the year
    more_is_better: bool | None = None  # None: the comparison does not rank it
    plottable: bool = False  # a quantity a chart can plot against the price
    table_column: bool = True  # a workload table may show it as a column
    reads_as: Callable = as_quantity_or_word  # (spec, gpu, value) -> text of a published value

    @property
    def label(self):
        """The spec's name, as its model field gives it (lower case: a heading capitalizes it)."""
        return GPU._meta.get_field(self.key).verbose_name


SPECS = (
    Spec("vendor", table_column=False),
    Spec("architecture", table_column=False),
    Spec("year", reads_as=as_year),
    Spec("memory_gb", "GB", more_is_better=True, plottable=True),
    Spec("memory_type"),
    Spec("bandwidth_gbs", "GB/s", more_is_better=True, plottable=True),
    Spec("bf16_dense_tflops", "TFLOPS", more_is_better=True, plottable=True),
    Spec("fp8_dense_tflops", "TFLOPS", more_is_better=True, plottable=True),
    Spec("fp32_tflops", "TFLOPS", more_is_better=True, plottable=True),
    Spec("fp64_tflops", "TFLOPS", more_is_better=True, plottable=True),
    Spec("fp64_tensor_tflops", "TFLOPS", more_is_better=True, plottable=True),
    Spec("max_power_w", "W", plottable=True),
    Spec("form_factor"),
    Spec("interconnect"),
    Spec("interconnect_gbs", "GB/s", more_is_better=True, plottable=True),
    # The generation reads with the count.
    Spec("rt_cores", more_is_better=True, plottable=True, reads_as=as_ray_tracing_cores),
    Spec("price_usd_per_hour", more_is_better=False, reads_as=as_price_per_hour),
)
SPECS_BY_KEY = {spec.key: spec for spec in SPECS}
PLOTTABLE_SPECS = frozenset(spec.key for spec in SPECS if spec.plottable)


def spec_text(gpu, key):
    """The value of spec ``key`` for ``gpu`` as a page shows it; "not published" when the vendor has not."""
    value = getattr(gpu, key)
    if value is None or value == "":
        return not_published()
    spec = SPECS_BY_KEY[key]
    return spec.reads_as(spec, gpu, value)


def spec_label(key):
    """The spec's name as a heading, capitalized."""
    return capfirst(SPECS_BY_KEY[key].label)


def spec_choices():
    """The workload column's ``spec`` choices (a callable, so a new spec needs no migration of its own)."""
    return [(spec.key, spec.label) for spec in SPECS if spec.table_column]
