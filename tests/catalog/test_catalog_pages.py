"""The GPU catalogue and the page of each GPU: sorting and filtering against an independent computation from
gpus.csv, bad query values, every spec, the workload fits, the live price with its localized time, the nearest
alternatives by their stated rules; and what every new page shares: URLs, sitemap, header, one <h1>, a title
and a description in its language, and a query count that does not grow with the number of GPUs."""
import csv
import re
import tomllib
from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction
from urllib.parse import urlsplit

import pytest
from babel.dates import format_datetime
from django.urls import resolve
from django.utils import translation
from django.utils.translation import gettext

from catalog.loading import GPUS_CSV, TRANSLATIONS_TOML
from catalog.models import GPU
from core.formatting import format_date_time, format_number, format_share, format_usd
from workloads.models import Workload

from .. import factories
from ..html import fetch, parse
from ..languages import LANGUAGES
from ..localized_numbers import numbers_in
from ..localized_urls import url_in
from ..queries import add_test_gpus, page_queries

with open(GPUS_CSV, newline="", encoding="utf-8") as handle:
    CSV_ROWS = list(csv.DictReader(handle))
CSV = {row["slug"]: row for row in CSV_ROWS}
with open(TRANSLATIONS_TOML, "rb") as handle:
    DATA_TRANSLATIONS = tomllib.load(handle)
BABEL_LOCALES = {"es": "es_ES", "pt": "pt_BR", "de": "de_DE", "en": "en_US"}


def decimal_or_none(text):
    return Decimal(text) if text else None


# 1. The catalogue.


def catalogue_names(document):
    rows = document.find("table", class_="gpu-table").find("tbody").find_all("tr")
    return [row.find("a", class_="gpu-name").text for row in rows]


def expected_order(key, descending, rows=CSV_ROWS):
    """Names sorted by ``key`` (None last), the better first, ties by name."""
    present = [row for row in rows if key(row) is not None]
    missing = [row for row in rows if key(row) is None]
    present.sort(key=lambda row: (-key(row) if descending else key(row), row["name"]))
    return [row["name"] for row in present] + sorted(row["name"] for row in missing)


SORT_KEYS = {
    "memory": (lambda row: Decimal(row["memory_gb"]), True),
    # A figure derived from a system figure sorts with the published ones.
    "bandwidth": (lambda row: decimal_or_none(row["bandwidth_gbs"] or row["bandwidth_gbs_derived"]), True),
    "bf16": (lambda row: decimal_or_none(row["bf16_dense_tflops"] or row["bf16_dense_tflops_derived"]), True),
    "price": (lambda row: Decimal(row["price_usd_per_hour"]), False),
    "price-per-gb": (lambda row: Decimal(row["price_usd_per_hour"]) / Decimal(row["memory_gb"]), False),
}


def test_the_catalogue_lists_every_gpu_with_its_key_specs(client, launch_content):
    document = fetch(client, url_in("es", "catalog:gpu_list"))
    table = document.find("table", class_="gpu-table")
    header, *rows = table.table_rows()
    assert len(rows) == len(CSV_ROWS)
    # The launch prices are the only ones: no price has moved, so no column of changes (issue 44).
    assert len(header) == 7
    assert [th.attrs.get("scope") for th in table.find("thead").find_all("th")] == ["col"] * len(header)
    region = table.parent
    assert region.attrs["role"] == "region" and document.by_id(region.attrs["aria-labelledby"]) is not None
    for row in rows:
        gpu = next(r for r in CSV_ROWS if row[0].startswith(r["name"] + " "))
        _name, memory, memory_type, bandwidth, bf16, price, per_gb = row
        assert numbers_in(memory, "es") == [Decimal(gpu["memory_gb"])]
        assert memory_type == gpu["memory_type"]
        for cell, field in ((bandwidth, "bandwidth_gbs"), (bf16, "bf16_dense_tflops")):
            raw, derived = gpu[field], gpu[f"{field}_derived"]
            if raw:
                assert numbers_in(cell, "es") == [Decimal(raw)]
            elif derived:  # not published per GPU, the figure derived from the system's beside it
                with translation.override("es"):
                    assert cell.startswith(gettext("Not published per GPU") + " · ≈ ")
                assert numbers_in(cell.split("≈")[1], "es") == [Decimal(derived)]
            else:
                with translation.override("es"):
                    assert cell == gettext("Not published")
        assert numbers_in(price, "es") == [Decimal(gpu["price_usd_per_hour"])]
        per_gb_expected = (Decimal(gpu["price_usd_per_hour"]) / Decimal(gpu["memory_gb"])).quantize(Decimal("0.0001"))
        assert numbers_in(per_gb, "es") == [per_gb_expected]


