"""How a GPU ranks against the other GPUs of the catalogue on memory, memory bandwidth and price per hour:
the figures of the rank chart on its page, in the active language. A figure derived from a system figure ranks
too, marked "(derived)". Works on GPUs already fetched: no queries."""
from dataclasses import dataclass

from django.utils.translation import gettext as _

from charts.rank_chart import rank_chart
from core.exact_numbers import exact
from core.formatting import format_quantity, format_usd

from .specs import SPECS_BY_KEY, derived_quantity_text, derived_value, missing_spec_text, ranked_value, spec_label

# The measures of the chart, in its order; each ranks as the comparison does (more or less is better).
RANKED_SPECS = ("memory_gb", "bandwidth_gbs", "price_usd_per_hour")


@dataclass(frozen=True)
class Ranking:
    title: str
    value_text: str  # this GPU's value, or "not published" or "not supported"
    rank: int | None  # None when this GPU has no value
    count: int  # GPUs with a value
    rank_text: str
    low_text: str
    high_text: str


@dataclass(frozen=True)
class RankingChart:
    key: str
    title: str
    gpu_name: str
    rankings: tuple
    layout: object


def rank(value, values, more_is_better):
    """1 + the number of ``values`` better than ``value``: equal values share a rank (1, 2, 2, 4)."""
    better = [other for other in values if (other > value if more_is_better else other < value)]
    return 1 + len(better)


def value_text(spec, value, derived=False):
    if derived:
        return derived_quantity_text(spec, value)
    if spec == "price_usd_per_hour":
        return format_usd(value)
    return format_quantity(value, SPECS_BY_KEY[spec].unit)


def measure_title(spec):
    if spec == "price_usd_per_hour":
        return _("Price per GPU-hour, lower is better")
    return spec_label(spec)


def gpu_ranking(gpu, gpus):
    """The rank chart of ``gpu`` among ``gpus`` (which include it); a measure no GPU has a value for is left out."""
    rankings, rows = [], []
    for spec in RANKED_SPECS:
        more_is_better = SPECS_BY_KEY[spec].more_is_better
        values = [exact(ranked_value(other, spec)) for other in gpus if ranked_value(other, spec) is not None]
        if not values:
            continue
        current = ranked_value(gpu, spec)
        position = None if current is None else rank(exact(current), values, more_is_better)
        missing = str(missing_spec_text(gpu, spec))  # plain text: the chart's SVG takes no markup
        ranking = Ranking(
            title=measure_title(spec),
            value_text=missing if current is None else value_text(spec, current, derived_value(gpu, spec) is not None),
            rank=position, count=len(values),
            rank_text=missing if position is None else _("#%(rank)s of %(count)s") % {
                "rank": position, "count": len(values)},
            low_text=value_text(spec, min(values)), high_text=value_text(spec, max(values)),
        )
        rankings.append(ranking)
        rows.append((ranking.title, ranking.rank_text, values, None if current is None else exact(current),
                     ranking.value_text, ranking.low_text, ranking.high_text))
    return RankingChart(
        key="ranking",
        title=_("How the %(gpu)s ranks among the GPUs we list") % {"gpu": gpu.name}, gpu_name=gpu.name,
        rankings=tuple(rankings), layout=rank_chart(rows),
    )
