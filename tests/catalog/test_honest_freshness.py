"""Honest freshness and data in the visitor's language (issue 24, items 6 and 7).

A fresh install dates the launch prices by the launch data (``price_date`` in gpus.csv), never by the time it
was loaded: no page and no feed carries an "updated" time equal to the load time; only an imported or edited
price says "updated". Spec values in words (form factor, interconnect) read in the page's language."""
import csv
import io
import json
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from babel.dates import format_date, format_time
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from caching.content_version import content_changed
from catalog.loading import GPUS_CSV
from catalog.models import GPU
from prices.price_import import import_prices
from workloads.models import Workload

from ..html import fetch
from ..languages import LANGUAGES, TRANSLATED
from ..localized_urls import url_in

with open(GPUS_CSV, newline="", encoding="utf-8") as handle:
    CSV_ROWS = list(csv.DictReader(handle))
BABEL_LOCALES = {"es": "es_ES", "pt": "pt_PT", "de": "de_DE", "en": "en_US"}
ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})")


def moment_of(text):
    """A <time datetime> or a feed's time: a moment, or a day (read as its midnight UTC)."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return datetime.fromisoformat(text).replace(tzinfo=UTC)
    return datetime.fromisoformat(text)


def page_paths():
    paths = []
    for language in LANGUAGES:
        paths.append(url_in(language, "catalog:gpu_list"))
        paths += [gpu.get_absolute_url(language) for gpu in GPU.objects.all()]
        paths += [workload.get_absolute_url(language) for workload in Workload.objects.filter(is_published=True)
                  if language in workload.page_languages()]
    return paths


def feed_times(client):
    texts = [client.get(reverse("data:gpus_json")).content.decode(),
             client.get(reverse("data:gpus_csv")).content.decode()]
    texts += [client.get(reverse("data:gpu_prices", kwargs={"slug": gpu.slug})).content.decode()
              for gpu in GPU.objects.all()]
    return [moment_of(found) for text in texts for found in ISO_TIME.findall(text)]


def test_a_fresh_install_dates_no_price_at_the_time_it_was_loaded(client, empty_database):
    loading_started = timezone.now().replace(microsecond=0)
    call_command("load_launch_content", stdout=io.StringIO())
    loading_ended = timezone.now() + timedelta(seconds=1)
    during_load = [loading_started, loading_ended]
    updated_labels = set()
    for language in LANGUAGES:
        with translation.override(language):
            updated_labels |= {gettext("Updated"), gettext("Prices updated")}
    page_times = []
    for path in page_paths():
        document = fetch(client, path)
        page_times += [moment_of(time.attrs["datetime"]) for time in document.find_all("time")]
        for label in updated_labels:  # no launch price says "updated"
            assert not re.search(rf"(^|\s){re.escape(label)}\s", document.squashed_text), (path, label)
    times = page_times + feed_times(client)
    assert page_times and times
    assert [moment for moment in times if during_load[0] <= moment <= during_load[1]] == []
    # Every price time is the launch data's date.
    launch_dates = {datetime.fromisoformat(row["price_date"]).replace(tzinfo=UTC) for row in CSV_ROWS}
    data = json.loads(client.get(reverse("data:gpus_json")).content)
    assert {moment_of(entry["price_updated_at"]) for entry in data["gpus"]} == launch_dates
    assert {entry["price_source"] for entry in data["gpus"]} == {"launch"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_launch_price_says_launch_price_with_the_launch_datas_date(client, launch_content, language):
    row = next(row for row in CSV_ROWS if row["slug"] == "h100-sxm")
    day = date.fromisoformat(row["price_date"])
    document = fetch(client, url_in(language, "catalog:gpu_detail", slug="h100-sxm"))
    freshness = document.find("p", class_="price-freshness")
    # The language's long date, as CLDR writes it (the site formats Portuguese dates with Babel's "pt").
    locale = BABEL_LOCALES[language] if language != "pt" else "pt_BR"
    with translation.override(language):
        assert freshness.squashed_text.startswith(gettext("Launch price, as of") + " ")
    time = freshness.find("time")
    assert time.attrs["datetime"] == day.isoformat()
    # The price history's note gives the same day, without a made-up time of day (nor a chart whose table would).
    history = document.find("section", aria_labelledby="price-history-heading")
    midnight = format_time(datetime(day.year, day.month, day.day, tzinfo=UTC), "long", tzinfo=UTC, locale=locale)
    assert history.find("svg") is None and midnight not in history.squashed_text
    assert format_date(day, "long", locale=locale) in history.squashed_text
    assert time.text == format_date(day, "long", locale=locale)


def test_an_imported_price_says_updated_with_its_time(client, launch_content):
    moment = timezone.now().replace(microsecond=0) - timedelta(hours=2)
    report = import_prices(f"gpu,usd_per_hour,time\nh100-sxm,2.50,{moment.isoformat()}\n")
    assert report.applied
    assert GPU.objects.get(slug="h100-sxm").price_source == "import"
    document = fetch(client, url_in("de", "catalog:gpu_detail", slug="h100-sxm"))
    freshness = document.find("p", class_="price-freshness")
    assert freshness.squashed_text.startswith("Aktualisiert am ")
    assert moment_of(freshness.find("time").attrs["datetime"]) == moment
    training = Workload.objects.get(key="llm-training")
    note = fetch(client, training.get_absolute_url("en")).find("p", class_="prices-updated")
    assert note.squashed_text.startswith("Prices updated ")
    assert moment_of(note.find("time").attrs["datetime"]) == moment
    feed = json.loads(client.get(reverse("data:gpus_json")).content)
    entry = next(entry for entry in feed["gpus"] if entry["slug"] == "h100-sxm")
    assert (entry["price_source"], moment_of(entry["price_updated_at"])) == ("import", moment)


def test_a_workload_page_of_launch_prices_says_so(client, launch_content):
    note = fetch(client, Workload.objects.get(key="llm-training").get_absolute_url("es")).find(
        "p", class_="prices-updated")
    with translation.override("es"):
        assert note.squashed_text.startswith(gettext("Launch prices, as of") + " ")
    assert note.find("time").attrs["datetime"] == CSV_ROWS[0]["price_date"]


# Data in the visitor's language.

# A value in English words has a lower-case word ("consumer card", "bridge (pairs)"); names and codes are
# capitalized ("PCIe Gen4", "NVLink 5 + NVSwitch", "Infinity Fabric").
ENGLISH_WORD = re.compile(r"\b[a-z]{2,}\b")
WORD_FIELDS = ("form_factor", "interconnect")
ENGLISH_VALUES = {row[field] for row in CSV_ROWS for field in WORD_FIELDS if ENGLISH_WORD.search(row[field])}


def test_the_data_has_spec_values_in_english_words():
    assert {"PCIe Gen4 consumer card", "NVLink 3 bridge (pairs)"} <= ENGLISH_VALUES


def spec_values(client, language, slug):
    document = fetch(client, url_in(language, "catalog:gpu_detail", slug=slug))
    return [cells[1] for cells in document.find("div", aria_labelledby="specs-heading").find("table").table_rows()]


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_spec_value_in_english_on_the_gpu_pages(client, launch_content, language):
    english_words = {word for value in ENGLISH_VALUES for word in ENGLISH_WORD.findall(value)}
    cells_in_words = 0
    for row in CSV_ROWS:
        values = spec_values(client, language, row["slug"])
        assert not ENGLISH_VALUES & set(values), (row["slug"], language)
        assert not english_words & {word for value in values for word in ENGLISH_WORD.findall(value)}, row["slug"]
        cells_in_words += sum(row[field] in ENGLISH_VALUES for field in WORD_FIELDS)
    assert cells_in_words == 5  # the five cells per language the issue found in English


def test_editors_change_a_translation_in_its_language_field(client, launch_content):
    gpu = GPU.objects.get(slug="a100-pcie")
    gpu.interconnect_de = "NVLink-3-Brücke für zwei GPUs"
    gpu.save()
    content_changed()
    assert "NVLink-3-Brücke für zwei GPUs" in spec_values(client, "de", "a100-pcie")
    assert "NVLink 3 bridge (pairs)" in spec_values(client, "en", "a100-pcie")
