"""A GPU's nearest alternatives in the catalogue, each chosen by a rule the page states, with the figures
that explain the choice. Only GPUs with a live price are candidates: an alternative is something to rent.
Works on GPUs already fetched: no queries."""
from dataclasses import dataclass

from django.utils.translation import gettext as _

from core.formatting import format_quantity, format_usd

from .specs import derived_quantity_text, derived_value, ranked_value, spec_text


@dataclass(frozen=True)
class Alternative:
    key: str
    title: str
    rule: str
    gpu: object  # None when no GPU meets the rule
    reason: str  # why this GPU, or why there is none


def priced(gpus, gpu):
    return [other for other in gpus if other.pk != gpu.pk and other.price_usd_per_hour is not None]


def cheaper_gpu(gpu, gpus):
    """The next step down in price: the highest-priced GPU below this one's price; on a tie, more memory."""
    if gpu.price_usd_per_hour is None:
        return None
    candidates = [other for other in priced(gpus, gpu) if other.price_usd_per_hour < gpu.price_usd_per_hour]
    return min(candidates, key=lambda o: (-o.price_usd_per_hour, -o.memory_gb, o.name), default=None)


def bf16(gpu):
    """Dense BF16 TFLOPS, published or derived from a system figure (the reason then says "derived")."""
    return ranked_value(gpu, "bf16_dense_tflops")


def bf16_text(gpu):
    value = derived_value(gpu, "bf16_dense_tflops")
    return spec_text(gpu, "bf16_dense_tflops") if value is None else derived_quantity_text("bf16_dense_tflops", value)


def faster_gpu(gpu, gpus):
    """The lowest-priced GPU with more dense BF16 throughput; on a tie, the faster one."""
    if bf16(gpu) is None:
        return None
    candidates = [other for other in priced(gpus, gpu) if bf16(other) is not None and bf16(other) > bf16(gpu)]
    return min(candidates, key=lambda o: (o.price_usd_per_hour, -bf16(o), o.name), default=None)


def more_memory_gpu(gpu, gpus):
    """The lowest-priced GPU with more memory; on a tie, the one with the most memory."""
    candidates = [other for other in priced(gpus, gpu) if other.memory_gb > gpu.memory_gb]
    return min(candidates, key=lambda o: (o.price_usd_per_hour, -o.memory_gb, o.name), default=None)


def price_text(gpu):
    """The hourly price as a plain amount: a reason compares two of them."""
    if gpu.price_usd_per_hour is None:
        return spec_text(gpu, "price_usd_per_hour")
    return format_usd(gpu.price_usd_per_hour)


def cheaper(gpu, gpus):
    found = cheaper_gpu(gpu, gpus)
    if found:
        reason = _("%(saving)s less per GPU-hour: %(price)s instead of %(own_price)s. Memory: %(memory)s "
                   "(this GPU: %(own_memory)s).") % {
            "saving": format_usd(gpu.price_usd_per_hour - found.price_usd_per_hour),
            "price": price_text(found), "own_price": price_text(gpu),
            "memory": format_quantity(found.memory_gb, "GB"), "own_memory": format_quantity(gpu.memory_gb, "GB"),
        }
    elif gpu.price_usd_per_hour is None:
        reason = _("This GPU has no live price, so no other is cheaper by this rule.")
    else:
        reason = _("No GPU in the catalogue costs less per hour.")
    return Alternative(
        "cheaper", _("Cheaper"),
        _("The next step down in price: the GPU with the highest hourly price below this one's; on a tie, "
          "the one with more memory."),
        found, reason,
    )


def faster(gpu, gpus):
    found = faster_gpu(gpu, gpus)
    if found:
        reason = _("%(tflops)s of dense BF16 instead of %(own_tflops)s, at %(price)s per GPU-hour "
                   "(this GPU: %(own_price)s).") % {
            "tflops": bf16_text(found), "own_tflops": bf16_text(gpu),
            "price": price_text(found), "own_price": price_text(gpu),
        }
    elif bf16(gpu) is None:
        reason = _("The vendor has not published this GPU's dense BF16 throughput, so no other is faster "
                   "by this rule.")
    else:
        reason = _("No GPU in the catalogue with a live price has more dense BF16 throughput.")
    return Alternative(
        "faster", _("Faster"),
        _("The lowest-priced GPU with more dense BF16 tensor throughput than this one; on a tie, the faster one."),
        found, reason,
    )


def more_memory(gpu, gpus):
    found = more_memory_gpu(gpu, gpus)
    if found:
        reason = _("%(memory)s of memory instead of %(own_memory)s, at %(price)s per GPU-hour "
                   "(this GPU: %(own_price)s).") % {
            "memory": format_quantity(found.memory_gb, "GB"), "own_memory": format_quantity(gpu.memory_gb, "GB"),
            "price": price_text(found), "own_price": price_text(gpu),
        }
    else:
        reason = _("No GPU in the catalogue with a live price has more memory.")
    return Alternative(
        "more-memory", _("More memory"),
        _("The lowest-priced GPU with more memory than this one; on a tie, the one with the most memory."),
        found, reason,
    )


def nearest_alternatives(gpu, gpus):
    """The cheaper, the faster and the more-memory alternative to ``gpu`` among ``gpus``."""
    return [cheaper(gpu, gpus), faster(gpu, gpus), more_memory(gpu, gpus)]
