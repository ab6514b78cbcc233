"""The open data feed: /data/gpus.json and /data/gpus.csv (every GPU with its specs in their three states, its
price and the largest model per sizing method on 1 and 8 GPUs), each GPU's /data/gpus/<slug>/prices.json, their
JSON Schemas, and the page that documents them in every language.

The JSON validates against the schema it names (fetched from the site), and its numbers are the pages' numbers:
each figure is formatted as the pages format it and compared with the GPU page's cell."""
import csv
import io
import json
import re
import tempfile
import threading
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connections
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from caching.content_version import bump_content_version
from caching.shared import shared_cache
from catalog import gpu_tables
from catalog.columns import LargestModelColumn
from catalog.models import GPU, PricePoint
from catalog.sizing_methods import SIZING_METHODS
from catalog.specs import NOT_SUPPORTED_MARK, SPECS, spec_label
from core.csv_cells import spreadsheet_safe
from core.formatting import format_model_size, format_price_per_hour, format_quantity, not_published
from open_data import document, http
from open_data.document import GPU_COUNTS
from prices.price_import import import_prices

from .. import factories
from ..feed_files import fetch_json, validate_against_its_schema
from ..html import Head, Page, parse
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..queries import add_test_gpus, page_queries
from ..servers import DATABASE_CACHE as SERVERS_CACHE
from ..servers import MEMORY_CACHE, gunicorn_server
from ..sitemap import sitemap_paths

GPUS_JSON, GPUS_CSV = "/data/gpus.json", "/data/gpus.csv"
# What a browser sends with a script's request to another site.
ELSEWHERE = {"Origin": "https://example.org"}
FEED_SPECS = [spec for spec in SPECS if spec.key != "price_usd_per_hour"]


def gpus_by_slug(data):
    return {entry["slug"]: entry for entry in data["gpus"]}


# 1. The files and their schemas.


def test_the_gpu_file_validates_against_its_schema_and_lists_every_gpu(client, launch_content):
    data = fetch_json(client, GPUS_JSON)
    schema = validate_against_its_schema(client, data)
    # 1.1 added derived_specs, derived_source and price_source; 1.2 the price history's price_at_since.
    assert data["schema_version"] == "1.2"
    assert "CC BY 4.0" in data["licence"] and "EverXCloud" in data["licence"]
    assert [entry["slug"] for entry in data["gpus"]] == list(GPU.objects.values_list("slug", flat=True))
    newest = max(GPU.objects.exclude(price_updated_at=None).values_list("price_updated_at", flat=True))
    assert data["updated_at"] == newest.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    # The schema refuses what the documentation says cannot be: a state that is none of the three.
    broken = json.loads(json.dumps(data, default=str))
    broken["gpus"][0]["specs"]["memory_gb"] = {"state": "unknown"}
    with pytest.raises(ValidationError):
        Draft202012Validator(schema).validate(broken)


def test_numbers_are_exact_decimals_equal_to_the_stored_ones(client, launch_content):
    data = gpus_by_slug(fetch_json(client, GPUS_JSON))
    for gpu in GPU.objects.all():
        entry = data[gpu.slug]
        for spec in FEED_SPECS:
            stored = getattr(gpu, spec.key)
            if entry["specs"][spec.key]["state"] == "published":
                assert entry["specs"][spec.key]["value"] == stored, (gpu.slug, spec.key)
        assert entry["price_usd_per_hour"] == gpu.price_usd_per_hour
    # Written in decimal notation as stored, never through a float.
    body = client.get(GPUS_JSON).content.decode()
    mi300x = GPU.objects.get(slug="mi300x")
    assert f'"value": {mi300x.fp32_tflops}' in body and f'"value": {mi300x.fp64_tflops}' in body


def test_the_three_states_of_a_spec(client, launch_content):
    """B200: ray-tracing cores not supported (n/a in gpus.csv), memory bandwidth not published (empty), memory
    published."""
    b200 = GPU.objects.get(slug="b200")
    assert "rt_cores" in b200.unsupported_specs and b200.bandwidth_gbs is None
    specs = gpus_by_slug(fetch_json(client, GPUS_JSON))["b200"]["specs"]
    assert specs["rt_cores"] == {"state": "not_supported"}
    assert specs["bandwidth_gbs"] == {"state": "not_published"}
    assert specs["memory_gb"] == {"state": "published", "value": b200.memory_gb, "unit": "GB"}
    rows = csv.DictReader(io.StringIO(client.get(GPUS_CSV).content.decode()))
    row = next(row for row in rows if row["slug"] == "b200")
    assert (row["rt_cores"], row["rt_cores_state"]) == ("", "not_supported")
    assert (row["bandwidth_gbs"], row["bandwidth_gbs_state"]) == ("", "not_published")
    assert (Decimal(row["memory_gb"]), row["memory_gb_state"]) == (b200.memory_gb, "published")


