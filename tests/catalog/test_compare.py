"""The comparison: a GET form for two to four GPUs, a canonical URL, specs and fits side by side with the
best value marked in text too, accessible server-rendered SVG charts with a data table, the workload
pages' "Compare GPUs for …" preset, and the charts' geometry."""
import csv
import re
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext

from catalog.loading import GPUS_CSV
from catalog.sizing_methods import SIZING_METHODS, method_label
from charts import bar_chart as charts
from workloads.models import Workload, WorkloadColumn

from ..expected_sizing import USABLE_SHARE, step_floor
from ..html import fetch, parse
from ..languages import LANGUAGES
from ..localized_numbers import SEPARATORS
from ..localized_urls import url_in
from ..queries import add_test_gpus, page_queries

with open(GPUS_CSV, newline="", encoding="utf-8") as handle:
    CSV = {row["slug"]: row for row in csv.DictReader(handle)}


def compare_url(language, *gpus, **params):
    return url_in(language, "catalog:compare", [("gpu", slug) for slug in gpus] + list(params.items()))



def number(text, language):
    thousands, decimal = SEPARATORS[language]
    digits = "".join(ch for ch in text if ch.isdigit() or ch in ".,").strip(".,")
    return Decimal(digits.replace(thousands, "").replace(decimal, "."))


# 1. The form and the canonical URL.


def test_the_bare_page_is_a_form_of_every_gpu(client, launch_content):
    document = fetch(client, compare_url("es"))
    form = document.find("form", action=compare_url("es"))
    assert form.attrs["method"] == "get"
    boxes = form.find_all("input", type="checkbox")
    assert sorted(box.attrs["value"] for box in boxes) == sorted(CSV)
    assert all(box.attrs["name"] == "gpu" for box in boxes)
    assert form.find("fieldset").find("legend") is not None
    assert document.find("main").find("svg") is None


@pytest.mark.parametrize("order", [("h200", "a100-sxm", "h100-sxm"), ("h100-sxm", "h200", "a100-sxm", "h200")])
def test_the_canonical_url_has_the_gpus_in_slug_order(client, launch_content, order):
    document = fetch(client, compare_url("en", *order))
    canonical = document.find("link", rel="canonical").attrs["href"]
    assert parse_qsl(urlsplit(canonical).query) == [("gpu", "a100-sxm"), ("gpu", "h100-sxm"), ("gpu", "h200")]
    assert urlsplit(canonical).path == compare_url("en")
    table = document.find("table", class_="comparison-table")
    assert table.table_rows()[0][1:] == ["A100 SXM", "H100 SXM", "H200"]
    # The same comparison in any order is the same page.
    assert fetch(client, canonical.removeprefix(settings.SITE_URL)).find("h1").text == document.find("h1").text


def test_the_language_switcher_and_hreflang_keep_the_comparison(client, launch_content):
    document = fetch(client, compare_url("es", "h100-sxm", "a100-sxm"))
    query = "?gpu=a100-sxm&gpu=h100-sxm"
    for language in ("pt", "de", "en"):
        link = document.find("link", rel="alternate", hreflang=language).attrs["href"]
        assert link.endswith(compare_url(language) + query)
    switcher = document.find(class_="language-switcher")
    assert switcher.find("a", hreflang="de").attrs["href"] == compare_url("de") + query


def test_the_chosen_gpus_stay_checked(client, launch_content):
    document = fetch(client, compare_url("en", "h100-sxm", "a100-sxm"))
    checked = {box.attrs["value"] for box in document.find_all("input", type="checkbox") if "checked" in box.attrs}
    assert checked == {"h100-sxm", "a100-sxm"}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("gpus, params, field, message", [
    (("h100-sxm",), {}, "gpu", "Choose two to four GPUs."),
    (("h100-sxm", "a100-sxm", "h200", "b200", "b300"), {}, "gpu", "Choose two to four GPUs."),
    (("h100-sxm", "no-such-gpu"), {}, "gpu", "There is no GPU “%(value)s” in the catalogue."),
    (("h100-sxm", "a100-sxm"), {"workload": "mining"}, "workload", "There is no workload “%(value)s”."),
    ((), {"workload": "mining"}, "gpu", "Choose two to four GPUs."),
    (("h100-sxm", "h100-sxm"), {}, "gpu", "Choose two to four GPUs."),
])
def test_bad_choices_get_a_localized_message(client, launch_content, language, gpus, params, field, message):
    response = client.get(compare_url(language, *gpus, **params))
    assert response.status_code == 200
    document = parse(response.content)
    errors = document.by_id(f"id_{field}_error")
    assert errors is not None
    with translation.override(language):
        expected = gettext(message)
    if "%(value)s" in message:
        expected %= {"value": "no-such-gpu" if "no-such-gpu" in gpus else params["workload"]}
    assert errors.squashed_text == expected
    assert document.find("main").find("svg") is None


