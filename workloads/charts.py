"""A workload's chart: each GPU of its table at its best price per GPU-hour against the value of one of
its columns (the largest model that fits, FP64, memory…), with the texts that go with it in the active
language. Values come from the same functions as the table's cells; works on prefetched rows and columns,
so it makes no query."""
from dataclasses import dataclass

from django.utils.translation import gettext as _

from catalog.specs import spec_text
from charts.scatter_chart import scatter_chart
from core.formatting import format_number, format_usd


@dataclass(frozen=True)
class ChartRow:
    gpu: object
    value_text: str  # as in the table's cell
    price_text: str  # as in the table's price cell


@dataclass(frozen=True)
class WorkloadChart:
    key: str
    title: str
    caption: str
    value_heading: str
    price_heading: str
    rows: tuple  # the plotted GPUs, in the table's order
    not_plotted: str  # a sentence naming the GPUs left out, or ""
    layout: object


def axis_title(column):
    """The column's heading, with its unit when it has one."""
    unit = column.gpu_column().unit
    if not unit:
        return column.label
    return _("%(column)s (%(unit)s)") % {"column": column.label, "unit": unit}


def price_tick(value, places):
    """A price on the axis: whole dollars, or cents when the steps are smaller."""
    return format_usd(value, 2 if places else 0)


def value_tick(value, places):
    return format_number(value, places) if places else format_number(value)


def workload_chart(workload):
    """The chart of ``workload``'s table, or None when no column has a number to plot or no GPU has both a
    price and a value."""
    column = workload.plotted_column()
    if column is None:
        return None
    plotted = column.gpu_column()
    rows, items, left_out = [], [], []
    for row in workload.rows.all():
        gpu = row.gpu
        value = plotted.value(gpu)
        if gpu.price_usd_per_hour is None:
            left_out.append(_("%(gpu)s (no live price)") % {"gpu": gpu.name})
        elif value is None:
            left_out.append(_("%(gpu)s (no published figure)") % {"gpu": gpu.name})
        else:
            items.append((gpu.name, gpu.price_usd_per_hour, value))
            rows.append(ChartRow(gpu, plotted.text(gpu), spec_text(gpu, "price_usd_per_hour")))
    if not items:
        return None
    price_title = _("Price per GPU-hour, US dollars")
    return WorkloadChart(
        key=f"chart-{workload.key}",
        title=_("“%(column)s” against price per GPU-hour") % {"column": column.label},
        caption=_("One dot per GPU in the table above: the further left, the cheaper; the higher, the larger the "
                  "value."),
        value_heading=column.label,
        price_heading=_("Price per hour"),
        rows=tuple(rows),
        not_plotted=_("Not plotted: %(gpus)s.") % {"gpus": ", ".join(left_out)} if left_out else "",
        layout=scatter_chart(items, price_title, axis_title(column), price_tick, value_tick),
    )