@pytest.mark.parametrize("sort", list(SORT_KEYS))
def test_sorting_equals_an_independent_order(client, launch_content, sort):
    key, descending = SORT_KEYS[sort]
    document = fetch(client, url_in("en", "catalog:gpu_list", {"sort": sort}))
    assert catalogue_names(document) == expected_order(key, descending)
    sorted_headings = [th for th in document.find("thead").find_all("th") if "aria-sort" in th.attrs]
    assert len(sorted_headings) == 1
    assert sorted_headings[0].attrs["aria-sort"] == ("descending" if descending else "ascending")


def test_the_default_order_is_most_memory_first(client, launch_content):
    document = fetch(client, url_in("de", "catalog:gpu_list"))
    assert catalogue_names(document) == expected_order(*SORT_KEYS["memory"])


@pytest.mark.parametrize("query, expected", [
    ({"vendor": "AMD"}, lambda row: row["vendor"] == "AMD"),
    ({"min_memory": "80"}, lambda row: Decimal(row["memory_gb"]) >= 80),
    ({"min_memory": "96.5"}, lambda row: Decimal(row["memory_gb"]) >= Decimal("96.5")),
    ({"vendor": "NVIDIA", "min_memory": "100"},
     lambda row: row["vendor"] == "NVIDIA" and Decimal(row["memory_gb"]) >= 100),
    ({"vendor": "NVIDIA", "min_memory": "1000"}, lambda row: False),
])
def test_filters(client, launch_content, query, expected):
    document = fetch(client, url_in("en", "catalog:gpu_list", {**query, "sort": "price"}))
    rows = [row for row in CSV_ROWS if expected(row)]
    if rows:
        assert catalogue_names(document) == expected_order(*SORT_KEYS["price"], rows=rows)
    else:
        assert document.find("table", class_="gpu-table") is None
        assert gettext("No GPU matches these filters.") in document.text


def test_a_decimal_comma_is_read_in_spanish(client, launch_content):
    document = fetch(client, url_in("es", "catalog:gpu_list", {"min_memory": "95,5"}))
    assert set(catalogue_names(document)) == {
        row["name"] for row in CSV_ROWS if Decimal(row["memory_gb"]) >= Decimal("95.5")
    }


def test_sort_links_keep_the_filters(client, launch_content):
    document = fetch(client, url_in("en", "catalog:gpu_list", {"vendor": "NVIDIA", "min_memory": "48"}))
    links = [a.attrs["href"] for a in document.find("thead").find_all("a")]
    assert "?vendor=NVIDIA&min_memory=48&sort=price" in links
    assert "?vendor=NVIDIA&min_memory=48" in links  # the default order


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("query, field, message", [
    ({"sort": "colour"}, "sort", "There is no such order: sorted by memory."),
    ({"vendor": "Intel"}, "vendor", "No GPU in the catalogue is from “%(value)s”: showing every vendor."),
    ({"min_memory": "lots"}, "min_memory",
     "Enter the minimum memory as a number of GB, such as 80: showing every size."),
    ({"min_memory": "-5"}, "min_memory", "The minimum memory cannot be negative: showing every size."),
    ({"min_memory": "NaN"}, "min_memory",
     "Enter the minimum memory as a number of GB, such as 80: showing every size."),
])
def test_bad_values_are_reported_and_ignored(client, launch_content, language, query, field, message):
    document = fetch(client, url_in(language, "catalog:gpu_list", query))
    with translation.override(language):
        expected = gettext(message)
    if "%(value)s" in expected:
        expected %= {"value": query[field]}
    assert document.by_id(f"id_{field}_error").squashed_text == expected
    assert catalogue_names(document) == expected_order(*SORT_KEYS["memory"])


