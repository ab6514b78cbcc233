"""What the calculator's training and inference answers show: the estimator's rows as text in the active
language, the cost-against-time chart with its data, the assumptions with every efficiency figure and its
source, and the check against published runs. Works on GPUs already fetched: no queries. Every figure is
computed from unrounded values and rounded only here, to three significant digits."""
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext as _

from caching.fragments import CachedContent
from catalog import sizing
from catalog.sizing_methods import sizing_method
from charts.cost_chart import cost_chart
from charts.scatter_chart import NICE_DIGITS
from core.formatting import (
    as_decimal,
    format_duration,
    format_gpu_hours,
    format_in_unit,
    format_memory,
    format_number,
    format_quantity,
    format_scientific,
    format_share,
    format_usd,
    format_usd_estimate,
    format_usd_rate,
    plural_count,
    significant,
)

from . import formulas
from .efficiency import CONSUMER, PCIE, SCALE_UP, efficiency_model
from .inference import NO_BANDWIDTH
from .inference import TOO_SMALL as TOO_SMALL_TO_SERVE
from .memory import GPU_COUNTS, kv_bytes_per_token
from .published_runs import HELD_OUT, checks, memory_checks
from .serving_data import serving_data
from .training import HOURS_PER_DAY, NO_BF16, TOO_SMALL
from .training_memory import FITS, NO_HEADROOM, memory_figures, training_bounds
from .training_memory import TOO_SMALL as TOO_SMALL_MEMORY

# The training tab's table of its memory figures (calculator_training_assumptions.html), which the fit tab links.
TRAINING_MEMORY_ANCHOR = "training-memory-heading"

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


@lru_cache(maxsize=16)
def time_ladder(language):
    """The time axis's ticks in ``language`` (the active one): the same on every chart."""
    return tuple((Fraction(hours), format_in_unit(count, unit)) for hours, unit, count in TIME_TICKS)


def powers_of_ten(low, high, write, digits=(1,)):
    """Ticks at ``digits`` (1; or 1, 2 and 5) times each power of ten from 10**low to 10**high."""
    values = [digit * Fraction(10) ** n for n in range(low, high + 1) for digit in digits]
    return [(value, write(value)) for value in values]


def usd_tick(value):
    return format_usd_estimate(value) if value >= 100 else format_usd_rate(value)


def gpus_text(count):
    return ngettext("%(gpu_count)s GPU", "%(gpu_count)s GPUs", count) % {"gpu_count": format_number(count)}


def configuration_name(configuration):
    """ "H100 SXM × 8": anything with a ``gpu`` and a ``gpu_count`` (a training configuration, an inference row)."""
    return _("%(gpu)s × %(count)s") % {"gpu": configuration.gpu.name, "count": format_number(configuration.gpu_count)}


def billions_text(billions):
    """ "70 billion parameters", with the language's plural."""
    value = significant(billions)
    return ngettext("%(count)s billion parameters", "%(count)s billion parameters", plural_count(value)) % {
        "count": format_number(value)}


def class_name(gpu_class):
    return {
        SCALE_UP: _("data-centre GPU in an NVLink or Infinity Fabric node"),
        PCIE: _("data-centre or workstation card on PCIe"),
        CONSUMER: _("consumer card"),
    }[gpu_class]


def peak_text(value, derived, unit):
    text = format_quantity(significant(value), unit)
    return _("%(value)s (derived from the system figure)") % {"value": text} if derived else text


# Training


def training_problem(row, cluster_size):
    if row.problem == NO_BF16:
        return _("No published dense BF16 figure: no estimate.")
    if row.problem == TOO_SMALL:
        return ngettext("Does not fit on %(count)s GPU.", "Does not fit on %(count)s GPUs.", cluster_size) % {
            "count": format_number(cluster_size)}
    return ""


