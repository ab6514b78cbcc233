"""The charts of issue 12: on each workload page a scatter plot of its table's GPUs (best price per GPU-hour
against the value of one column), on each GPU page a rank chart (memory, memory bandwidth, price). Their
geometry alone (nice ticks that cover the data, every mark inside the plot and in the order of its value,
labels that overlap nothing, whole-number coordinates from exact inputs), then the pages in every language
against figures this test works out itself from the GPUs' data file, then the queries."""
import csv
import itertools
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext
from hypothesis import given, settings
from hypothesis import strategies as st

import charts
from catalog.gpu_ranking import gpu_ranking
from catalog.loading import GPUS_CSV
from catalog.models import GPU
from charts import rank_chart, scatter_chart
from charts.text import ASCENT, DESCENT, text_width
from workloads.cached_content import workload_content
from workloads.charts import workload_chart
from workloads.models import Workload

from ..expected_sizing import BYTES_PER_PARAMETER, USABLE_SHARE, step_floor
from ..html import fetch, parse
from ..languages import LANGUAGES
from ..localized_numbers import numbers_in
from ..project_source import project_imports
from ..queries import add_test_gpus, page_queries

with open(GPUS_CSV, newline="", encoding="utf-8") as handle:
    CSV = {row["slug"]: row for row in csv.DictReader(handle)}

WORKLOAD_KEYS = ["llm-training", "fine-tuning", "llm-inference", "image-video-generation", "rendering-vfx",
                 "scientific-computing"]
# The column each launch workload plots: its chart_column, or the first "largest model that fits" column,
# or the first spec with a quantity.
PLOTTED_COLUMN = {
    "llm-training": "full-8gpu", "fine-tuning": "qlora", "llm-inference": "weights-16bit",
    "image-video-generation": "weights-bf16", "rendering-vfx": "memory", "scientific-computing": "fp64",
}
PHONE_CHART_WIDTH = 375 - 2 * 16  # the page's 1 rem padding each side


def expected_value(column, slug):
    """The number behind a table cell, worked out here from the data file with Decimal."""
    row = CSV[slug]
    memory = Decimal(row["memory_gb"])
    if column.kind == "model_fit":
        return step_floor(memory * column.gpu_count * USABLE_SHARE / BYTES_PER_PARAMETER[column.method])
    if column.kind == "usable_memory":
        return memory * column.gpu_count * USABLE_SHARE
    if column.kind == "decode_ceiling":
        if not row["bandwidth_gbs"]:
            return None
        weights = Decimal(column.model_billion_params) * BYTES_PER_PARAMETER[column.method]
        return step_floor(Decimal(row["bandwidth_gbs"]) / weights)
    text = row[column.spec].split(" ")[0]  # rt_cores read "128 (3rd gen)" in the file
    return Decimal(text) if text and text != "n/a" else None  # "n/a": not supported, plotted as no value


# 1. The geometry alone.

exact_numbers = st.decimals(min_value=0, max_value=5000, places=2, allow_nan=False, allow_infinity=False)
names = st.text(alphabet="ABCDEFGHIJKLMNOPRSTUVXYZ0123456789 ", min_size=1, max_size=22).map(str.strip).filter(bool)


def money(value, places):
    return f"${value.numerator / value.denominator:,.{places}f}"


def plain(value, places):
    return f"{value.numerator / value.denominator:,.{places}f}"


def is_nice(step):
    """1, 2 or 5 times a power of ten."""
    while step >= 10:
        step /= 10
    while step < 1:
        step *= 10
    return step in (1, 2, 5)


