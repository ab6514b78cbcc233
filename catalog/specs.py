"""How each GPU spec reads on a page: its unit, and the text of a value in the active language."""
from django.utils.text import capfirst
from django.utils.translation import gettext

from core.formatting import format_number, format_price_per_hour, format_quantity, not_published

from .models import GPU

# Units are the same in every language.
SPEC_UNITS = {
    "memory_gb": "GB",
    "bandwidth_gbs": "GB/s",
    "bf16_dense_tflops": "TFLOPS",
    "fp8_dense_tflops": "TFLOPS",
    "fp32_tflops": "TFLOPS",
    "fp64_tflops": "TFLOPS",
    "fp64_tensor_tflops": "TFLOPS",
    "max_power_w": "W",
    "interconnect_gbs": "GB/s",
}

# Specs whose value is a quantity a chart can plot against the price; the others are names, the year and
# the price itself.
PLOTTABLE_SPECS = frozenset(SPEC_UNITS) | {"rt_cores"}


def spec_text(gpu, spec):
    """The value of ``spec`` for ``gpu`` as a page shows it; "not published" when the vendor has not."""
    value = getattr(gpu, spec)
    if value is None or value == "":
        return not_published()
    if spec == "price_usd_per_hour":
        return format_price_per_hour(value)
    if spec == "rt_cores":
        if gpu.rt_core_generation is None:
            return format_number(value)
        return gettext("%(count)s (gen. %(generation)s)") % {
            "count": format_number(value), "generation": gpu.rt_core_generation,
        }
    if spec == "year":
        return str(value)
    if spec in SPEC_UNITS:
        return format_quantity(value, SPEC_UNITS[spec])
    return str(value)


# What a GPU's page and the comparison show, in reading order; the ray-tracing core generation reads
# with the core count.
GPU_PAGE_SPECS = (
    "vendor", "architecture", "year", "memory_gb", "memory_type", "bandwidth_gbs", "bf16_dense_tflops",
    "fp8_dense_tflops", "fp32_tflops", "fp64_tflops", "fp64_tensor_tflops", "max_power_w", "form_factor",
    "interconnect", "interconnect_gbs", "rt_cores", "price_usd_per_hour",
)


def spec_label(spec):
    """The spec's name as a heading: the model field's translated name, capitalized."""
    return capfirst(GPU._meta.get_field(spec).verbose_name)