def configuration_text(configuration):
    if configuration is None:
        return None
    return {"gpus": gpus_text(configuration.gpu_count), "time": format_duration(configuration.wall_clock_hours),
            "practical": configuration.practical, "bounded": configuration.bounded,
            "memory": format_memory(configuration.memory_gb) if configuration.memory_gb is not None else ""}


def no_headroom_text(row):
    """The GPU count the run fills beyond the headroom: shown as not fitting, with its figure."""
    if row.no_headroom is None:
        return ""
    count, need = row.no_headroom
    return ngettext(
        "On %(count)s GPU it needs %(need)s of %(memory)s each: no headroom left, so not counted as fitting.",
        "On %(count)s GPUs it needs %(need)s of %(memory)s each: no headroom left, so not counted as fitting.",
        count) % {"count": format_number(count), "need": format_memory(need),
                  "memory": format_memory(sizing.exact(row.gpu.memory_gb))}


def unranked_warning(row):
    """Why some of the row's configurations are never ranked: no published run of that work on those cards at that
    count within a node, or PCIe cards beyond one node."""
    if row.problem is not None:
        return ""
    node = efficiency_model().gpus_per_node
    unranked = [c for c in row.configurations if not c.practical]
    if any(c.gpu_count <= node for c in unranked):
        return _("No published run measured this kind of work on these cards over several GPUs: such configurations "
                 "are shown for reference, never ranked cheapest or fastest.")
    if unranked:
        return _("Not how teams train: these cards over PCIe beyond one node of %(node)s GPUs. Shown for "
                 "reference, never ranked cheapest or fastest.") % {"node": format_number(node)}
    return ""


def training_rows(estimate, paths):
    rows = []
    for row in estimate.rows:
        fewest, largest = row.fewest, row.largest
        rows.append({
            "gpu": row.gpu,
            "path": paths[row.gpu.slug],
            "marks": ([_("Cheapest in time")] if row.cheapest else []) + ([_("Fastest")] if row.fastest else []),
            "late": _("Does not finish within %(within)s on the GPU counts you chose.") % {
                "within": format_duration(estimate.within_hours)}
            if row.problem is None and row.practical and not row.in_time and estimate.within_hours is not None else "",
            "no_headroom": no_headroom_text(row),
            "bf16": peak_text(row.peak_tflops, row.peak_derived, "TFLOPS") if row.peak_tflops else "",
            "utilization": format_share(significant(row.best.utilization, 2)) if row.best else "",
            "gpu_hours": format_gpu_hours(row.gpu_hours) if row.gpu_hours is not None else "",
            "fewest": configuration_text(fewest),
            "largest": configuration_text(largest) if largest is not fewest else None,
            "cost": format_usd_estimate(row.cost) if row.cost is not None else (
                _("No live offer") if row.problem is None else ""),
            "warning": unranked_warning(row),
            "problem": training_problem(row, estimate.cluster_size),
        })
    return rows


def cheapest_configuration(estimate):
    """The configuration to rent: the cheapest GPU's fastest configuration at its least cost; None without one."""
    cheapest = estimate.cheapest
    if not cheapest:
        return None
    row = cheapest[0]
    return max((c for c in row.practical_configurations if c.cost == row.cost), key=lambda c: c.gpu_count)


def recommended_training(estimate):
    """The cheapest configuration that finishes within the time budget; when none does, the fastest, saying so."""
    configuration = cheapest_configuration(estimate)
    figures = None
    if configuration is None:
        configuration = next((c for c in estimate.fastest if c.cost is not None), None)
        if configuration is None:
            return None
        figures = {"within": format_duration(estimate.within_hours)} if estimate.within_hours is not None else None
    time_cost = {"time": format_duration(configuration.wall_clock_hours),
                 "cost": format_usd_estimate(configuration.cost)}
    detail = (_("the fastest, though none finishes within %(within)s: %(time)s, %(cost)s") % {**figures, **time_cost}
              if figures else _("%(time)s, %(cost)s") % time_cost)
    return {"gpu": configuration.gpu, "count": configuration.gpu_count, "name": configuration_name(configuration),
            "detail": detail}


