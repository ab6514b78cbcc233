"""The comparison of two to four GPUs: specs and fits side by side with the best value of each row marked,
and the figures of its charts (price, memory, BF16 throughput per dollar, largest trainable model per
dollar). Works on GPUs and table columns already fetched: no queries."""
from dataclasses import dataclass
from fractions import Fraction

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from charts.bar_chart import bar_chart
from core.formatting import format_number, format_quantity, format_share, format_usd, not_published

from . import sizing
from .columns import LargestModelColumn
from .sizing_methods import SIZING_METHODS, method_label, sizing_method
from .specs import SPECS, derived_text, ranked_value, spec_label, spec_text_with_derived

MIN_GPUS, MAX_GPUS = 2, 4
# The training run behind "largest trainable model per dollar".
TRAINING_RUN_GPUS = 8
TRAINING_METHOD = "full_adam"


@dataclass(frozen=True)
class Cell:
    text: str
    is_best: bool


@dataclass(frozen=True)
class Row:
    label: str
    cells: tuple


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    definition: str
    layout: object


def best_positions(values, more_is_better):
    """Positions holding the best of ``values`` (None is unranked); none when fewer than two values
    differ, since marking a tie of everything says nothing."""
    ranked = [value for value in values if value is not None]
    if len(set(ranked)) < 2:
        return frozenset()
    best = max(ranked) if more_is_better else min(ranked)
    return frozenset(position for position, value in enumerate(values) if value == best)


def comparison_row(label, texts, values=None, more_is_better=True):
    best = frozenset() if values is None else best_positions(values, more_is_better)
    return Row(label, tuple(Cell(text, position in best) for position, text in enumerate(texts)))


def spec_rows(gpus):
    """Every spec, in the reading order of a GPU's page; the ranked ones mark their best value (one not
    published or not supported is unranked; one derived from a system figure ranks, and says so)."""
    rows = []
    for spec in SPECS:
        texts = [spec_text_with_derived(gpu, spec.key) for gpu in gpus]
        if spec.more_is_better is None:
            rows.append(comparison_row(spec_label(spec.key), texts))
        else:
            values = [ranked_value(gpu, spec.key) for gpu in gpus]
            rows.append(comparison_row(spec_label(spec.key), texts, values, spec.more_is_better))
    return rows


def fit_label(column):
    return ngettext("%(method)s, %(count)s GPU", "%(method)s, %(count)s GPUs", column.gpu_count) % {
        "method": capfirst(method_label(sizing_method(column.method))), "count": column.gpu_count,
    }


def fit_rows(gpus, sizing_columns=()):
    """The largest model each GPU fits, by sizing method on one GPU and for full training on a training
    run's GPUs, after ``sizing_columns`` ((heading, column) of a table); a default that repeats one of them
    is left out. More is better in every row."""
    defaults = [LargestModelColumn(method.key) for method in SIZING_METHODS]
    defaults.append(LargestModelColumn(TRAINING_METHOD, TRAINING_RUN_GPUS))
    shown = {column for _heading, column in sizing_columns}
    columns = list(sizing_columns)
    columns += [(fit_label(column), column) for column in defaults if column not in shown]
    return [
        comparison_row(heading, [column.text(gpu) for gpu in gpus], [column.value(gpu) for gpu in gpus])
        for heading, column in columns
    ]


def bf16_tflops_per_usd_hour(gpu):
    """Dense BF16 TFLOPS (published, else derived from a system figure) per US dollar of one GPU-hour."""
    figure = gpu.training_bf16_tflops
    if figure is None or not gpu.price_usd_per_hour:
        return None
    return sizing.exact(figure.value) / sizing.exact(gpu.price_usd_per_hour)


def bf16_per_dollar_text(gpu, value):
    text = format_number(value, 1)
    return derived_text(text) if gpu.training_bf16_tflops.derived else text


def trainable_billion_params_per_usd_hour(gpu):
    """The largest model that full training with Adam fits on a training run's GPUs (rounded as the tables
    round it), in billions of parameters, per US dollar of one hour of those GPUs."""
    if not gpu.price_usd_per_hour:
        return None
    params = LargestModelColumn(TRAINING_METHOD, TRAINING_RUN_GPUS).value(gpu)
    return Fraction(params) / (TRAINING_RUN_GPUS * sizing.exact(gpu.price_usd_per_hour))


def trainable_definition():
    return _(
        "Largest trainable model per dollar: the largest model that full training with Adam in mixed "
        "precision (%(bytes)s bytes per parameter) fits on %(gpus)s of these GPUs, counting %(share)s of their "
        "memory and rounded down as in the tables, in billions of parameters, divided by the price of those "
        "%(gpus)s GPUs for one hour in US dollars."
    ) % {
        "bytes": format_number(sizing_method(TRAINING_METHOD).bytes_per_parameter), "gpus": TRAINING_RUN_GPUS,
        "share": format_share(sizing.USABLE_MEMORY_SHARE),
    }


def comparison_charts(gpus):
    def layout(value_of, text_of):
        """Bars of ``value_of(gpu)``, each with ``text_of(gpu, value)``, or "not published"."""
        items = []
        for gpu in gpus:
            value = value_of(gpu)
            items.append((gpu.name, value, not_published() if value is None else text_of(gpu, value)))
        return bar_chart(items)

    return [
        Chart("price", _("Price per GPU-hour, US dollars"),
              _("The best live offer for one GPU-hour, before tax. A shorter bar is cheaper."),
              layout(lambda gpu: gpu.price_usd_per_hour, lambda gpu, value: format_usd(value))),
        Chart("memory", _("Memory per GPU, GB"), _("GPU memory as the vendor publishes it."),
              layout(lambda gpu: gpu.memory_gb, lambda gpu, value: format_quantity(value, "GB"))),
        Chart("bf16-per-dollar", _("Dense BF16 TFLOPS per US dollar per hour"),
              _("Dense BF16 tensor throughput, without sparsity, divided by the price of one GPU-hour."),
              layout(bf16_tflops_per_usd_hour, bf16_per_dollar_text)),
        Chart("trainable-per-dollar", _("Largest trainable model, billions of parameters per US dollar per hour"),
              trainable_definition(),
              layout(trainable_billion_params_per_usd_hour, lambda gpu, value: format_number(value, 2))),
    ]


def chart_data_rows(gpus, charts):
    """The charts' values as table rows, one per GPU: their text alternative."""
    return [(gpu, [chart.layout.bars[position].value_text for chart in charts]) for position, gpu in enumerate(gpus)]