def test_a_gpu_without_a_live_offer_has_a_null_price(client, launch_content):
    GPU.objects.filter(slug="b200").update(price_usd_per_hour=None, price_updated_at=None)
    entry = gpus_by_slug(fetch_json(client, GPUS_JSON))["b200"]
    assert entry["price_usd_per_hour"] is None and entry["price_updated_at"] is None


def test_the_csv_file_has_the_json_values_one_row_per_gpu(client, launch_content):
    response = client.get(GPUS_CSV)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="everxcloud-gpus.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8"))))
    data = fetch_json(client, GPUS_JSON)
    assert [row["slug"] for row in rows] == [entry["slug"] for entry in data["gpus"]]

    def text(value):
        return "" if value is None else str(value)

    for row, entry in zip(rows, data["gpus"], strict=True):
        assert row["name"] == entry["name"] and row["page"] == entry["page"]
        for spec in FEED_SPECS:
            value = entry["specs"][spec.key]
            assert row[f"{spec.key}_state"] == value["state"]
            assert row[spec.key] == text(value.get("value")), (entry["slug"], spec.key)
        assert row["rt_core_generation"] == text(entry["specs"]["rt_cores"].get("generation"))
        assert row["price_usd_per_hour"] == text(entry["price_usd_per_hour"])
        assert row["price_updated_at"] == text(entry["price_updated_at"])
        for method in SIZING_METHODS:
            for count in GPU_COUNTS:
                assert int(row[f"largest_model_{method.key}_gpus_{count}"]) == \
                    entry["largest_model_billion_params"][method.key][f"gpus_{count}"]


def test_the_price_history_validates_and_lists_the_points_oldest_first(client, launch_content):
    gpu = GPU.objects.get(slug="h100-sxm")
    PricePoint.objects.filter(gpu=gpu).delete()
    # Within the file's default window (the last year, every point of the last 90 days), whatever today's date.
    start = datetime.now(UTC).replace(hour=12, minute=0, second=0, microsecond=0) - timedelta(days=10)
    # Created out of order, one withdrawn offer among them.
    for hours, price, source in [(48, "2.35", "import"), (0, "2.50", "launch"), (24, None, "admin")]:
        factories.price_point(gpu=gpu, time=start + timedelta(hours=hours), source=source,
                              usd_per_hour=Decimal(price) if price else None)
    data = fetch_json(client, f"/data/gpus/{gpu.slug}/prices.json")
    validate_against_its_schema(client, data)
    assert data["gpu"] == {"slug": gpu.slug, "name": gpu.name}

    def text(hours):
        return (start + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")

    assert data["points"] == [
        {"time": text(0), "usd_per_hour": Decimal("2.50"), "source": "launch"},
        {"time": text(24), "usd_per_hour": None, "source": "admin"},
        {"time": text(48), "usd_per_hour": Decimal("2.35"), "source": "import"},
    ]


def test_a_gpu_without_history_has_no_points(client, launch_content):
    gpu = GPU.objects.get(slug="b200")
    PricePoint.objects.filter(gpu=gpu).delete()
    data = fetch_json(client, f"/data/gpus/{gpu.slug}/prices.json")
    validate_against_its_schema(client, data)
    assert data["points"] == [] and data["price_at_since"] is None


def test_an_unknown_gpu_or_schema_is_a_json_404(client, launch_content):
    for path in ("/data/gpus/no-such-gpu/prices.json", "/data/schema/v1/no-such-schema.json"):
        response = client.get(path, headers=ELSEWHERE)
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert json.loads(response.content)["error"] == "not_found"
        assert response["Access-Control-Allow-Origin"] == "*"


def test_a_price_import_reaches_the_feed_at_once(client, launch_content):
    """The feed is served from the page cache: the import's content change makes it fresh."""
    gpu = GPU.objects.get(slug="h100-sxm")
    before = client.get(GPUS_JSON)
    assert client.get(GPUS_JSON)["ETag"] == before["ETag"]  # cached
    history_before = fetch_json(client, f"/data/gpus/{gpu.slug}/prices.json")["points"]
    # Newer than the launch content's price (loaded this second, perhaps), and whole seconds as the feed writes.
    moment = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=1)
    new_price = gpu.price_usd_per_hour + Decimal("0.13")
    report = import_prices(f"gpu,usd_per_hour,time\n{gpu.slug},{new_price},{moment.isoformat()}\n".encode(),
                           "prices.csv")
    assert report.applied, report.refused
    after = client.get(GPUS_JSON)
    assert after["ETag"] != before["ETag"]
    entry = gpus_by_slug(json.loads(after.content, parse_float=Decimal))[gpu.slug]
    assert entry["price_usd_per_hour"] == new_price
    assert entry["price_updated_at"] == moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    csv_row = next(row for row in csv.DictReader(io.StringIO(client.get(GPUS_CSV).content.decode()))
                   if row["slug"] == gpu.slug)
    assert Decimal(csv_row["price_usd_per_hour"]) == new_price
    history = fetch_json(client, f"/data/gpus/{gpu.slug}/prices.json")["points"]
    assert len(history) == len(history_before) + 1
    assert history[-1] == {"time": entry["price_updated_at"], "usd_per_hour": new_price, "source": "import"}