def recommended_configuration(configurations):
    """The sizing answer's configuration to rent: the cheapest that holds the model (they come cheapest first)."""
    configuration = next((c for c in configurations if c.fits and c.hourly_cost is not None), None)
    if configuration is None:
        return None
    return {"gpu": configuration.gpu, "count": configuration.gpu_count,
            "name": configuration_name(configuration),
            "detail": _("%(price)s per hour") % {"price": format_usd(configuration.hourly_cost)}}


def fit_training_context(form, requirement):
    """The fit tab's training memory, as the training tab shows it: the parts on one GPU at the training tab's
    defaults, the headroom, and a link to the same model and method on the training tab, at its memory figures."""
    memory = requirement.training
    query = [("answer", "training")] + [pair for pair in form.query_pairs() if pair[0] in ("size", "method")]
    return {
        "required": format_memory(requirement.total_gb),
        "memory_parts": {"weights": format_memory(memory.weights_gb), "gradients": format_memory(memory.gradients_gb),
                         "optimizer": format_memory(memory.optimizer_gb),
                         "activations": format_memory(memory.activations_gb),
                         "sequence": format_number(requirement.sequence_tokens),
                         "batch": format_number(requirement.micro_batch), "checkpointing": True,
                         "headroom": format_share(memory_figures().headroom_share.value)},
        "training_url": f"{reverse('estimator:calculator')}?{urlencode(query)}#{TRAINING_MEMORY_ANCHOR}",
    }


def position(items, item):
    """Where ``item`` itself is in ``items`` (list.index compares every field of the dataclasses: slow)."""
    return next(index for index, candidate in enumerate(items) if candidate is item)


def training_chart(estimate):
    priced = [c for c in estimate.configurations if c.cost is not None and c.rankable]
    if not priced:
        return None
    highlighted = {}
    mark = cheapest_configuration(estimate)
    if mark is not None:
        highlighted[position(priced, mark)] = _("Cheapest: %(configuration)s") % {
            "configuration": configuration_name(mark)}
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
        caption=_("One dot per GPU and GPU count a team would train on, on logarithmic scales: the further left, "
                  "the sooner done; the lower, the cheaper."),
        description="; ".join(f"{name}: {time}, {cost}" for name, time, cost in rows),
        layout=cost_chart(
            [(name, c.wall_clock_hours, c.cost) for (name, _t, _c), c in zip(rows, priced, strict=True)],
            highlighted, _("Wall-clock time (logarithmic)"), _("Cost, US dollars (logarithmic)"),
            time_ladder(get_language()), powers_of_ten(low, high, usd_tick, NICE_DIGITS), format_duration, usd_tick,
        ),
        headings=(_("Configuration"), _("Wall-clock time"), _("Cost")),
        rows=rows,
    )


TRILLION_IN_BILLIONS = 1000


def decade(value):
    """The exponent of the power of ten at or below ``value`` (above zero)."""
    return as_decimal(value).adjusted()


def tokens_text(billions):
    """ "70 billion tokens"; from a thousand billion on, "15 trillion tokens", as every language counts them
    (German "15 Billionen Token", never "15.000 Milliarden Token"), with the language's plural."""
    value = significant(billions)
    if value >= TRILLION_IN_BILLIONS:
        trillions = significant(value / TRILLION_IN_BILLIONS)
        return ngettext("%(count)s trillion tokens", "%(count)s trillion tokens", plural_count(trillions)) % {
            "count": format_number(trillions)}
    return ngettext("%(count)s billion tokens", "%(count)s billion tokens", plural_count(value)) % {
        "count": format_number(value)}