def box(x, baseline, anchor, text, font_size, bold=False):
    width = text_width(text, font_size, bold)
    left = {"start": x, "end": x - width, "middle": x - (width + 1) // 2}[anchor]
    return scatter_chart.Box(left, baseline - round(ASCENT * font_size), left + width,
                             baseline + round(DESCENT * font_size))


def scatter_text_boxes(layout):
    """Every text of a scatter plot as a box: ticks, axis titles, labels."""
    boxes = [box(t.label_x, t.label_y, "end", t.text, layout.font_size) for t in layout.y_ticks]
    boxes += [box(t.label_x, t.label_y, "middle", t.text, layout.font_size) for t in layout.x_ticks]
    boxes += [box(line.x, line.y, "start", line.text, layout.font_size) for line in layout.y_title]
    boxes += [box(line.x, line.y, "middle", line.text, layout.font_size) for line in layout.x_title]
    boxes += [label.box for label in layout.labels]
    return boxes


def assert_sound_scatter(layout, items):
    """What every scatter plot must satisfy, whatever its data."""
    plot = layout.plot
    frame = scatter_chart.Box(0, 0, layout.width, layout.height)
    for step, ticks, values in ((layout.x_step, layout.x_ticks, [x for _n, x, _y in items]),
                                (layout.y_step, layout.y_ticks, [y for _n, _x, y in items])):
        assert is_nice(step)
        tick_values = [tick.value for tick in ticks]
        assert all(b - a == step for a, b in itertools.pairwise(tick_values))
        assert tick_values[0] <= min([0, *values]) and tick_values[-1] >= max([0, *values])
        assert tick_values[0] == 0 or min(values) < 0  # from zero
    assert len(layout.x_ticks) - 1 <= scatter_chart.X_MAX_INTERVALS
    assert len(layout.y_ticks) - 1 <= scatter_chart.Y_MAX_INTERVALS
    assert [t.position for t in layout.x_ticks] == sorted(t.position for t in layout.x_ticks)
    assert [t.position for t in layout.y_ticks] == sorted((t.position for t in layout.y_ticks), reverse=True)
    assert (layout.x_ticks[0].position, layout.x_ticks[-1].position) == (plot.left, plot.right)
    assert (layout.y_ticks[0].position, layout.y_ticks[-1].position) == (plot.bottom, plot.top)
    # Every mark inside the plot, at its values, in their order.
    assert [(p.name, p.x_value, p.y_value) for p in layout.points] == [
        (n, Fraction(x), Fraction(y)) for n, x, y in items]
    for point in layout.points:
        assert plot.left <= point.x <= plot.right and plot.top <= point.y <= plot.bottom
        x_start, x_end, y_start, y_end = (layout.x_ticks[0].value, layout.x_ticks[-1].value,
                                          layout.y_ticks[0].value, layout.y_ticks[-1].value)
        x_length, y_length = plot.right - plot.left, plot.bottom - plot.top
        assert abs(point.x - plot.left - (point.x_value - x_start) / (x_end - x_start) * x_length) <= Fraction(1, 2)
        assert abs(plot.bottom - point.y - (point.y_value - y_start) / (y_end - y_start) * y_length) <= Fraction(1, 2)
    for a in layout.points:
        for b in layout.points:
            if a.x_value < b.x_value:
                assert a.x <= b.x
            if a.y_value < b.y_value:
                assert a.y >= b.y
    # Labels: inside the plot, over no mark and no other text; each mark named at most once.
    marks = [scatter_chart.mark_box(point) for point in layout.points]
    named = [name for label in layout.labels for name in label.names]
    assert len(named) == len(set(named)) <= len(items)
    for label in layout.labels:
        assert label.box.inside(plot)
        assert label.text == ", ".join(label.names)
        assert label.box == box(label.x, label.y, label.anchor, label.text, layout.font_size)
        assert not any(label.box.overlaps(mark) for mark in marks)
    texts = scatter_text_boxes(layout)
    for index, first in enumerate(texts):
        assert first.inside(frame), first
        for second in texts[index + 1:]:
            assert not first.overlaps(second), (first, second)
    # Whole numbers only, for the template to print.
    numbers = [layout.width, layout.height, layout.font_size, layout.point_radius, *vars(plot).values()]
    numbers += [n for t in layout.x_ticks + layout.y_ticks for n in (t.position, t.label_x, t.label_y)]
    numbers += [n for line in layout.x_title + layout.y_title for n in (line.x, line.y)]
    numbers += [n for p in layout.points for n in (p.x, p.y)] + [n for lb in layout.labels for n in (lb.x, lb.y)]
    assert all(type(n) is int for n in numbers)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(names, exact_numbers.filter(lambda d: d > 0), exact_numbers), min_size=1, max_size=16,
                unique_by=lambda item: item[0]))