# 2. The numbers are the pages' numbers.


def spec_cells(document):
    """{label: cell text} of a GPU page's spec table."""
    table = document.find("section", class_="specs").find("table")
    return {row.find("th").squashed_text: row.find("td").squashed_text for row in table.rows()}


def fit_cells(document, table_key):
    """{heading: cell text} of a GPU page's row of the workload table ``table_key``."""
    heading = document.by_id(f"fits-{table_key}")
    region = next(element for element in document.iter()
                  if element.attrs.get("aria-labelledby") == f"fits-{table_key}")
    assert heading is not None
    return {row.find("th").squashed_text: row.find("td").squashed_text for row in region.find("table").rows()}


def squashed(text):
    """As the HTML reader's cell texts read (runs of white space, no-break spaces too, as one space)."""
    return re.sub(r"\s+", " ", text).strip()


def expected_spec_text(spec, entry, derived=None):
    """The text a page shows for a spec, computed from the feed's entry (in the active language); a figure the
    feed gives as derived (``derived``, from ``derived_specs``) reads beside "not published per GPU"."""
    if entry["state"] == "not_supported":
        return NOT_SUPPORTED_MARK
    if entry["state"] == "not_published" and derived:
        return squashed(f"{gettext('Not published per GPU')} · ≈ {format_quantity(derived['value'], derived['unit'])}")
    if entry["state"] == "not_published":
        return not_published()
    if spec.unit:
        return squashed(format_quantity(entry["value"], spec.unit))
    return str(entry["value"])


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_feeds_numbers_equal_the_gpu_pages_numbers(client, launch_content, language):
    data = fetch_json(client, GPUS_JSON)
    compared_fits = 0
    for entry in data["gpus"]:
        gpu = GPU.objects.get(slug=entry["slug"])
        document = parse(client.get(gpu.get_absolute_url(language)).content)
        cells = spec_cells(document)
        with translation.override(language):
            tables = gpu_tables.published(language)
            for spec in FEED_SPECS:
                if spec.key == "rt_cores" or (language != "en" and spec.unit == "" and spec.key != "year"):
                    continue  # the generation reads with the count; words are translated by editors
                shown = cells[str(spec_label(spec.key))]
                expected = expected_spec_text(spec, entry["specs"][spec.key], entry["derived_specs"].get(spec.key))
                assert shown.startswith(expected), (gpu.slug, spec.key)
            price = entry["price_usd_per_hour"]
            expected_price = not_published() if price is None else format_price_per_hour(price)
            assert cells[str(spec_label("price_usd_per_hour"))] == squashed(expected_price)
            for table in tables:
                if gpu.pk not in table.gpu_ids:
                    continue
                shown = fit_cells(document, table.key)
                for heading, column in table.sizing_columns:
                    if isinstance(column, LargestModelColumn) and column.gpu_count in GPU_COUNTS:
                        billions = entry["largest_model_billion_params"][column.method][f"gpus_{column.gpu_count}"]
                        assert shown[str(heading)] == squashed(format_model_size(billions)), (gpu.slug, heading)
                        compared_fits += 1
    assert compared_fits > len(data["gpus"])  # the workload tables do show such columns