def training_context(form, gpus, paths):
    """``paths``: {slug: the GPU's page}."""
    estimate = form.estimate(gpus)
    data = form.cleaned_data
    total = sizing.exact(form.model_billion_params())
    model = efficiency_model()
    memory = estimate.memory
    default_text = {
        "compute_optimal": _("none entered: the compute-optimal %(ratio)s per parameter") % {
            "ratio": formulas.COMPUTE_OPTIMAL_TOKENS_PER_PARAMETER},
        "fine_tuning": _("none entered: a fine-tuning data set of %(examples)s examples × %(tokens)s tokens × "
                         "%(epochs)s epochs") % {
            "examples": format_number(model.fine_tuning_examples),
            "tokens": format_number(model.fine_tuning_tokens_per_example),
            "epochs": format_number(model.fine_tuning_epochs)},
    }.get(estimate.tokens_default, "")
    return {
        "estimate": estimate,
        "method_name": data["method"].name,
        "size": billions_text(total),
        "active": billions_text(estimate.compute_billion_params) if estimate.compute_billion_params != total else "",
        "tokens": tokens_text(estimate.billion_tokens),
        "tokens_default": default_text,
        "tokens_per_parameter": format_number(significant(estimate.billion_tokens / estimate.compute_billion_params)),
        "factor": estimate.flops_per_parameter_token,
        "compute_size": billions_text(estimate.compute_billion_params),
        "flops": format_scientific(estimate.flops),
        "utilization": format_share(estimate.utilization) if estimate.utilization is not None else "",
        "required": format_memory(estimate.required_gb),
        "memory_parts": {"weights": format_memory(memory.weights_gb), "gradients": format_memory(memory.gradients_gb),
                         "optimizer": format_memory(memory.optimizer_gb),
                         "activations": format_memory(memory.activations_gb),
                         "sequence": format_number(estimate.sequence_tokens),
                         "batch": format_number(estimate.micro_batch), "checkpointing": estimate.checkpointing,
                         "headroom": format_share(memory_figures().headroom_share.value)},
        "within": format_duration(estimate.within_hours) if estimate.within_hours is not None else "",
        "ignored": form.ignored_dataset(),
        "cluster": format_number(estimate.cluster_size),
        "cluster_size": estimate.cluster_size,
        "rows": training_rows(estimate, paths),
        "recommended": recommended_training(estimate),
        "chart": training_chart(estimate),
    }


# Inference


def inference_problem(row):
    if row.problem == NO_BANDWIDTH:
        return _("No published memory bandwidth or peak: no estimate.")
    if row.problem == TOO_SMALL_TO_SERVE:
        largest = max(GPU_COUNTS)
        return ngettext("Does not fit on %(count)s GPU.", "Does not fit on %(count)s GPUs.", largest) % {
            "count": format_number(largest)}
    return ""


def tokens_per_second(value):
    value = significant(value)
    return ngettext("%(tokens)s token/s", "%(tokens)s tokens/s", plural_count(value)) % {
        "tokens": format_number(value)}


def seconds_text(seconds):
    """A latency: milliseconds below a second, seconds from one up."""
    seconds = as_decimal(seconds)
    if seconds < 1:
        return format_quantity(significant(seconds * 1000), "ms")
    return format_quantity(significant(seconds), "s")


def inference_rows(estimate, paths):
    rows = []
    for row in estimate.rows:
        result = row.result
        rows.append({
            "gpu": row.gpu,
            "path": paths[row.gpu.slug],
            "marks": [_("Cheapest")] if row.cheapest else [],
            "gpus": gpus_text(row.gpu_count) if row.gpu_count else "",
            "batch": format_number(result.batch) if result else "",
            "fits": format_number(row.plan.batch_that_fits) if row.plan else "",
            "per_gpu": tokens_per_second(row.tokens_per_second_per_gpu) if result else "",
            "ttft": seconds_text(result.time_to_first_token) if result else "",
            "tpot": seconds_text(result.time_per_output_token) if result else "",
            "compute_bound": bool(result) and not result.memory_bound,
            "hourly": format_usd_estimate(row.hourly_cost) if row.hourly_cost is not None else "",
            "per_million_output": format_usd_rate(row.usd_per_million_output)
            if row.usd_per_million_output is not None else (_("No live offer") if row.problem is None else ""),
            "per_million_input": format_usd_rate(row.usd_per_million_input)
            if row.usd_per_million_input is not None else "",
            "problem": inference_problem(row),
        })
    return rows