def test_scatter_geometry_holds_for_any_data(items):
    assert_sound_scatter(scatter_chart.scatter_chart(items, "Price per GPU-hour", "Value", money, plain), items)


@pytest.mark.parametrize("items", [
    [("A", Decimal("0.33"), 0)],  # all values zero: the axis still has a step
    [("A", Decimal(1), Decimal("-2.5")), ("B", Decimal(2), Decimal(7))],  # a negative value
    [("A", Fraction(1, 3), 5), ("B", Fraction(1, 3), 5), ("C", 1, 5)],  # two marks on one spot share a label
])
def test_scatter_geometry_edge_cases(items):
    layout = scatter_chart.scatter_chart(items, "x", "y", money, plain)
    assert_sound_scatter(layout, items)
    if len(items) > 1 and items[0][1:] == items[1][1:]:
        assert any(label.names == ("A", "B") for label in layout.labels)


def test_scatter_refuses_floats_and_wraps_long_titles():
    with pytest.raises(TypeError):
        scatter_chart.scatter_chart([("A", 1.5, Decimal(2))], "x", "y", money, plain)
    title = "Entrenamiento completo, 8 GPU (miles de millones de parámetros) " * 2
    layout = scatter_chart.scatter_chart([("A", Decimal(1), Decimal(2))], title, title, money, plain)
    assert len(layout.y_title) > 1 and len(layout.x_title) > 1
    assert_sound_scatter(layout, [("A", Decimal(1), Decimal(2))])


CHARTS = Path(charts.__file__).resolve().parent
# What a drawer may import besides the standard library: its own package and the exact numbers of core.
ALLOWED_PROJECT_IMPORTS = {"charts", "core.exact_numbers"}


@pytest.mark.parametrize("module", sorted(path.name for path in CHARTS.glob("*.py")))
def test_a_chart_drawer_is_fed_plain_data(module):
    """No Django, no models, nothing of an app: the page's app reads and formats the data, the drawer lays it out."""
    imported = set(project_imports((CHARTS / module).read_text(encoding="utf-8")))
    assert imported <= ALLOWED_PROJECT_IMPORTS, imported


def test_the_purity_check_sees_django_and_an_app():
    source = "import math\nfrom django.utils.translation import gettext\nfrom .text import wrap\n" \
             "def f():\n    from catalog.models import GPU\n"
    assert list(project_imports(source)) == ["django.utils.translation", "catalog.models"]


def test_chart_text_is_legible_on_a_phone():
    """At least 11 px on a 375 px phone, where the drawing is the page's width less its padding."""
    for module in (scatter_chart, rank_chart):
        assert module.FONT_SIZE * PHONE_CHART_WIDTH / module.WIDTH >= 11