@pytest.mark.parametrize("query", ["gpu=", "gpu=%00&gpu=x", "workload=&gpu=a100-sxm&gpu=h200&foo=bar",
                                   "gpu=" + "x" * 3000 + "&gpu=h200", "gpu[]=h200"])
def test_odd_queries_never_fail(client, launch_content, query):
    assert client.get(compare_url("en") + "?" + query).status_code == 200


# 2. Specs and fits side by side, the best value marked in text.


def rows_by_label(table):
    header, *rows = table.table_rows()
    return header, {row[0]: row[1:] for row in rows}


def test_the_best_value_of_each_row_is_marked_with_text(client, launch_content):
    document = fetch(client, compare_url("en", "h100-sxm", "a100-sxm"))
    hidden = gettext("(best of these GPUs)")
    table = document.find("table", class_="comparison-table")
    header, rows = rows_by_label(table)
    assert header[1:] == ["A100 SXM", "H100 SXM"]
    assert rows["BF16 tensor"] == ["312 TFLOPS", f"989 TFLOPS ✓{hidden}"]
    assert rows["Price"] == [f"from $1.79 ✓{hidden}", "from $2.88"]
    assert rows["Memory"] == ["80 GB", "80 GB"]  # a tie marks nothing
    assert rows["Vendor"] == ["NVIDIA", "NVIDIA"]
    best = [cell for cell in table.find_all("td") if "best" in cell.classes]
    assert best and all(cell.find("span", class_="visually-hidden").text == hidden for cell in best)
    assert all(cell.find("span", class_="best-mark").attrs["aria-hidden"] == "true" for cell in best)


def test_every_spec_is_compared_with_not_published_where_missing(client, launch_content):
    document = fetch(client, compare_url("de", "b300", "rtx-4090"))
    header, rows = rows_by_label(document.find("table", class_="comparison-table"))
    assert header[1:] == ["B300", "RTX 4090"]
    with translation.override("de"):
        missing, missing_per_gpu = gettext("Not published"), gettext("Not published per GPU")
    specs = ["vendor", "architecture", "year", "memory_gb", "memory_type", "bandwidth_gbs", "bf16_dense_tflops",
             "fp8_dense_tflops", "fp32_tflops", "fp64_tflops", "fp64_tensor_tflops", "max_power_w", "form_factor",
             "interconnect", "interconnect_gbs", "rt_cores", "price_usd_per_hour"]
    assert len(rows) == len(specs)
    for column, slug in enumerate(["b300", "rtx-4090"]):
        # Not published at all, or not published per GPU with the figure derived from the system's beside it.
        derived = {spec for spec in specs if CSV[slug][spec] == "" and CSV[slug].get(f"{spec}_derived")}
        shown_missing = sum(cells[column] == missing for cells in rows.values())
        assert shown_missing == sum(CSV[slug][spec] == "" for spec in specs) - len(derived), slug
        shown_derived = sum(cells[column].startswith(missing_per_gpu + " · ≈ ") for cells in rows.values())
        assert shown_derived == len(derived), slug
        shown_not_supported = sum(cells[column].startswith("—") for cells in rows.values())
        assert shown_not_supported == sum(CSV[slug][spec] == "n/a" for spec in specs), slug