def recommended_inference(estimate):
    cheapest = estimate.cheapest
    if not cheapest:
        return None
    row = cheapest[0]
    return {"gpu": row.gpu, "count": row.gpu_count, "name": configuration_name(row),
            "detail": _("%(price)s per million output tokens, %(speed)s per GPU") % {
                "price": format_usd_rate(row.usd_per_million_all_in),
                "speed": tokens_per_second(row.tokens_per_second_per_gpu)}}


def inference_chart(estimate):
    priced = [row for row in estimate.rows if row.usd_per_million_all_in is not None]
    if not priced:
        return None
    speeds = [1 / row.result.time_per_output_token for row in priced]
    rows = tuple((configuration_name(row), tokens_per_second(speed), format_usd_rate(row.usd_per_million_all_in))
                 for row, speed in zip(priced, speeds, strict=True))
    highlighted = {index: _("Cheapest: %(configuration)s") % {"configuration": rows[index][0]}
                   for index, row in enumerate(priced) if row.cheapest}
    fastest = max(range(len(priced)), key=lambda index: speeds[index])
    text = _("Fastest: %(configuration)s") % {"configuration": rows[fastest][0]}
    highlighted[fastest] = (_("Cheapest and fastest: %(configuration)s") % {"configuration": rows[fastest][0]}
                            if fastest in highlighted else text)
    prices = [row.usd_per_million_all_in for row in priced]
    return Chart(
        key="inference-chart",
        title=_("Cost per million tokens against speed per sequence"),
        caption=_("One dot per GPU configuration that holds the model, on logarithmic scales: the further right, "
                  "the faster each answer; the lower, the cheaper each token."),
        description="; ".join(f"{name}: {speed}, {price}" for name, speed, price in rows),
        layout=cost_chart(
            [(name, speed, price) for (name, _s, _p), speed, price in zip(rows, speeds, prices, strict=True)],
            highlighted, _("Tokens per second per sequence (logarithmic)"),
            _("US dollars per million generated tokens (logarithmic)"),
            powers_of_ten(decade(min(speeds)) - 1, decade(max(speeds)) + 1, format_number, NICE_DIGITS),
            powers_of_ten(decade(min(prices)) - 1, decade(max(prices)) + 1, usd_tick, NICE_DIGITS),
            format_number, usd_tick,
        ),
        headings=(_("Configuration"), _("Tokens per second per sequence"), _("Per million tokens")),
        rows=rows,
    )


def inference_context(form, gpus, paths):
    """``paths``: {slug: the GPU's page}."""
    estimate = form.estimate(gpus)
    request = estimate.request
    return {
        "estimate": estimate,
        "method_name": _("serving with %(format)s weights") % {"format": weight_format_name(estimate.weight_format)},
        "size": billions_text(request.total_billion_params),
        "active": (billions_text(request.active_billion_params)
                   if request.active_billion_params != request.total_billion_params else ""),
        "bits": format_number(estimate.weight_format.bits),
        "format": weight_format_label(estimate.weight_format),
        "kv_bytes": estimate.kv_format.bytes,
        "weights": format_memory(estimate.weights_gb),
        "kv_per_token": format_number(kv_bytes_per_token(request.shape, estimate.kv_format.bytes)),
        "input": format_number(request.input_tokens),
        "output": format_number(request.output_tokens),
        "batch": format_number(request.batch) if request.batch else "",
        "utilization": format_share(serving_data().memory_utilization),
        "shape": request.shape,
        "rows": inference_rows(estimate, paths),
        "recommended": recommended_inference(estimate),
        "chart": inference_chart(estimate),
    }