@pytest.mark.parametrize("query", ["sort=", "vendor=&min_memory=", "min_memory=" + "9" * 3000, "min_memory=1e999",
                                   "sort=price&sort=%00", "vendor[]=AMD", "min_memory=Infinity"])
def test_odd_queries_never_fail(client, launch_content, query):
    assert client.get(url_in("en", "catalog:gpu_list") + "?" + query).status_code == 200


def test_the_filters_are_a_labelled_get_form(client, launch_content):
    document = fetch(client, url_in("pt", "catalog:gpu_list", {"min_memory": "x"}))
    form = document.find("form", action=url_in("pt", "catalog:gpu_list"))
    assert form.attrs["method"] == "get" and form.find("fieldset").find("legend")
    visible_inputs = [field for field in form.find_all("input") if field.attrs.get("type") != "hidden"]
    for field in form.find_all("select") + visible_inputs:
        assert form.find("label", for_=field.attrs["id"]) is not None
    minimum = form.find("input", name="min_memory")
    assert minimum.attrs["inputmode"] == "decimal"
    assert "id_min_memory_error" in minimum.attrs["aria-describedby"].split()


# 2. A page per GPU.


SPEC_FIELDS = ["vendor", "architecture", "year", "memory_gb", "memory_type", "bandwidth_gbs", "bf16_dense_tflops",
               "fp8_dense_tflops", "fp32_tflops", "fp64_tflops", "fp64_tensor_tflops", "max_power_w", "form_factor",
               "interconnect", "interconnect_gbs", "rt_cores", "price_usd_per_hour"]
TEXT_FIELDS = {"vendor", "architecture", "memory_type", "form_factor", "interconnect", "year"}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", ["b300", "h100-sxm", "rtx-4090", "mi325x", "a100-pcie"])
def test_every_spec_with_units_and_not_published(client, launch_content, language, slug):
    document = fetch(client, url_in(language, "catalog:gpu_detail", slug=slug))
    row = CSV[slug]
    assert document.find("h1").text == f"{row['vendor']} {row['name']}"
    table = document.find("div", aria_labelledby="specs-heading").find("table")
    cells = [cells[1] for cells in table.table_rows()]
    assert len(cells) == len(SPEC_FIELDS)
    with translation.override(language):
        missing, not_supported = gettext("Not published"), gettext("not supported by this GPU")
        missing_per_gpu = gettext("Not published per GPU")
    for cell, field in zip(cells, SPEC_FIELDS, strict=True):
        raw, derived = row[field], row.get(f"{field}_derived")
        if raw == "" and derived:
            assert cell.startswith(missing_per_gpu + " · ≈ "), field
            assert numbers_in(cell.split("≈")[1], language) == [Decimal(derived)], field
        elif raw == "":
            assert cell == missing, field
        elif raw == "n/a":
            assert cell == "—" + not_supported, field
        elif field in TEXT_FIELDS:  # words in the page's language, as the launch data translates them
            assert cell == DATA_TRANSLATIONS.get(raw, {}).get(language, raw), field
        elif field == "rt_cores":
            assert numbers_in(cell, language) == [Decimal(n) for n in re.findall(r"\d+", raw)]
        else:
            assert numbers_in(cell, language) == [Decimal(raw)], field
    units = {"memory_gb": "GB", "bandwidth_gbs": "GB/s", "bf16_dense_tflops": "TFLOPS", "max_power_w": "W"}
    for field, unit in units.items():
        cell = cells[SPEC_FIELDS.index(field)]
        assert cell == missing or cell.endswith(" " + unit) or f" {unit}, " in cell, (field, cell)