@pytest.mark.parametrize("language", ["es", "en"])
def test_fits_equal_an_independent_computation(client, launch_content, language):
    document = fetch(client, compare_url(language, "h200", "rtx-4090", "mi300x"))
    tables = document.find_all("table", class_="comparison-table")
    header, *rows = tables[1].table_rows()
    slugs = ["h200", "mi300x", "rtx-4090"]
    assert header[1:] == [CSV[slug]["name"] for slug in slugs]
    expected = [(Decimal(16), 1), (Decimal("2.5"), 1), (Decimal(1), 1), (Decimal(2), 1), (Decimal(1), 1),
                (Decimal("0.5"), 1), (Decimal(16), 8)]
    assert len(rows) == len(expected)
    for row, (bytes_per_parameter, count) in zip(rows, expected, strict=True):
        for cell, slug in zip(row[1:], slugs, strict=True):
            want = step_floor(count * Decimal(CSV[slug]["memory_gb"]) * USABLE_SHARE / bytes_per_parameter)
            assert number(cell.split("✓")[0], language) == want, (row[0], slug)
    # A row names its method as a workload column's choice in the admin does, then the number of GPUs.
    with translation.override(language):
        names = [capfirst(method_label(method)) for method in SIZING_METHODS]
    eight = "8 GPUs" if language == "en" else "8 GPU"
    assert [row[0] for row in rows] == [f"{name}, 1 GPU" for name in names] + [f"{names[0]}, {eight}"]


def test_a_workloads_link_presets_its_first_four_gpus_and_its_columns(client, launch_content):
    workload = Workload.objects.get(key="fine-tuning")
    workload_page = fetch(client, workload.get_absolute_url("es"))
    link = next(a for a in workload_page.find_all("a") if a.squashed_text == workload.compare_label_es)
    assert link.attrs["href"] == compare_url("es", workload="fine-tuning")
    document = fetch(client, link.attrs["href"])
    first_four = [row.gpu.slug for row in workload.rows.select_related("gpu")[:4]]
    checked = [box.attrs["value"] for box in document.find_all("input", type="checkbox") if "checked" in box.attrs]
    assert sorted(checked) == sorted(first_four)
    assert "selected" in document.find("select", name="workload").find("option", value="fine-tuning").attrs
    canonical = document.find("link", rel="canonical").attrs["href"]
    assert parse_qsl(urlsplit(canonical).query) == [("gpu", slug) for slug in sorted(first_four)] + [
        ("workload", "fine-tuning")]
    fits = document.find_all("table", class_="comparison-table")[1]
    labels = [row[0] for row in fits.table_rows()[1:]]
    sizing_columns = [column.label_es for column in workload.columns.all() if column.kind != WorkloadColumn.Kind.SPEC]
    assert labels[:len(sizing_columns)] == sizing_columns
    # The workload's columns replace the defaults they repeat (LoRA and QLoRA on one GPU): the defaults are
    # every method on one GPU and full training on eight.
    assert len(labels) == len(sizing_columns) + len(SIZING_METHODS) + 1 - 2


def test_every_workload_page_links_its_comparison(client, launch_content):
    for workload in Workload.objects.filter(is_published=True):
        for language in workload.page_languages():
            document = fetch(client, workload.get_absolute_url(language))
            hrefs = [a.attrs["href"] for a in document.find_all("a")]
            assert compare_url(language, workload=workload.key) in hrefs
            assert client.get(compare_url(language, workload=workload.key)).status_code == 200


# 3. The charts.


def chart_values(slug):
    row = CSV[slug]
    price, memory = Decimal(row["price_usd_per_hour"]), Decimal(row["memory_gb"])
    # Dense BF16 as published, else as derived from the system figure (the chart marks it).
    tflops = row["bf16_dense_tflops"] or row["bf16_dense_tflops_derived"]
    bf16 = Decimal(tflops) / price if tflops else None
    trainable = step_floor(8 * memory * USABLE_SHARE / 16) / (8 * price)
    return [price, memory, bf16, trainable]


