"""What the calculator's training and inference answers show: the estimator's rows as text in the active
language, the cost-against-time chart with its data, and the figures of the assumptions block. Works on GPUs
already fetched: no queries."""
from dataclasses import dataclass
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from catalog import sizing
from catalog.scatter_chart import NICE_DIGITS
from catalog.specs import spec_text
from core.formatting import (
    as_decimal,
    format_duration,
    format_gpu_hours,
    format_in_unit,
    format_number,
    format_quantity,
    format_scientific,
    format_share,
    format_usd_estimate,
    format_usd_rate,
    rounded,
)

from . import formulas as estimates
from .cost_chart import cost_chart
from .estimates import NO_BANDWIDTH, NO_BF16, TOO_SMALL, inference_estimate

HOURS_PER_YEAR = 365 * 24
# Ticks of the time axis, in hours: units a reader pictures, then years by powers of ten.
TIME_TICKS = (
    (Fraction(1, 3600), "duration-second", 1), (Fraction(1, 60), "duration-minute", 1), (1, "duration-hour", 1),
    (24, "duration-day", 1), (24 * 7, "duration-week", 1), (HOURS_PER_YEAR // 12, "duration-month", 1),
    *((HOURS_PER_YEAR * 10**n, "duration-year", 10**n) for n in range(10)),
)


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    caption: str
    description: str
    layout: object
    headings: tuple
    rows: tuple  # (name, cells…) of every mark


def time_ladder():
    return [(Fraction(hours), format_in_unit(count, unit)) for hours, unit, count in TIME_TICKS]


def powers_of_ten(low, high, write, digits=(1,)):
    """Ticks at ``digits`` (1; or 1, 2 and 5) times each power of ten from 10**low to 10**high."""
    values = [digit * Fraction(10) ** n for n in range(low, high + 1) for digit in digits]
    return [(value, write(value)) for value in values]


def usd_tick(value):
    return format_usd_estimate(value) if value >= 100 else format_usd_rate(value)


def gpus_text(count):
    return ngettext("%(gpu_count)s GPU", "%(gpu_count)s GPUs", count) % {"gpu_count": format_number(count)}


def configuration_name(configuration):
    return _("%(gpu)s × %(count)s") % {"gpu": configuration.gpu.name, "count": format_number(configuration.gpu_count)}


# Training


def training_problem(row, cluster_size):
    if row.problem == NO_BF16:
        return _("No published dense BF16 figure: no estimate.")
    if row.problem == TOO_SMALL:
        return _("Does not fit on %(count)s GPUs.") % {"count": format_number(cluster_size)}
    return ""


def training_rows(estimate):
    rows = []
    for row in estimate.rows:
        fewest, largest = row.fewest, row.largest
        rows.append({
            "gpu": row.gpu,
            "marks": ([_("Cheapest")] if row.cheapest else []) + ([_("Fastest")] if row.fastest else []),
            "bf16": spec_text(row.gpu, "bf16_dense_tflops"),
            "gpu_hours": format_gpu_hours(row.gpu_hours) if row.gpu_hours is not None else "",
            "fewest": fewest and {
                "gpus": gpus_text(fewest.gpu_count), "time": format_duration(fewest.wall_clock_hours)},
            "largest": largest and largest is not fewest and {
                "gpus": gpus_text(largest.gpu_count), "time": format_duration(largest.wall_clock_hours)},
            "cost": format_usd_estimate(row.cost) if row.cost is not None else (
                _("No live offer") if row.problem is None else ""),
            "problem": training_problem(row, estimate.cluster_size),
        })
    return rows


def position(items, item):
    """Where ``item`` itself is in ``items`` (list.index compares every field of the dataclasses: slow)."""
    return next(index for index, candidate in enumerate(items) if candidate is item)


def training_chart(estimate):
    priced = [c for c in estimate.configurations if c.cost is not None]
    if not priced:
        return None
    cheapest = estimate.cheapest
    highlighted = {}
    if cheapest:
        # The cheapest GPU's fastest configuration: the same cost in the least time.
        cheapest_mark = position(priced, cheapest[0].largest)
        highlighted[cheapest_mark] = _("Cheapest: %(configuration)s") % {
            "configuration": configuration_name(cheapest[0].largest)}
    fastest = next((c for c in priced if c.fastest), None)
    if fastest is not None:
        index = position(priced, fastest)
        text = _("Fastest: %(configuration)s") % {"configuration": configuration_name(fastest)}
        if index in highlighted:
            text = _("Cheapest and fastest: %(configuration)s") % {"configuration": configuration_name(fastest)}
        highlighted[index] = text
    costs = [c.cost for c in priced]
    low, high = (decade(min(costs)) - 1, decade(max(costs)) + 1)
    rows = tuple(
        (configuration_name(c), format_duration(c.wall_clock_hours), format_usd_estimate(c.cost)) for c in priced
    )
    return Chart(
        key="training-chart",
        title=_("Cost against training time, every configuration"),
        caption=_("One dot per GPU and GPU count, on logarithmic scales: the further left, the sooner done; the "
                  "lower, the cheaper. More GPUs of one kind finish sooner at the same cost."),
        description="; ".join(f"{name}: {time}, {cost}" for name, time, cost in rows),
        layout=cost_chart(
            [(name, c.wall_clock_hours, c.cost) for (name, _t, _c), c in zip(rows, priced, strict=True)],
            highlighted, _("Wall-clock time (logarithmic)"), _("Cost, US dollars (logarithmic)"),
            time_ladder(), powers_of_ten(low, high, usd_tick, NICE_DIGITS), format_duration, usd_tick,
        ),
        headings=(_("Configuration"), _("Wall-clock time"), _("Cost")),
        rows=rows,
    )


def decade(value):
    """The exponent of the power of ten at or below ``value`` (above zero)."""
    return as_decimal(value).adjusted()


def training_context(form, gpus):
    estimate = form.estimate(gpus)
    data = form.cleaned_data
    params = sizing.exact(form.model_billion_params())
    return {
        "estimate": estimate,
        "method_name": data["method"].name,
        "size": format_number(params),
        "tokens": format_number(estimate.billion_tokens),
        "tokens_default": data["tokens"] is None,
        "optimal_ratio": estimates.COMPUTE_OPTIMAL_TOKENS_PER_PARAMETER,
        "tokens_per_parameter": format_number(rounded(estimate.billion_tokens / params)),
        "factor": estimate.flops_per_parameter_token,
        "flops": format_scientific(estimate.flops),
        "utilization": format_share(estimate.utilization),
        "required": format_quantity(rounded(estimate.required_gb), "GB"),
        "bytes_per_parameter": format_number(data["method"].bytes_per_parameter),
        "cluster": format_number(estimate.cluster_size),
        "rows": training_rows(estimate),
        "chart": training_chart(estimate),
    }


# Inference


def inference_problem(row):
    if row.problem == NO_BANDWIDTH:
        return _("No published memory bandwidth: no estimate.")
    if row.problem == TOO_SMALL:
        return _("Does not fit on %(count)s GPUs.") % {"count": format_number(max(sizing.CALCULATOR_GPU_COUNTS))}
    return ""


def tokens_per_second(value):
    return _("%(tokens)s tokens/s") % {"tokens": format_number(rounded(value))}


def inference_rows(estimate):
    return [{
        "gpu": row.gpu,
        "marks": [_("Cheapest")] if row.cheapest else [],
        "gpus": gpus_text(row.gpu_count) if row.gpu_count else "",
        "bandwidth": format_quantity(row.bandwidth_gbs, "GB/s") if row.bandwidth_gbs else "",
        "per_sequence": tokens_per_second(row.per_sequence) if row.per_sequence else "",
        "aggregate": tokens_per_second(row.aggregate) if row.aggregate else "",
        "compute_bound": row.compute_bound,
        "hourly": format_usd_estimate(row.hourly_cost) if row.hourly_cost is not None else "",
        "per_million": format_usd_rate(row.usd_per_million) if row.usd_per_million is not None else (
            _("No live offer") if row.problem is None else ""),
        "problem": inference_problem(row),
    } for row in estimate.rows]


def inference_chart(estimate):
    priced = [row for row in estimate.rows if row.usd_per_million is not None]
    if not priced:
        return None
    rows = tuple((f"{row.gpu.name} × {format_number(row.gpu_count)}", tokens_per_second(row.per_sequence),
                  format_usd_rate(row.usd_per_million)) for row in priced)
    highlighted = {index: _("Cheapest: %(configuration)s") % {"configuration": rows[index][0]}
                   for index, row in enumerate(priced) if row.cheapest}
    fastest = max(range(len(priced)), key=lambda index: priced[index].per_sequence)
    text = _("Fastest: %(configuration)s") % {"configuration": rows[fastest][0]}
    highlighted[fastest] = (_("Cheapest and fastest: %(configuration)s") % {"configuration": rows[fastest][0]}
                            if fastest in highlighted else text)
    speeds, prices = [row.per_sequence for row in priced], [row.usd_per_million for row in priced]
    return Chart(
        key="inference-chart",
        title=_("Cost per million tokens against speed per sequence"),
        caption=_("One dot per GPU configuration that holds the model, on logarithmic scales: the further right, "
                  "the faster each answer; the lower, the cheaper each token."),
        description="; ".join(f"{name}: {speed}, {price}" for name, speed, price in rows),
        layout=cost_chart(
            [(name, row.per_sequence, row.usd_per_million) for (name, _s, _p), row in zip(rows, priced, strict=True)],
            highlighted, _("Tokens per second per sequence (logarithmic)"),
            _("US dollars per million generated tokens (logarithmic)"),
            powers_of_ten(decade(min(speeds)) - 1, decade(max(speeds)) + 1, format_number, NICE_DIGITS),
            powers_of_ten(decade(min(prices)) - 1, decade(max(prices)) + 1, usd_tick, NICE_DIGITS),
            format_number, usd_tick,
        ),
        headings=(_("Configuration"), _("Tokens per second per sequence"), _("Per million tokens")),
        rows=rows,
    )


def inference_context(form, gpus):
    requirement = form.requirement()
    estimate = inference_estimate(gpus, requirement)
    shape = requirement.shape
    return {
        "estimate": estimate,
        "requirement": requirement,
        "method_name": requirement.method.name,
        "size": format_number(requirement.model_billion_params),
        "weights": format_quantity(rounded(estimate.weights_gb), "GB"),
        "kv_per_sequence": format_quantity(rounded(estimate.kv_cache_gb_per_sequence), "GB"),
        "step": format_quantity(rounded(estimate.step_gb), "GB"),
        "required": format_quantity(rounded(estimate.required_gb), "GB"),
        "batch": format_number(requirement.batch_size),
        "context_tokens": format_number(requirement.context_tokens),
        "shape": shape,
        "rows": inference_rows(estimate),
        "chart": inference_chart(estimate),
    }


def assumption_figures():
    """The numbers the assumptions block states, from the modules that use them."""
    return {
        "full_factor": estimates.FULL_TRAINING_FLOPS_PER_PARAMETER_TOKEN,
        "frozen_factor": estimates.FROZEN_BASE_FLOPS_PER_PARAMETER_TOKEN,
        "tokens_per_parameter": estimates.COMPUTE_OPTIMAL_TOKENS_PER_PARAMETER,
        "default_utilization": format_share(estimates.DEFAULT_UTILIZATION),
        "min_utilization": format_share(estimates.MIN_UTILIZATION),
        "max_utilization": format_share(estimates.MAX_UTILIZATION),
        "seconds_per_hour": format_number(estimates.SECONDS_PER_HOUR),
        "decode_factor": estimates.DECODE_FLOPS_PER_PARAMETER_TOKEN,
        "million": format_number(estimates.TOKENS_PER_MILLION),
        "usable_share": format_share(sizing.USABLE_MEMORY_SHARE),
        "kv_bytes": sizing.KV_CACHE_BYTES_PER_VALUE,
        "inference_counts": ", ".join(str(count) for count in sizing.CALCULATOR_GPU_COUNTS),
    }