def test_unknown_gpus_get_a_localized_404(client, launch_content):
    response = client.get(url_in("de", "catalog:gpu_detail", slug="no-such-gpu"))
    assert response.status_code == 404
    assert parse(response.content).find("h1").text == "Seite nicht gefunden"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_live_price_with_its_localized_time(client, launch_content, language):
    moment = datetime(2026, 11, 30, 14, 5, 9, tzinfo=UTC)
    gpu = GPU.objects.get(slug="h200")
    gpu.price_updated_at, gpu.price_source = moment, "import"  # an imported price says when it was updated
    gpu.save()
    document = fetch(client, url_in(language, "catalog:gpu_detail", slug="h200"))
    section = document.find("section", aria_labelledby="price-heading")
    assert numbers_in(section.find("p", class_="price").text, language) == [Decimal("4.19")]
    time = section.find("time")
    assert time.attrs["datetime"] == "2026-11-30T14:05:09+00:00"
    assert time.text == format_datetime(moment, "long", tzinfo=UTC, locale=BABEL_LOCALES[language])


def test_a_gpu_without_a_live_price(client, launch_content):
    GPU.objects.filter(slug="l40s").update(price_usd_per_hour=None)
    document = fetch(client, url_in("en", "catalog:gpu_detail", slug="l40s"))
    assert gettext("No live offer for this GPU right now.") in document.text
    assert document.find("time") is None


@pytest.mark.parametrize("language", ["es", "de"])
@pytest.mark.parametrize("slug", ["h100-sxm", "rtx-4090", "mi300x"])
def test_its_fits_equal_its_row_in_each_workload_table(client, launch_content, language, slug):
    document = fetch(client, url_in(language, "catalog:gpu_detail", slug=slug))
    workloads = [w for w in Workload.objects.filter(is_published=True, rows__gpu__slug=slug)
                 if language in w.page_languages()]
    assert workloads
    for workload in workloads:
        heading = document.by_id(f"fits-{workload.key}")
        assert heading.find("a").attrs["href"] == workload.get_absolute_url(language)
        fits = [
            row[1] for row in document.find("div", aria_labelledby=f"fits-{workload.key}").find("table").table_rows()
        ]
        workload_page = fetch(client, workload.get_absolute_url(language))
        table = workload_page.find("table", class_="gpu-table")
        row = next(cells for cells in table.table_rows()[1:] if cells[0].startswith(CSV[slug]["name"] + " "))
        assert fits == row[1:]


def cheaper(slug):
    own = CSV[slug]
    candidates = [row for row in CSV_ROWS if row["slug"] != slug
                  and Decimal(row["price_usd_per_hour"]) < Decimal(own["price_usd_per_hour"])]
    return min(candidates, key=lambda row: (-Decimal(row["price_usd_per_hour"]), -Decimal(row["memory_gb"]),
                                            row["name"]), default=None)


def bf16_of(row):
    """Dense BF16 as published, else as derived from the system figure (B200, B300)."""
    return decimal_or_none(row["bf16_dense_tflops"] or row["bf16_dense_tflops_derived"])


def faster(slug):
    own = bf16_of(CSV[slug])
    if own is None:
        return None
    candidates = [row for row in CSV_ROWS if bf16_of(row) is not None and bf16_of(row) > own]
    return min(candidates, key=lambda row: (Decimal(row["price_usd_per_hour"]), -bf16_of(row), row["name"]),
               default=None)


def more_memory(slug):
    own = CSV[slug]
    candidates = [row for row in CSV_ROWS if Decimal(row["memory_gb"]) > Decimal(own["memory_gb"])]
    return min(candidates, key=lambda row: (Decimal(row["price_usd_per_hour"]), -Decimal(row["memory_gb"]),
                                            row["name"]), default=None)


@pytest.mark.parametrize("slug", list(CSV))
def test_the_nearest_alternatives_follow_their_rules(client, launch_content, slug):
    document = fetch(client, url_in("en", "catalog:gpu_detail", slug=slug))
    alternatives = document.find_all("div", class_="alternative")
    assert len(alternatives) == 3
    for block, rule in zip(alternatives, (cheaper, faster, more_memory), strict=True):
        expected = rule(slug)
        link = block.find("h3").find("a")
        if expected is None:
            assert link is None
        else:
            assert link.attrs["href"] == url_in("en", "catalog:gpu_detail", slug=expected["slug"])
            assert link.text == expected["name"]
        assert block.find("p", class_="rule").text.strip()  # the rule is written on the page
    own_price = Decimal(CSV[slug]["price_usd_per_hour"])
    found = cheaper(slug)
    if found:
        reason = alternatives[0].find("p").text
        assert numbers_in(reason, "en")[:3] == [own_price - Decimal(found["price_usd_per_hour"]),
                                                  Decimal(found["price_usd_per_hour"]), own_price]