@pytest.mark.parametrize("language", LANGUAGES)
def test_four_accessible_charts_with_a_data_table(client, launch_content, language):
    slugs = ["a100-sxm", "b200", "h100-sxm", "rtx-4090"]
    body = client.get(compare_url(language, *slugs)).content.decode()
    assert "style=" not in body
    document = parse(body)
    svgs = document.find_all("svg", class_="bar-chart")
    assert len(svgs) == 4
    with translation.override(language):
        titles = [gettext("Price per GPU-hour, US dollars"), gettext("Memory per GPU, GB"),
                  gettext("Dense BF16 TFLOPS per US dollar per hour"),
                  gettext("Largest trainable model, billions of parameters per US dollar per hour")]
        definition = gettext("Largest trainable model per dollar: the largest model that full training with Adam in "
                             "mixed precision (%(bytes)s bytes per parameter) fits on %(gpus)s of these GPUs, counting "
                             "%(share)s of their memory and rounded down as in the tables, in billions of parameters, "
                             "divided by the price of those %(gpus)s GPUs for one hour in US dollars.")
    for svg, title in zip(svgs, titles, strict=True):
        assert svg.attrs["role"] == "img"
        title_id, desc_id = svg.attrs["aria-labelledby"].split()
        assert svg.find("title", id=title_id).text == title
        description = svg.find("desc", id=desc_id).text
        for slug in slugs:
            assert CSV[slug]["name"] in description
    assert re.split(r"%\(\w+\)s", definition)[0] in document.text
    data = document.find("div", role="region", aria_labelledby="chart-data-heading").find("table")
    header, *rows = data.table_rows()
    assert header[1:] == titles
    with translation.override(language):
        missing, derived = gettext("Not published"), gettext("≈ %(value)s (derived)")
    for row, slug in zip(rows, slugs, strict=True):
        assert row[0] == CSV[slug]["name"]
        price, memory, bf16, trainable = chart_values(slug)
        assert number(row[1], language) == price
        assert number(row[2], language) == memory
        if bf16 is None:
            assert row[3] == missing
        elif not CSV[slug]["bf16_dense_tflops"]:
            prefix, suffix = derived.split("%(value)s")
            assert row[3].startswith(prefix) and row[3].endswith(suffix)
            assert number(row[3], language) == bf16.quantize(Decimal("0.1"), ROUND_HALF_EVEN)
        else:
            assert number(row[3], language) == bf16.quantize(Decimal("0.1"), ROUND_HALF_EVEN)
        assert number(row[4], language) == trainable.quantize(Decimal("0.01"), ROUND_HALF_EVEN)


def test_bars_are_proportional_and_the_missing_have_none(client, launch_content):
    slugs = ["a100-sxm", "b200", "h100-sxm", "rtx-4090"]
    document = fetch(client, compare_url("en", *slugs))
    for index, svg in enumerate(document.find_all("svg", class_="bar-chart")):
        values = [chart_values(slug)[index] for slug in slugs]
        widths = [int(rect.attrs["width"]) for rect in svg.find_all("rect")]
        present = [value for value in values if value is not None]
        assert len(widths) == len(present)
        largest = max(present)
        for width, value in zip(widths, present, strict=True):
            assert abs(Decimal(width) - value / largest * charts.PLOT_WIDTH) <= Decimal("0.5")
        assert max(widths) == charts.PLOT_WIDTH


def test_chart_geometry_alone():
    layout = charts.bar_chart([("A", Decimal(2), "2"), ("B", None, "n/a"), ("C", 4, "4"), ("D", Fraction(1, 1000), "")])
    a, b, c, d = layout.bars
    assert (c.length, a.length, b.length) == (charts.PLOT_WIDTH, charts.PLOT_WIDTH // 2, 0)
    assert d.length == 1  # tiny but visible
    assert not b.has_value and a.has_value
    row = charts.LABEL_HEIGHT + charts.BAR_HEIGHT + charts.ROW_GAP
    assert [bar.bar_y - bar.label_y for bar in layout.bars] == [charts.LABEL_HEIGHT - charts.TEXT_BASELINE] * 4
    assert [bar.bar_y for bar in layout.bars] == [charts.PADDING + i * row + charts.LABEL_HEIGHT for i in range(4)]
    assert layout.height == 2 * charts.PADDING + 4 * row - charts.ROW_GAP
    # The last bar ends above the bottom padding; values start right after their bar and fit the width.
    assert d.bar_y + charts.BAR_HEIGHT == layout.height - charts.PADDING
    assert c.value_x == charts.PLOT_WIDTH + charts.GAP_BEFORE_VALUE < charts.WIDTH
    assert all(isinstance(n, int) for bar in layout.bars for n in (bar.label_y, bar.bar_y, bar.length, bar.value_x))
    assert charts.bar_chart([("A", None, "n/a")]).bars[0].length == 0
    assert charts.bar_chart([]).height == 2 * charts.PADDING
    with pytest.raises(TypeError):
        charts.bar_chart([("A", 1.5, "1.5")])


# 4. Queries.



@pytest.mark.parametrize("url", [
    compare_url("es"), compare_url("es", "h100-sxm", "a100-sxm", "h200"), compare_url("es", workload="llm-training"),
], ids=["form", "three-gpus", "workload"])
def test_queries_do_not_grow_with_the_number_of_gpus(client, launch_content, url):
    before = page_queries(client, url)
    add_test_gpus(40, listed_in=Workload.objects.get(key="llm-training"))
    assert page_queries(client, url) == before
    assert before <= 8, before