# The assumptions and the published runs


def figure_row(what, figure):
    return {"what": what, "share": format_share(figure.share), "basis": figure.basis, "source": figure.source,
            "read_on": figure.read_on}


def count_text(up_to_gpus):
    if up_to_gpus == 0:
        return _("any number of GPUs")
    return ngettext("up to %(count)s GPU", "up to %(count)s GPUs", up_to_gpus) % {"count": format_number(up_to_gpus)}


def class_text(gpu_class):
    return _("every class") if gpu_class == "*" else class_name(gpu_class)


def efficiency_rows():
    """The training tab's efficiency figures, with their basis and source, for the assumptions block."""
    model = efficiency_model()
    training = [figure_row(_("Training utilization, %(class)s, %(architecture)s") % {
        "class": class_text(gpu_class),
        "architecture": _("any architecture") if architecture == "*" else architecture}, figure)
        for gpu_class, architecture, figure in model.training_mfu]
    scaling = [figure_row(_("Scaling kept, %(class)s, %(count)s") % {
        "class": class_text(rule.gpu_class), "count": count_text(rule.up_to_gpus)}, rule.figure)
        for rule in model.scaling]
    return training + scaling


def basis_row(what, value, basis):
    return {"what": what, "share": value, "basis": gettext(basis.text) if basis.text else "",
            "source": basis.source, "read_on": basis.read_on}


def serving_rows():
    """The serving figures: the memory engines reserve, and each platform's shares of the bandwidth and the peak."""
    data = serving_data()
    rows = [
        basis_row(_("Memory an engine uses"), format_share(data.memory_utilization), data.utilization_basis),
        basis_row(_("Most sequences at once"), format_number(data.max_sequences), data.max_sequences_basis),
    ]
    for platform in data.platforms:
        rows.append(basis_row(_("Share of the memory bandwidth a decode step reaches, %(platform)s") % {
            "platform": platform.name}, format_share(platform.bandwidth_share), platform.basis))
        rows.append(basis_row(_("Share of the peak at the weights' precision, %(platform)s") % {
            "platform": platform.name}, format_share(platform.compute_share), platform.basis))
    rows.append(basis_row(_("Fixed time of a decode step"),
                          format_quantity(format_number(data.step_overhead_seconds * 1000), "ms"),
                          data.overhead_basis))
    rows.append(basis_row(_("Share of the link an all-reduce reaches"), format_share(data.link_share),
                          data.step_basis))
    return rows


def weight_bits_rows():
    return [{"method": weight_format_name(item), "bits": format_number(item.bits),
             "format": gettext(item.basis.text), "source": item.basis.source} for item in serving_data().weights]


def ratio_text(ratio):
    """A ratio with two decimals: "1,09", "0,68"."""
    return format_number(as_decimal(ratio), 2)


class PublishedChecks(NamedTuple):
    version: int
    training: tuple
    serving: tuple
    memory: tuple = ()


def load_published_checks(version, gpus):
    by_slug = {gpu.slug: gpu for gpu in gpus}
    return PublishedChecks(version, *checks(by_slug, sizing_method("full_adam")), memory_checks(by_slug))


def memory_status_text(status):
    return {FITS: _("fits"), NO_HEADROOM: _("no headroom"), TOO_SMALL_MEMORY: _("does not fit")}[status]


# The checks depend on the GPUs' figures only (not the page's inputs): computed once per content version.
published_checks = CachedContent(load_published_checks)