def test_the_cheapest_gpu_has_no_cheaper_alternative_and_the_largest_no_more_memory(client, launch_content):
    cheapest = fetch(client, url_in("en", "catalog:gpu_detail", slug="rtx-a6000"))
    assert gettext("No GPU in the catalogue costs less per hour.") in cheapest.text
    largest = fetch(client, url_in("en", "catalog:gpu_detail", slug="b300"))
    assert gettext("No GPU in the catalogue with a live price has more memory.") in largest.text
    # Its BF16 is derived from the HGX board's figure (2,250 TFLOPS, as the B200's): none is faster.
    assert gettext("No GPU in the catalogue with a live price has more dense BF16 throughput.") in largest.text


# 3. What every new page shares.


def new_pages(language):
    return [url_in(language, "catalog:gpu_list"), url_in(language, "catalog:compare"),
            url_in(language, "estimator:calculator"),
            *(url_in(language, "catalog:gpu_detail", slug=slug) for slug in CSV),
            url_in(language, "catalog:compare", [("gpu", "a100-sxm"), ("gpu", "h100-sxm")]),
            url_in(language, "estimator:calculator", {"size": "7", "method": "full_adam"})]


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_h1_a_title_and_a_description_in_the_pages_language(client, launch_content, language):
    for address in new_pages(language):
        body = client.get(address).content.decode()
        document = parse(body)
        assert document.find("html").attrs["lang"] == language, address
        assert len(document.find_all("h1")) == 1, address
        assert document.find("title").text.strip(), address
        assert document.find("meta", name="description").attrs["content"].strip(), address
        assert "style=" not in body and "<style" not in body, address
        for script in document.find_all("script"):
            assert script.attrs.get("src") or script.attrs.get("type") == "application/ld+json" or script.attrs.get(
                "nonce"), address
    with translation.override(language):
        titles = {
            url_in(language, "catalog:gpu_list"): gettext("All GPU models: specs and prices"),
            url_in(language, "catalog:compare"): gettext("Compare GPUs"),
            url_in(language, "estimator:calculator"):
                gettext("GPU sizing calculator: how many GPUs does your model need?"),
        }
    for address, title in titles.items():
        assert fetch(client, address).find("title").text.startswith(title)


def test_the_sitemap_lists_every_new_page_in_every_language(client, launch_content):
    body = client.get("/sitemap.xml").content.decode()
    locations = {urlsplit(loc).path for loc in re.findall(r"<loc>([^<]+)</loc>", body)}
    for language in LANGUAGES:
        expected = {url_in(language, "catalog:gpu_list"), url_in(language, "catalog:compare"),
                    url_in(language, "estimator:calculator")}
        expected |= {url_in(language, "catalog:gpu_detail", slug=slug) for slug in CSV}
        assert expected <= locations, expected - locations


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_header_links_the_catalogue_and_the_calculator(client, launch_content, language):
    document = fetch(client, url_in(language, "home"))
    header_links = [a.attrs["href"] for a in document.find("header").find_all("a")]
    assert url_in(language, "catalog:gpu_list") in header_links
    assert url_in(language, "estimator:calculator") in header_links
    current = fetch(client, url_in(language, "estimator:calculator")).find("header").find("a", aria_current="page")
    assert current.attrs["href"] == url_in(language, "estimator:calculator")


def test_the_workload_pages_link_all_gpu_models_in_their_language(client, launch_content):
    for workload in Workload.objects.filter(is_published=True):
        for language in workload.page_languages():
            document = fetch(client, workload.get_absolute_url(language))
            with translation.override(language):
                text = gettext("All GPU models")
            link = next(a for a in document.find("main").find_all("a") if a.text == text)
            assert link.attrs["href"] == url_in(language, "catalog:gpu_list")