def test_the_catalogue_links_the_feed_and_its_documentation(client, launch_content):
    for language in LANGUAGES:
        links = Page(client.get(url_in(language, "catalog:gpu_list")).content.decode()).links
        assert {GPUS_JSON, GPUS_CSV, url_in(language, "open_data:docs")} <= set(links)


# 3. HTTP: caching, conditional requests, other origins, methods.


@pytest.mark.parametrize("path", [GPUS_JSON, GPUS_CSV, "/data/gpus/h100-sxm/prices.json", "/data/schema/v1/gpus.json"])
def test_headers_etag_and_304(client, launch_content, path):
    response = client.get(path, headers=ELSEWHERE)
    assert response["Cache-Control"] == "public, max-age=300"
    assert response["Access-Control-Allow-Origin"] == "*"
    assert response["Access-Control-Expose-Headers"] == "ETag"
    assert not response.has_header("Access-Control-Allow-Credentials")
    assert response["Cross-Origin-Resource-Policy"] == "cross-origin"
    # Only a request with an Origin gets the CORS headers: a shared cache keeps a copy per Origin.
    assert "origin" in response["Vary"].lower()
    assert response["X-Content-Type-Options"] == "nosniff"
    # The files are the same in every language: one cached copy, whatever the visitor's language.
    assert "accept-language" not in response.get("Vary", "").lower()
    assert not response.has_header("Content-Language")
    german = client.get(path, headers={"Accept-Language": "de"})
    assert german["ETag"] == response["ETag"] and german.content == response.content
    not_modified = client.get(path, headers={"If-None-Match": response["ETag"], **ELSEWHERE})
    assert not_modified.status_code == 304 and not_modified.content == b""
    assert not_modified["Access-Control-Allow-Origin"] == "*"
    head = client.head(path)
    assert head.status_code == 200 and head.content == b""
    assert (head["ETag"], head["Content-Length"]) == (response["ETag"], str(len(response.content)))


def test_gzip_has_its_own_etag(client, launch_content):
    plain = client.get(GPUS_JSON)
    packed = client.get(GPUS_JSON, headers={"Accept-Encoding": "gzip"})
    assert packed["Content-Encoding"] == "gzip" and packed["ETag"] != plain["ETag"]
    assert "Accept-Encoding" in packed["Vary"]