def published_run_rows(gpus):
    """The check against published runs: each run's published figure, our estimate and the ratio."""
    found = published_checks(gpus)
    training, serving = found.training, found.serving
    training_rows_ = [{
        "name": check.run.name, "gpu": check.run.gpu_as_published, "held_out": check.run.set == HELD_OUT,
        "published": format_gpu_hours(check.run.published_gpu_hours), "estimate": format_gpu_hours(check.estimate),
        "ratio": ratio_text(check.ratio), "source": check.run.source,
        "note": gettext(check.run.source.note) if check.run.source.note else "",
    } for check in training]
    serving_rows_ = [{
        "name": check.run.name,
        "weights": weight_format_label(serving_data().weight_format(check.run.weights)),
        "kv": _("16-bit KV cache") if check.run.kv == "16" else _("FP8 KV cache"),
        "tokens": _("%(input)s → %(output)s") % {"input": format_number(check.run.input_tokens),
                                                 "output": format_number(check.run.output_tokens)},
        "batch": format_number(check.run.batch) if check.run.batch else _("maximum load"),
        "gpu": _("%(gpu)s × %(count)s") % {"gpu": check.gpu.name, "count": format_number(check.run.gpu_count)},
        "engine": check.run.engine, "held_out": check.run.set == HELD_OUT,
        "published": tokens_per_second(check.run.published_tokens_per_second),
        "estimate": tokens_per_second(check.estimate), "ratio": ratio_text(check.ratio), "source": check.run.source,
        "note": gettext(check.run.source.note) if check.run.source.note else "",
    } for check in serving]
    memory_rows = [{
        "name": check.run.name,
        "gpu": _("%(gpu)s × %(count)s") % {"gpu": check.run.gpu_as_published,
                                           "count": format_number(check.run.gpu_count)},
        "shape": _("%(batch)s × %(tokens)s tokens") % {"batch": format_number(check.run.micro_batch),
                                                       "tokens": format_number(check.run.sequence_tokens)},
        "published": (format_memory(check.run.published_gb) if check.run.published_gb is not None
                      else _("fit") if check.run.fits else _("out of memory")),
        "estimate": format_memory(check.estimate_gb), "status": memory_status_text(check.status),
        "ratio": ratio_text(check.ratio) if check.ratio is not None else "", "agrees": check.agrees,
        "source": check.run.source, "note": gettext(check.run.source.note) if check.run.source.note else "",
    } for check in found.memory]
    return {"training": training_rows_, "serving": serving_rows_, "memory": memory_rows}


def bytes_text(value):
    return ngettext("%(bytes)s byte", "%(bytes)s bytes", 1 if value == 1 else 2) % {"bytes": format_number(value)}


def training_memory_rows():
    """Every figure of the training memory, the time budget and the scaling bound, each with what it was measured on
    (or marked as the site's assumption) and its source, for the training tab's assumptions."""
    memory = memory_figures()
    bounds = training_bounds()
    adam, eight_bit = memory.state_bytes["adam"], memory.state_bytes["adam_8bit"]

    def row(what, value, figure=None, basis="", source="", excerpt=""):
        if figure is not None:
            basis, source, excerpt = figure.basis, figure.source, figure.excerpt
        return {"what": what, "value": value, "basis": basis, "source": source, "excerpt": excerpt}

    return [
        row(_("Full training, mixed-precision Adam: weights + gradients + optimizer states per parameter"),
            bytes_text(sum(part.value for part in adam)), adam[0]),
        row(_("Full training, 8-bit Adam: weights + gradients + optimizer states per parameter"),
            bytes_text(sum(part.value for part in eight_bit)), eight_bit[0]),
        *(row(_("Frozen base of %(method)s, per parameter") % {"method": sizing_method(key).name},
              bytes_text(figure.value), figure) for key, figure in memory.frozen_base_bytes.items()),
        row(_("Adapters, share of the base's parameters"), format_share(memory.adapter_share.value),
            memory.adapter_share),
        *(row(_("Each adapter parameter of %(method)s, with its gradient and Adam states") % {
            "method": sizing_method(key).name}, bytes_text(figure.value), figure)
          for key, figure in memory.adapter_bytes.items()),
        row(_("Activations per layer, per token and hidden unit: stored / with checkpointing"),
            f"{bytes_text(memory.activation_bytes.value)} / {bytes_text(memory.checkpointed_bytes.value)}",
            memory.activation_bytes),
        row(_("Model shape from its size"), "", basis=memory.shape_basis),
        row(_("Headroom left free on each GPU"), format_share(memory.headroom_share.value), memory.headroom_share),
        row(_("Sequence length and sequences per GPU when none are entered"),
            f"{format_number(memory.default_sequence_tokens)} × {format_number(memory.default_micro_batch)}",
            basis=memory.defaults_basis),
        row(_("Time budget when none is entered"),
            format_duration(bounds.default_within_days * HOURS_PER_DAY), basis=bounds.within_basis),
        row(_("Largest global batch of a published run, tokens"), format_number(bounds.max_global_batch_tokens),
            basis=bounds.global_batch_basis, source=bounds.global_batch_source, excerpt=bounds.global_batch_excerpt),
        row(_("Network beyond one node, per GPU"), format_quantity(bounds.inter_node.value, "GB/s"), bounds.inter_node),
        row(_("Bytes each GPU sends per parameter it holds, per step"), bytes_text(bounds.all_reduce_bytes.value),
            bounds.all_reduce_bytes),
    ]