def test_rank_geometry():
    rows = [
        ("Memory", "#2 of 3", [Decimal(24), Decimal(80), Decimal(288)], Decimal(80), "80 GB", "24 GB", "288 GB"),
        ("Bandwidth", "Not published", [Decimal(768), Decimal(6000)], None, "Not published", "768", "6000"),
        ("One", "#1 of 1", [Fraction(5)], Fraction(5), "5", "5", "5"),
    ]
    layout = rank_chart.rank_chart(rows)
    memory, bandwidth, single = layout.rows
    assert memory.marks == (layout.strip_left, layout.strip_left + round(Fraction(56, 264) * (
        layout.strip_right - layout.strip_left)), layout.strip_right)
    assert memory.current_x == memory.marks[1] and bandwidth.current_x is None and bandwidth.current_label is None
    assert single.marks == (single.current_x,) == ((layout.strip_left + layout.strip_right) // 2,)
    assert [row.top for row in layout.rows] == sorted(row.top for row in layout.rows)
    assert all(b.top > a.bottom for a, b in itertools.pairwise(layout.rows))
    assert layout.rows[-1].bottom < layout.height <= layout.rows[-1].bottom + rank_chart.PADDING
    frame = scatter_chart.Box(0, 0, layout.width, layout.height)
    for row in layout.rows:
        texts = [box(line.x, line.y, "start", line.text, layout.font_size) for line in row.title]
        texts += [box(row.rank.x, row.rank.y, "end", row.rank.text, layout.font_size, bold=True),
                  box(row.low.x, row.low.y, "start", row.low.text, layout.font_size),
                  box(row.high.x, row.high.y, "end", row.high.text, layout.font_size)]
        if row.current_label:
            texts.append(box(row.current_label.x, row.current_label.y, "middle", row.current_label.text,
                             layout.font_size, bold=True))
        for index, first in enumerate(texts):
            assert first.inside(frame)
            assert not any(first.overlaps(second) for second in texts[index + 1:])
        assert all(type(n) is int for n in (row.strip_y, *row.marks, row.low.x, row.high.y))
    with pytest.raises(TypeError):
        rank_chart.rank_chart([("x", "", [1.5], None, "", "", "")])


# 2. The workload pages.


def chart_of(document):
    figure = document.find("figure", class_="chart-scatter")
    assert figure is not None, "no scatter chart on the page"
    return figure, figure.find("svg", class_="chart-svg")


def linear(first, last):
    """Pixel of a value on an axis whose first and last ticks are (value, pixel)."""
    (v0, p0), (v1, p1) = first, last
    return lambda value: p0 + (Decimal(value) - v0) / (v1 - v0) * (p1 - p0)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", WORKLOAD_KEYS)
def test_workload_page_plots_each_priced_gpu_of_its_table(client, launch_content, key, language):
    workload = Workload.objects.get(key=key)
    column = workload.columns.get(key=PLOTTED_COLUMN[key])
    label = getattr(column, f"label_{language}")
    price_label = getattr(workload.columns.get(spec="price_usd_per_hour"), f"label_{language}")
    body = client.get(workload.get_absolute_url(language)).content.decode()
    assert "style=" not in body
    document = parse(body)
    figure, svg = chart_of(document)
    header, *rows = document.find("table").table_rows()  # the workload's table comes first
    slugs = [row.gpu.slug for row in workload.rows.select_related("gpu")]
    table_rows = dict(zip(slugs, rows, strict=True))
    plotted = [slug for slug in slugs if CSV[slug]["price_usd_per_hour"] and expected_value(column, slug) is not None]
    left_out = [slug for slug in slugs if slug not in plotted]

    # A named image with a description, and a data table: the column's and the price's cells as in the
    # workload's table, in fewer columns than that table has.
    assert svg.attrs["role"] == "img"
    title_id, desc_id = svg.attrs["aria-labelledby"].split()
    with translation.override(language):
        title = gettext("“%(column)s” against price per GPU-hour") % {"column": label}
    assert svg.find("title", id=title_id).text == title
    assert figure.find("figcaption").find(class_="chart-title").text == title
    description = svg.find("desc", id=desc_id).squashed_text
    data_header, *data_rows = figure.find("table").table_rows()
    assert data_header[1:] == [label, data_header[2]] and len(data_header) == 3 != len(header)
    for slug, data_row in zip(plotted, data_rows, strict=True):
        name, row = CSV[slug]["name"], table_rows[slug]
        assert row[0].startswith(name)
        value_text, price_text = row[header.index(label)], row[header.index(price_label)]
        assert data_row == [name, value_text, price_text]
        assert f"{name}: {value_text}, {price_text}" in description

    # One mark per plotted GPU, in the table's order, where its price and value put it on the axes.
    circles = svg.find("g", class_="chart-point").find_all("circle")
    assert len(circles) == len(plotted)
    axis_x, axis_y = svg.find("g", class_="chart-axis").find_all("line")
    left, bottom, right = int(axis_x.attrs["x1"]), int(axis_x.attrs["y1"]), int(axis_x.attrs["x2"])
    top = int(axis_y.attrs["y1"])
    ticks = svg.find("g", class_="chart-tick").find_all("text")
    y_ticks = [numbers_in(t.text, language)[0] for t in ticks if t.attrs["text-anchor"] == "end"]
    x_ticks = [numbers_in(t.text, language)[0] for t in ticks if t.attrs["text-anchor"] == "middle"]
    assert y_ticks[0] == x_ticks[0] == 0
    x_of = linear((x_ticks[0], left), (x_ticks[-1], right))
    y_of = linear((y_ticks[0], bottom), (y_ticks[-1], top))
    for slug, circle in zip(plotted, circles, strict=True):
        assert abs(int(circle.attrs["cx"]) - x_of(CSV[slug]["price_usd_per_hour"])) <= Decimal("0.5")
        assert abs(int(circle.attrs["cy"]) - y_of(expected_value(column, slug))) <= Decimal("0.5")
    # Every plotted GPU is named by a label; every other one by the note under the chart.
    labels = [text.text for text in svg.find("g", class_="chart-label").find_all("text")]
    assert sorted(name for label in labels for name in label.split(", ")) == sorted(CSV[s]["name"] for s in plotted)
    note = figure.find("p", class_="chart-note")
    if left_out:
        with translation.override(language):
            gpus = ", ".join(gettext("%(gpu)s (no published figure)") % {"gpu": CSV[slug]["name"]} for slug in left_out)
            assert note.text == gettext("Not plotted: %(gpus)s.") % {"gpus": gpus}
    else:
        assert note is None


def test_the_scientific_chart_leaves_out_a_gpu_without_fp64_and_names_it(client, launch_content):
    gpu = GPU.objects.get(slug="b200")
    gpu.fp64_tflops = None
    gpu.save()  # the content version moves on
    workload = Workload.objects.get(key="scientific-computing")
    figure, _svg = chart_of(fetch(client, workload.get_absolute_url("es")))
    assert figure.find("p", class_="chart-note").text == "Sin representar: B200 (sin cifra publicada)."


def test_a_gpu_without_a_price_is_left_out_and_named(client, launch_content):
    GPU.objects.filter(slug="h100-sxm").update(price_usd_per_hour=None)
    GPU.objects.get(slug="h100-sxm").save()  # the content version moves on
    workload = Workload.objects.get(key="llm-training")
    figure, svg = chart_of(fetch(client, workload.get_absolute_url("de")))
    assert figure.find("p", class_="chart-note").text == "Nicht dargestellt: H100 SXM (kein Live-Preis)."
    assert len(svg.find_all("circle")) == workload.rows.count() - 1
    assert "H100 SXM" not in svg.find("desc").text


@pytest.mark.parametrize("language", LANGUAGES)
def test_launch_charts_label_every_mark_and_overlap_nothing(launch_content, language):
    content = workload_content()
    with translation.override(language):
        for workload in content.with_page_in(language):
            chart = workload_chart(workload)
            items = [(p.name, p.x_value, p.y_value) for p in chart.layout.points]
            assert_sound_scatter(chart.layout, items)
            assert sorted(n for label in chart.layout.labels for n in label.names) == sorted(n for n, _x, _y in items)


def test_chart_column_is_validated_and_chosen(launch_content):
    workload = Workload.objects.get(key="scientific-computing")
    for key in ("memory-type", "price", "no-such-column"):
        workload.chart_column = key
        with pytest.raises(ValidationError) as raised:
            workload.clean()
        assert "chart_column" in raised.value.message_dict
    workload.chart_column = "fp64-tensor"
    workload.clean()
    assert workload.plotted_column().key == "fp64-tensor"
    workload.chart_column = ""
    assert workload.plotted_column().key == "memory"  # no sizing column: the first quantity
    training = Workload.objects.get(key="llm-training")
    training.chart_column = ""
    assert training.plotted_column().key == "full-1gpu"  # the first "largest model that fits"
    assert {w.key: w.plotted_column().key for w in Workload.objects.all()} == PLOTTED_COLUMN


# 3. The GPU pages.


def value_in_file(row, field):
    """A GPU's figure as the rank chart places it: the published one, else the one derived from the vendor's system
    figure (B200/B300 bandwidth), else None."""
    text = row[field] or row.get(f"{field}_derived", "")
    return Decimal(text) if text else None


def rank_in_file(slug, field, more_is_better):
    values = published(field)
    own = value_in_file(CSV[slug], field)
    if own is None:
        return None, len(values)
    return 1 + sum(1 for value in values if (value > own if more_is_better else value < own)), len(values)


RANKED = [("memory_gb", True), ("bandwidth_gbs", True), ("price_usd_per_hour", False)]


def published(field):
    return [value for row in CSV.values() if (value := value_in_file(row, field)) is not None]


@pytest.mark.parametrize("language", LANGUAGES)
def test_gpu_page_ranks_match_the_gpu_table(client, launch_content, language):
    with translation.override(language):
        titles = [capfirst(gettext("memory")), capfirst(gettext("memory bandwidth")),
                  gettext("Price per GPU-hour, lower is better")]
        missing = gettext("Not published")
        rank_text = gettext("#%(rank)s of %(count)s")
    for slug in CSV:
        page = fetch(client, GPU.objects.get(slug=slug).get_absolute_url(language))
        figure = page.find("figure", class_="chart-rank")
        svg = figure.find("svg", class_="chart-svg")
        assert svg.attrs["role"] == "img"
        title_id, desc_id = svg.attrs["aria-labelledby"].split()
        assert CSV[slug]["name"] in svg.find("title", id=title_id).text
        description = svg.find("desc", id=desc_id).squashed_text
        header, *rows = figure.find("table").table_rows()
        assert len(rows) == 3 and header[1] == CSV[slug]["name"]
        for row, title, (field, more_is_better) in zip(rows, titles, RANKED, strict=True):
            rank, count = rank_in_file(slug, field, more_is_better)
            assert row[0] == title
            assert row[2] == (missing if rank is None else rank_text % {"rank": rank, "count": count})
            assert f"{title}: {row[1]}" in description
            values = published(field)
            assert numbers_in(row[3], language)[0] == min(values) and numbers_in(row[4], language)[0] == max(values)
        ranks = [t.text for t in svg.find_all("text", class_="chart-label-current") if t.attrs["text-anchor"] == "end"]
        assert ranks == [row[2] for row in rows]
        # A mark per GPU with a value on each strip, and this GPU's, where its value puts it between the ends.
        strips = svg.find_all("line", class_="chart-axis")
        marks = [group.find_all("circle") for group in svg.find_all("g", class_="chart-point")]
        assert [len(circles) for circles in marks] == [len(published(field)) for field, _more in RANKED]
        currents = iter(svg.find_all("circle", class_="chart-point-current"))
        for (field, _more), strip in zip(RANKED, strips, strict=True):
            own = value_in_file(CSV[slug], field)
            if own is None:
                continue
            current, values = next(currents), published(field)
            x1, x2 = int(strip.attrs["x1"]), int(strip.attrs["x2"])
            expected_x = x1 + (own - min(values)) / (max(values) - min(values)) * (x2 - x1)
            assert abs(int(current.attrs["cx"]) - expected_x) <= Decimal("0.5")
            assert current.attrs["cy"] == strip.attrs["y1"]
        assert next(currents, None) is None


def test_rank_text_has_no_english_ordinals(launch_content):
    gpus = list(GPU.objects.all())
    gpu = next(gpu for gpu in gpus if gpu.slug == "h100-sxm")
    for language, text in (("es", "n.º 8 de 15"), ("pt", "n.º 8 de 15"), ("de", "Platz 8 von 15"), ("en", "#8 of 15")):
        with translation.override(language):
            assert gpu_ranking(gpu, gpus).rankings[0].rank_text == text
    assert not re.search(r"\d(st|nd|rd|th)\b", str([r.rank_text for r in gpu_ranking(gpu, gpus).rankings]))


# 4. Queries do not grow with the number of GPUs.


def test_gpu_page_queries_do_not_grow_with_the_gpus(client, launch_content):
    url = GPU.objects.get(slug="h200").get_absolute_url("es")
    before = page_queries(client, url)
    add_test_gpus(40, listed_in=Workload.objects.get(key="llm-inference"))
    assert page_queries(client, url) == before
    _header, memory, *_rest = fetch(client, url).find("figure", class_="chart-rank").find("table").table_rows()
    assert memory[2] == f"n.º {1 + sum(1 for r in CSV.values() if Decimal(r['memory_gb']) > 141)} de 55"


def test_workload_page_queries_do_not_grow_with_the_gpus_and_the_chart_plots_them(client, launch_content):
    workload = Workload.objects.get(key="llm-inference")
    url = workload.get_absolute_url("pt")
    before = page_queries(client, url)
    add_test_gpus(40, listed_in=workload)
    assert page_queries(client, url) == before
    _figure, svg = chart_of(fetch(client, url))
    assert len(svg.find("g", class_="chart-point").find_all("circle")) == workload.rows.count()