def test_the_language_switcher_keeps_the_catalogues_query(client, launch_content):
    document = fetch(client, url_in("es", "catalog:gpu_list", {"vendor": "AMD", "sort": "price"}))
    switcher = document.find(class_="language-switcher")
    assert switcher.find("a", hreflang="en").attrs["href"] == url_in(
        "en", "catalog:gpu_list", {"vendor": "AMD", "sort": "price"}
    )
    canonical = document.find("link", rel="canonical").attrs["href"]
    assert canonical.endswith(url_in("es", "catalog:gpu_list", {"vendor": "AMD", "sort": "price"}))


def test_catalog_paths_and_workload_slugs_do_not_collide(client, launch_content):
    for language in LANGUAGES:
        with translation.override(language):
            for address in new_pages(language):
                assert resolve(urlsplit(address).path).namespace in ("catalog", "estimator"), address
            for workload in Workload.objects.filter(is_published=True):
                if language in workload.page_languages():
                    assert resolve(workload.get_absolute_url(language)).url_name == "workload"


def test_gpus_link_to_their_page_in_every_language(db):
    gpu = GPU(slug="h100-sxm", name="H100 SXM")
    assert gpu.page_languages() == list(LANGUAGES)
    assert {code: gpu.get_absolute_url(code) for code in LANGUAGES} == {
        code: url_in(code, "catalog:gpu_detail", slug="h100-sxm") for code in LANGUAGES}



@pytest.mark.parametrize("address", [
    url_in("es", "catalog:gpu_list"), url_in("es", "catalog:gpu_list", {"vendor": "Test", "sort": "price-per-gb"}),
    url_in("es", "catalog:gpu_detail", slug="h100-sxm"),
], ids=["catalogue", "catalogue-filtered", "gpu-page"])
def test_queries_do_not_grow_with_the_number_of_gpus(client, launch_content, address):
    # One GPU of the filtered vendor first, so the filtered page has rows before and after.
    factories.gpu(vendor="Test", memory_gb=Decimal(8), price_usd_per_hour=Decimal("0.10"))
    before = page_queries(client, address)
    add_test_gpus(40, listed_in=Workload.objects.get(key="llm-training"))
    assert page_queries(client, address) == before
    assert before <= 6, before


# 4. The formatting helpers the pages use.


@pytest.mark.parametrize("language, expected", [
    ("es", "30 de noviembre de 2026, 14:05:09 UTC"), ("pt", "30 de novembro de 2026 14:05:09 UTC"),
    ("de", "30. November 2026, 14:05:09 UTC"), ("en", "November 30, 2026, 2:05:09\u202fPM UTC"),
])
def test_format_date_time(language, expected):
    with translation.override(language):
        assert format_date_time(datetime(2026, 11, 30, 14, 5, 9, tzinfo=UTC)) == expected


@pytest.mark.parametrize("language, amount, places, expected", [
    ("es", Decimal("2.88"), 2, "2,88\xa0US$"), ("pt", Decimal("2.88"), 2, "US$\xa02,88"),
    ("de", Decimal("2.88"), 2, "2,88\xa0$"), ("en", Decimal("2.88"), 2, "$2.88"),
    ("es", Decimal("1234.5"), 2, "1234,50\xa0US$"), ("es", Decimal("12345.6"), 2, "12.345,60\xa0US$"),
    ("en", Decimal("0.036"), 4, "$0.0360"), ("de", Decimal("8.99") / 288, 4, "0,0312\xa0$"),
])
def test_format_usd(language, amount, places, expected):
    with translation.override(language):
        assert format_usd(amount, places) == expected


@pytest.mark.parametrize("language, expected", [("es", "80\xa0%"), ("pt", "80%"), ("de", "80\xa0%"), ("en", "80%")])
def test_format_share(language, expected):
    with translation.override(language):
        assert format_share(Fraction(4, 5)) == expected


@pytest.mark.parametrize("language, value, expected", [
    ("es", Decimal("1.095"), "1,10"), ("en", Decimal("343.4027"), "343.4"), ("es", Decimal("1234.5"), "1234,5"),
    ("es", Decimal("12345.5"), "12.345,5"), ("de", Decimal(2), "2,00"),
])
def test_format_number_with_fixed_places(language, value, expected):
    places = len(expected.split("," if language != "en" else ".")[1])
    with translation.override(language):
        assert format_number(value, places) == expected