def assumption_figures():
    """The numbers the assumptions block states, from the modules that use them."""
    model = efficiency_model()
    return {
        "full_factor": sizing.FULL_TRAINING_FLOPS_PER_PARAMETER_TOKEN,
        "frozen_factor": sizing.FROZEN_BASE_FLOPS_PER_PARAMETER_TOKEN,
        "tokens_per_parameter": formulas.COMPUTE_OPTIMAL_TOKENS_PER_PARAMETER,
        "fine_tuning_examples": format_number(model.fine_tuning_examples),
        "fine_tuning_tokens": format_number(model.fine_tuning_tokens_per_example),
        "fine_tuning_epochs": format_number(model.fine_tuning_epochs),
        "fine_tuning_source": model.fine_tuning_basis.source,
        "min_utilization": format_share(formulas.MIN_UTILIZATION),
        "max_utilization": format_share(formulas.MAX_UTILIZATION),
        "seconds_per_hour": format_number(formulas.SECONDS_PER_HOUR),
        "decode_factor": formulas.DECODE_FLOPS_PER_PARAMETER_TOKEN,
        "memory_utilization": format_share(serving_data().memory_utilization),
        "block_tokens": format_number(serving_data().block_tokens),
        "max_sequences": format_number(serving_data().max_sequences),
        "million": format_number(formulas.TOKENS_PER_MILLION),
        "usable_share": format_share(sizing.USABLE_MEMORY_SHARE),
        "kv_bytes": sizing.KV_CACHE_BYTES_PER_VALUE,
        "inference_counts": ", ".join(str(count) for count in sizing.CALCULATOR_GPU_COUNTS),
        "node": format_number(model.gpus_per_node),
        "link": format_quantity(model.scale_up_min_link_gbs, "GB/s"),
        "efficiencies": efficiency_rows(),
        "training_memory": training_memory_rows(),
        "serving": {"efficiencies": serving_rows()},
        "weight_bits": weight_bits_rows(),
    }


def weight_format_name(weight_format):
    names = {"bf16": _("BF16 or FP16"), "fp8": _("FP8"), "int4": _("INT4 (AWQ or GPTQ, groups of 128)"),
             "q4_k_m": _("llama.cpp Q4_K_M")}
    return names.get(weight_format.key, weight_format.key)


def weight_format_label(weight_format):
    return _("%(format)s: %(bits)s bits per weight") % {"format": weight_format_name(weight_format),
                                                          "bits": format_number(weight_format.bits)}
