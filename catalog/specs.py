"""How each GPU spec reads on a page: its unit, and the text of a value in the active language."""
from django.utils.translation import gettext

from core.formatting import format_number, format_price_per_hour, format_quantity, not_published

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