@pytest.mark.parametrize("path", [GPUS_JSON, GPUS_CSV])
def test_options_answers_a_cors_preflight_and_other_methods_are_refused(client, launch_content, path):
    response = client.options(path, headers={**ELSEWHERE, "Access-Control-Request-Method": "GET",
                                             "Access-Control-Request-Headers": "if-none-match"})
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert set(response["Access-Control-Allow-Methods"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    assert "if-none-match" in response["Access-Control-Allow-Headers"].lower()
    assert response["Access-Control-Max-Age"] == "86400"
    assert not response.has_header("Access-Control-Allow-Credentials")
    # Without a preflight's header, OPTIONS is the view's: its methods, and CORS for a script that asks.
    plain = client.options(path, headers=ELSEWHERE)
    assert plain.status_code == 200 and set(plain["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    assert plain["Access-Control-Allow-Origin"] == "*"
    for method in (client.post, client.put, client.delete):
        refused = method(path)
        assert refused.status_code == 405
        assert set(refused["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}


def test_no_page_but_the_feed_answers_other_origins(client, launch_content):
    """The feed's documentation page, a catalogue page, the sitemap and the admin's login: no CORS header for a
    script on another site, not even to a preflight, and the site's own resource policy."""
    for path in (url_in("en", "open_data:docs"), url_in("de", "catalog:gpu_list"), "/sitemap.xml",
                 reverse("admin:login")):
        response = client.get(path, headers=ELSEWHERE)
        assert response.status_code == 200, path
        assert not [name for name in response.headers if name.lower().startswith("access-control-")], path
        assert response["Cross-Origin-Resource-Policy"] == "same-origin", path
        preflight = client.options(path, headers={**ELSEWHERE, "Access-Control-Request-Method": "POST"})
        assert not [name for name in preflight.headers if name.lower().startswith("access-control-")], path


@pytest.mark.parametrize("path", [GPUS_JSON, GPUS_CSV])
def test_the_feeds_queries_do_not_grow_with_the_number_of_gpus(client, launch_content, path):
    before = page_queries(client, path)
    add_test_gpus(5)
    assert page_queries(client, path) == before


def test_a_price_history_is_four_queries_however_long(client, launch_content, django_assert_num_queries):
    """The GPU, the price in force when the window opens, each day's last point before the last 90 days (picked by
    the database), the last 90 days."""
    bump_content_version()  # a version under which no test rendered the history yet
    client.get(GPUS_JSON)  # the content version read once
    with django_assert_num_queries(4):
        assert client.get("/data/gpus/h100-sxm/prices.json").status_code == 200
    gpu = GPU.objects.get(slug="h100-sxm")
    now = datetime.now(UTC)
    PricePoint.objects.bulk_create(PricePoint(gpu=gpu, time=now - timedelta(hours=7 * n), source="import",
                                              usd_per_hour=Decimal("2.00") + n % 50 / Decimal(100))
                                   for n in range(1, 2000))
    bump_content_version()
    with django_assert_num_queries(4):
        assert client.get("/data/gpus/h100-sxm/prices.json").status_code == 200


# 4. The documentation page, the sitemap and robots.txt.


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_documentation_page_in_every_language(client, launch_content, language):
    path = url_in(language, "open_data:docs")
    body = client.get(path).content.decode()
    page, head = Page(body), Head(body)
    assert page.lang == language and len(page.h1) == 1
    with translation.override(language):
        assert page.h1 == [translation.gettext("Open data: GPU specs and prices")]
        assert head.meta["description"]
        assert head.title.startswith(page.h1[0])
        # The licence line, every file and every field of the feed.
        assert "CC BY 4.0" in page.document.visible_text and "EverXCloud" in page.document.visible_text
        links = set(page.links)
        assert {settings.SITE_URL + reverse("data:gpus_json"), settings.SITE_URL + reverse("data:gpus_csv"),
                settings.SITE_URL + reverse("data:schema", kwargs={"name": "gpus"}),
                settings.SITE_URL + reverse("data:schema", kwargs={"name": "prices"})} <= links
        fields = {term.squashed_text for term in page.document.find("dl", class_="data-fields").find_all("dt")}
        assert {f"specs.{spec.key}" for spec in FEED_SPECS} <= fields
        assert {f"largest_model_billion_params.{method.key}.gpus_{count}"
                for method in SIZING_METHODS for count in GPU_COUNTS} <= fields
        breadcrumbs = [crumb["name"] for crumb in json.loads(head.json_ld[0])["itemListElement"]]
        assert breadcrumbs[-1] == page.h1[0] and len(breadcrumbs) == 3
    assert path in sitemap_paths(client)


def test_robots_txt_allows_the_feed_and_its_documentation(client, launch_content):
    lines = client.get("/robots.txt").content.decode().splitlines()
    assert "Allow: /data/" in lines
    for language in LANGUAGES:
        assert f"Allow: {url_in(language, 'open_data:docs')}" in lines


# 5. The price history's window, an invalid since, one render per content version; formula-neutral CSV cells.


def history_points(client, slug, query=""):
    data = fetch_json(client, f"/data/gpus/{slug}/prices.json{query}")
    validate_against_its_schema(client, data)
    return data


def test_the_price_history_is_the_last_year_with_each_days_last_price_before_90_days(client, launch_content):
    gpu = GPU.objects.get(slug="h100-sxm")
    PricePoint.objects.filter(gpu=gpu).delete()
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    # Four points on one day 200 days ago, two on one day 10 days ago, one 400 days ago (before the year).
    old_day, recent_day = today - timedelta(days=200), today - timedelta(days=10)
    for moment, price in [(today - timedelta(days=400), "3.00"),
                          *((old_day + timedelta(hours=hours), f"2.{hours:02}") for hours in (1, 5, 9, 23)),
                          (recent_day + timedelta(hours=2), "2.40"), (recent_day + timedelta(hours=20), "2.30")]:
        factories.price_point(gpu=gpu, time=moment, usd_per_hour=Decimal(price))

    def text(moment):
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")

    data = history_points(client, gpu.slug)
    assert data["window"] == {"since": text(today - timedelta(days=365)),
                              "all_points_since": text(today - timedelta(days=90))}
    # The price in force when the window opens: the point before the year.
    assert data["price_at_since"] == {"time": text(today - timedelta(days=400)), "usd_per_hour": Decimal("3.00"),
                                      "source": "import"}
    assert [(point["time"], point["usd_per_hour"]) for point in data["points"]] == [
        (text(old_day + timedelta(hours=23)), Decimal("2.23")),  # that day's last price only
        (text(recent_day + timedelta(hours=2)), Decimal("2.40")),  # the last 90 days: every point
        (text(recent_day + timedelta(hours=20)), Decimal("2.30")),
    ]
    since = (today - timedelta(days=500)).date().isoformat()
    longer = history_points(client, gpu.slug, f"?since={since}")
    assert longer["window"]["since"] == f"{since}T00:00:00Z"
    assert [point["usd_per_hour"] for point in longer["points"]] == [
        Decimal("3.00"), Decimal("2.23"), Decimal("2.40"), Decimal("2.30")]
    assert longer["price_at_since"] is None  # no price before it
    recent = history_points(client, gpu.slug, f"?since={(today - timedelta(days=30)).date().isoformat()}")
    assert recent["window"]["all_points_since"] == recent["window"]["since"]
    assert [point["usd_per_hour"] for point in recent["points"]] == [Decimal("2.40"), Decimal("2.30")]
    # The last of the four on the old day, not the day's first nor the year-old one.
    assert recent["price_at_since"]["time"] == text(old_day + timedelta(hours=23))
    assert recent["price_at_since"]["usd_per_hour"] == Decimal("2.23")


def test_a_price_unchanged_for_longer_than_the_window_is_the_price_at_since(client, launch_content):
    """A GPU whose one price (its launch price) is older than the default year still says what it costs."""
    gpu = GPU.objects.get(slug="h100-sxm")
    PricePoint.objects.filter(gpu=gpu).delete()
    launch_day = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=500)
    factories.price_point(gpu=gpu, time=launch_day, usd_per_hour=Decimal("2.99"), source="launch")
    data = history_points(client, gpu.slug)
    assert data["points"] == []
    assert data["price_at_since"] == {"time": launch_day.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                      "usd_per_hour": Decimal("2.99"), "source": "launch"}


@pytest.mark.parametrize("since", [
    "yesterday", "2026-13-01", "2026-02-30", "20260101", "2026-W01-1", "1999-12-31", "2999-01-01", "", "2026-1-1",
    "2026-01-01T00:00:00Z", "x" * 5000,
])
def test_an_invalid_since_is_a_json_400(client, launch_content, since):
    response = client.get("/data/gpus/h100-sxm/prices.json", {"since": since}, headers=ELSEWHERE)
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    answer = json.loads(response.content)
    assert answer["error"] == "invalid_since" and "YYYY-MM-DD" in answer["detail"]
    assert response["Access-Control-Allow-Origin"] == "*"


def test_two_since_values_are_a_json_400(client, launch_content):
    response = client.get("/data/gpus/h100-sxm/prices.json?since=2026-01-01&since=2026-02-01")
    assert response.status_code == 400 and json.loads(response.content)["error"] == "invalid_since"


def test_a_since_window_has_its_own_etag_and_304(client, launch_content):
    path = "/data/gpus/h100-sxm/prices.json?since=2026-01-01"
    response = client.get(path)
    assert response.status_code == 200 and response["Cache-Control"] == "public, max-age=300"
    assert client.get(path, headers={"If-None-Match": response["ETag"]}).status_code == 304
    # A parameter the file does not depend on is the same file.
    assert client.get(path + "&utm_source=x")["ETag"] == response["ETag"]


DATABASE_CACHE = {"default": {"BACKEND": "caching.database.DatabaseCache", "LOCATION": "django_cache"},
                  "pages": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "page_cache"},
                  "memory": MEMORY_CACHE}


def concurrent_gets(path, count):
    """``count`` GETs of ``path`` at once, each from its own thread, client and database connection."""
    start, responses = threading.Barrier(count), [None] * count

    def get(index):
        try:
            start.wait()
            responses[index] = Client().get(path)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=get, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return responses


def test_twenty_requests_right_after_a_change_render_the_history_once(live_launch_content, monkeypatch):
    """Real threads and the production settings' shared cache (a table in PostgreSQL): the first request
    renders, the other 19 wait for its stored copy."""
    renders, real = [], document.price_history_document

    def counted(*args, **kwargs):
        renders.append(1)
        time.sleep(0.3)  # a render long enough for all 20 to arrive while it runs
        return real(*args, **kwargs)

    monkeypatch.setattr(document, "price_history_document", counted)
    path = "/data/gpus/h100-sxm/prices.json"
    with override_settings(CACHES=DATABASE_CACHE):
        call_command("createcachetable", verbosity=0)
        for _change in range(2):
            bump_content_version()
            responses = concurrent_gets(path, 20)
            assert [response.status_code for response in responses] == [200] * 20
            assert len({response["ETag"] for response in responses}) == 1
            assert len({response.content for response in responses}) == 1
        assert len(renders) == 2  # one per content version


def test_an_editors_formula_is_neutralised_in_the_csv_file(client, launch_content):
    name = '=HYPERLINK("http://x")'
    GPU.objects.filter(slug="b200").update(name=name)
    row = next(row for row in csv.DictReader(io.StringIO(client.get(GPUS_CSV).content.decode()))
               if row["slug"] == "b200")
    assert row["name"] == "'" + name
    assert gpus_by_slug(fetch_json(client, GPUS_JSON))["b200"]["name"] == name  # JSON is data, not a sheet


@pytest.mark.parametrize("value, cell", [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1.5", "'-1.5"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
    ("\rx", "'\rx"), ("H100 SXM", "H100 SXM"), (None, ""), (Decimal("-1.5"), Decimal("-1.5")), (-2, -2),
])
def test_spreadsheet_safe_quotes_text_that_starts_a_formula_and_keeps_numbers(value, cell):
    assert spreadsheet_safe(value) == cell


def test_a_request_that_waits_too_long_for_another_render_is_told_to_retry(client, launch_content, monkeypatch):
    """Another request holds the render lock (in another worker, say) and has not stored the file: after the
    bounded wait the answer is a JSON 503 with Retry-After, never a render of its own."""
    path = "/data/gpus/h100-sxm/prices.json"
    monkeypatch.setattr(http, "RENDER_WAIT_SECONDS", 0.3)
    renders = []
    monkeypatch.setattr(document, "price_history_document", lambda *args, **kwargs: renders.append(1))
    assert shared_cache("add", http.render_lock_key(RequestFactory().get(path), {"since"}), "another", timeout=60)
    response = client.get(path, headers=ELSEWHERE)
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert json.loads(response.content)["error"] == "busy"
    assert response["Access-Control-Allow-Origin"] == "*"
    assert renders == []


@pytest.mark.multiprocess
def test_twenty_requests_to_two_gunicorn_workers_right_after_an_import_render_once(live_launch_content):
    """Across processes: gunicorn with 2 workers and the database cache; an import, then 20 requests at once.
    Renders are counted from the servers' log (``caching.pages`` logs each)."""
    slug = "h100-sxm"
    rendered = f"Rendered /data/gpus/{slug}/prices.json".encode()
    with tempfile.TemporaryFile() as log, gunicorn_server(workers=2, log=log) as server, \
            override_settings(CACHES={"default": SERVERS_CACHE, "memory": MEMORY_CACHE}):
        url = f"{server}/data/gpus/{slug}/prices.json"

        def get(index, results):
            start.wait()
            with urllib.request.urlopen(url, timeout=30) as response:
                results[index] = (response.status, response.headers["ETag"])

        with urllib.request.urlopen(url, timeout=30) as response:
            assert response.status == 200
        moment = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=1)
        assert import_prices(f"gpu,usd_per_hour,time\n{slug},2.77,{moment.isoformat()}\n".encode(), "p.csv").applied
        time.sleep(1.1)  # each worker re-reads the content version at most once a second
        start, results = threading.Barrier(20), [None] * 20
        threads = [threading.Thread(target=get, args=(index, results)) for index in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        log.flush()
        log.seek(0)
        assert log.read().count(rendered) == 2  # the first request, then one after the import
    assert [status for status, _etag in results] == [200] * 20
    assert len({etag for _status, etag in results}) == 1
