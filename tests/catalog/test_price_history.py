"""Price history (issue 16, item 1): every price change from an import or the admin is a point; an older file
is history only and changes no current price; the GPU page draws the last 90 days as a step chart with its
points as a table and the change over 7 and 30 days in the visitor's format; the catalogue sorts by the 7-day
change both ways; queries stay constant however many points a GPU has."""
import importlib
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from babel import Locale
from babel.numbers import format_currency, format_percent
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from caching.content_version import content_changed
from catalog.models import GPU, PricePoint, PriceSource
from catalog.price_events import price_changed
from catalog.price_history import record_points
from charts.step_chart import step_chart
from charts.text import FONT_SIZE, text_width
from prices.price_import import import_prices

from ..editors import change_form_data
from ..html import fetch
from ..languages import LANGUAGES
from ..launch_copy import launch_prices_dated
from ..localized_urls import url_in
from ..queries import page_queries

BABEL_LOCALES = {"es": "es_ES", "pt": "pt_BR", "de": "de_DE", "en": "en_US"}
NOW = timezone.now().replace(microsecond=0)


def plain(text):
    """Text with its spaces as the tests read a cell (``squashed_text``): no-break spaces are spaces."""
    return re.sub(r"\s+", " ", text).strip()


def usd(amount, language):
    """An amount as Babel writes it in the language's regional locale (two decimals)."""
    return plain(format_currency(Decimal(amount), "USD", locale=BABEL_LOCALES[language]))


def signed_share(share, language):
    """A change as a percentage with one decimal and a sign either way: the locale's percent pattern (CLDR),
    given one decimal."""
    locale = Locale.parse(BABEL_LOCALES[language])
    pattern = locale.percent_formats[None].pattern.replace("#,##0", "#,##0.0")
    text = plain(format_percent(Decimal(share), format=pattern, locale=locale))
    return text if share < 0 else "+" + text


def signed_usd(amount, language):
    text = usd(amount, language)
    return text if amount < 0 else "+" + text


def csv_file(*rows):
    return "gpu,usd_per_hour,time\n" + "".join(f"{slug},{price},{moment.isoformat()}\n" for slug, price, moment in rows)


def history_from(slug, moment):
    """The GPU's launch price dated ``moment`` (the launch data dates it ``price_date``): imports after it apply."""
    gpu = GPU.objects.get(slug=slug)
    GPU.objects.filter(pk=gpu.pk).update(price_updated_at=moment)
    PricePoint.objects.filter(gpu=gpu).update(time=moment)
    return gpu


def points(slug):
    return list(PricePoint.objects.filter(gpu__slug=slug).order_by("time", "pk")
                .values_list("usd_per_hour", "time", "source"))


def history_section(client, slug, language):
    """The price history section of the GPU's page; the test changed rows without the admin, so the cached
    pages are made stale first, as an editor's save would."""
    content_changed()
    document = fetch(client, url_in(language, "catalog:gpu_detail", {}, slug=slug))
    return document.find("section", class_="price-history")


def table_points(section):
    """(ISO time, price text) of each row of the chart's data table."""
    rows = section.find("table", class_="chart-data-table").find("tbody").find_all("tr")
    return [(row.find("time").attrs["datetime"], row.cells()[1].squashed_text) for row in rows]


@pytest.fixture
def editor_client(client, db):
    user = get_user_model().objects.create_superuser("boss", "boss@example.com", "a-long-test-password")
    client.force_login(user)
    return client


@pytest.fixture
def received():
    """The ``price_changed`` sends, each a list of changes, while the test runs."""
    sends = []

    def receiver(sender, changes, **kwargs):
        assert connection.in_atomic_block
        sends.append(list(changes))

    price_changed.connect(receiver, dispatch_uid="test-price-history")
    yield sends
    price_changed.disconnect(dispatch_uid="test-price-history")


# 1. Recording: imports, an older file, the admin, the launch content, the seed migration.


@pytest.mark.parametrize("language", LANGUAGES)
def test_two_imports_a_day_apart_draw_a_chart_with_both_points(client, launch_content, language):
    history_from("h100-sxm", NOW - timedelta(days=31))
    first, second = NOW - timedelta(days=2), NOW - timedelta(days=1)
    assert import_prices(csv_file(("h100-sxm", "2.70", first))).applied
    assert import_prices(csv_file(("h100-sxm", "2.50", second))).applied
    section = history_section(client, "h100-sxm", language)
    with translation.override(language):
        assert section.find("h2").squashed_text == gettext("Price, last %(days)s days") % {"days": 90}
    assert table_points(section) == [
        ((NOW - timedelta(days=31)).isoformat(), usd("2.88", language)),
        (first.isoformat(), usd("2.70", language)),
        (second.isoformat(), usd("2.50", language)),
    ]
    svg = section.find("svg")
    assert svg.attrs["role"] == "img"
    title, desc = svg.by_id(svg.attrs["aria-labelledby"].split()[0]), svg.by_id(svg.attrs["aria-labelledby"].split()[1])
    assert "H100 SXM" in title.text
    assert usd("2.50", language) in desc.squashed_text and usd("2.88", language) in desc.squashed_text
    # Both imports are marks on the line, a day apart, the cheaper one lower; the first price starts inside the
    # window, so it has its own mark.
    marks = [(int(c.attrs["cx"]), int(c.attrs["cy"])) for c in svg.find("g", class_="chart-point").find_all("circle")]
    assert len(marks) == 3
    (x_launch, y_launch), (x_first, y_first), (x_second, y_second) = marks
    assert x_launch < x_first < x_second and y_launch < y_first < y_second
    texts = [text.squashed_text for text in svg.find_all("text")]
    with translation.override(language):
        assert gettext("Highest: %(price)s") % {"price": usd("2.88", language)} in texts
        assert gettext("Lowest: %(price)s") % {"price": usd("2.50", language)} in texts
        assert [gettext("Now"), usd("2.50", language)] == texts[-2:]


def test_an_older_file_after_a_newer_one_changes_no_current_price_and_is_history(client, launch_content):
    history_from("h100-sxm", NOW - timedelta(days=31))
    history_from("b200", NOW - timedelta(days=31))
    newer, older = NOW - timedelta(days=1), NOW - timedelta(days=3)
    assert import_prices(csv_file(("h100-sxm", "2.50", newer))).applied
    report = import_prices(csv_file(("b200", "7.50", NOW - timedelta(hours=1)), ("h100-sxm", "2.10", older)))
    assert report.applied
    assert [(row.slug, row.time) for row in report.kept] == [("h100-sxm", older)]
    assert "history only" in report.kept[0].reason
    h100 = GPU.objects.get(slug="h100-sxm")
    assert (h100.price_usd_per_hour, h100.price_updated_at) == (Decimal("2.50"), newer)
    assert points("h100-sxm") == [
        (Decimal("2.88"), NOW - timedelta(days=31), "launch"),
        (Decimal("2.10"), older, "import"),
        (Decimal("2.50"), newer, "import"),
    ]
    # The page's history has the older price in its place, and the current price is still the newer one.
    section = history_section(client, "h100-sxm", "en")
    assert (older.isoformat(), "$2.10") in table_points(section)
    assert table_points(section)[-1] == (newer.isoformat(), "$2.50")


def test_the_same_files_imported_again_add_no_point(launch_content):
    history_from("h100-sxm", NOW - timedelta(days=31))
    newer = csv_file(("h100-sxm", "2.50", NOW - timedelta(days=1)))
    older = csv_file(("h100-sxm", "2.10", NOW - timedelta(days=3)))
    for content in (newer, older):
        assert import_prices(content).applied
    count = PricePoint.objects.count()
    for content in (newer, older, newer):
        assert import_prices(content).applied
    assert PricePoint.objects.count() == count


def test_an_unchanged_price_adds_no_point(launch_content):
    history_from("b200", NOW - timedelta(days=31))
    assert import_prices(csv_file(("b200", "7.99", NOW - timedelta(days=1)))).unchanged == ["b200"]
    assert points("b200") == [(Decimal("7.99"), NOW - timedelta(days=31), "launch")]


def test_an_import_sends_one_event_with_exactly_the_changed_prices(launch_content, received):
    for slug in ("h100-sxm", "b200", "a100-sxm"):
        history_from(slug, NOW - timedelta(days=31))
    assert import_prices(csv_file(("h100-sxm", "2.50", NOW - timedelta(days=1)))).applied
    received.clear()
    content = csv_file(
        ("b200", "7.99", NOW - timedelta(hours=2)),  # unchanged
        ("h100-sxm", "2.10", NOW - timedelta(days=3)),  # older: history only
        ("a100-sxm", "1.55", NOW - timedelta(hours=1)),  # changed
    )
    assert import_prices(content).applied
    assert len(received) == 1
    [change] = received[0]
    assert (change.gpu.slug, change.old, change.new, change.time, change.source) == (
        "a100-sxm", Decimal("1.79"), Decimal("1.55"), NOW - timedelta(hours=1), PricePoint.Source.IMPORT)
    assert change.gpu.price_usd_per_hour == Decimal("1.55")
    received.clear()
    assert import_prices(content).applied  # nothing changes the second time
    assert received == []


def test_a_refused_file_records_and_sends_nothing(launch_content, received):
    before = PricePoint.objects.count()
    report = import_prices(csv_file(("h100-sxm", "2.50", NOW - timedelta(days=1)), ("nope", "1.00", NOW)))
    assert not report.applied
    assert PricePoint.objects.count() == before and received == []


def test_an_admin_edit_of_the_price_is_a_point_and_an_event(editor_client, launch_content, received):
    h100 = history_from("h100-sxm", NOW - timedelta(days=31))
    data = change_form_data(GPU.objects.get(pk=h100.pk))
    data["price_usd_per_hour"] = "2.45"
    edited_at = NOW - timedelta(days=1)  # after the launch price, 31 days ago: the history's last point
    data["price_updated_at_0"], data["price_updated_at_1"] = edited_at.date().isoformat(), edited_at.time().isoformat()
    with transaction.atomic():
        response = editor_client.post(reverse("admin:catalog_gpu_change", args=[h100.pk]), data)
    assert response.status_code == 302
    edited = GPU.objects.get(pk=h100.pk).price_updated_at
    assert edited.isoformat() == edited_at.isoformat() and edited.isoformat().endswith("+00:00")
    assert points("h100-sxm")[-1] == (Decimal("2.45"), edited, "admin")
    [[change]] = received
    assert (change.old, change.new, change.time, change.source) == (Decimal("2.88"), Decimal("2.45"), edited, "admin")


def test_an_admin_edit_without_a_new_time_dates_the_price_now(editor_client, launch_content, received):
    h100 = history_from("h100-sxm", NOW - timedelta(days=31))
    data = change_form_data(GPU.objects.get(pk=h100.pk))
    stored = timezone.localtime(NOW - timedelta(days=31))
    data["price_updated_at_0"], data["price_updated_at_1"] = stored.date().isoformat(), stored.time().isoformat()
    data["price_usd_per_hour"] = ""
    before = timezone.now()
    assert editor_client.post(reverse("admin:catalog_gpu_change", args=[h100.pk]), data).status_code == 302
    h100.refresh_from_db()
    assert h100.price_usd_per_hour is None and h100.price_updated_at >= before
    assert points("h100-sxm")[-1] == (None, h100.price_updated_at, "admin")
    assert [[(change.old, change.new) for change in changes] for changes in received] == [[(Decimal("2.88"), None)]]


def test_an_admin_edit_that_keeps_the_price_adds_no_point(editor_client, launch_content, received):
    h100 = history_from("h100-sxm", NOW - timedelta(days=31))
    data = change_form_data(GPU.objects.get(pk=h100.pk))
    data["name"] = "H100 SXM5"
    assert editor_client.post(reverse("admin:catalog_gpu_change", args=[h100.pk]), data).status_code == 302
    assert len(points("h100-sxm")) == 1 and received == []


def test_the_launch_content_records_a_launch_point_per_priced_gpu_once(launch_content):
    from tests.launch_copy import load_launch_content

    priced = GPU.objects.exclude(price_usd_per_hour=None)
    assert {(gpu.slug, gpu.price_usd_per_hour) for gpu in priced} == {
        (point.gpu.slug, point.usd_per_hour) for point in PricePoint.objects.select_related("gpu")}
    assert set(PricePoint.objects.values_list("source", flat=True)) == {"launch"}
    count = PricePoint.objects.count()
    load_launch_content()  # --reset with the same prices: the history already ends with them
    assert PricePoint.objects.count() == count
    GPU.objects.filter(slug="b200").update(price_usd_per_hour=Decimal("9.00"))
    PricePoint.objects.filter(gpu__slug="b200").update(usd_per_hour=Decimal("9.00"))
    load_launch_content()  # the file's price differs from the history's last: a new launch point
    assert [price for price, _time, _source in points("b200")] == [Decimal("9.00"), Decimal("7.99")]


def test_the_seed_migration_records_each_gpus_current_price(launch_content):
    seed = importlib.import_module("catalog.migrations.0007_seed_price_history").seed_price_points
    state = MigrationLoader(connection).project_state(("catalog", "0007_seed_price_history"))
    PricePoint.objects.all().delete()
    dated = NOW - timedelta(days=5)
    GPU.objects.filter(slug="b200").update(price_updated_at=dated)
    GPU.objects.filter(slug="h100-sxm").update(price_updated_at=None)  # a price without a time: dated now
    GPU.objects.filter(slug="a100-sxm").update(price_usd_per_hour=None, price_updated_at=dated)  # withdrawn
    GPU.objects.filter(slug="l40s").update(price_usd_per_hour=None, price_updated_at=None)  # nothing to record
    record_points([(GPU.objects.get(slug="mi300x"), Decimal("4.00"), dated)], "import")  # has history already
    before = timezone.now()
    seed(state.apps, None)
    assert points("b200") == [(Decimal("7.99"), dated, "launch")]
    [(price, moment, source)] = points("h100-sxm")
    assert price == Decimal("2.88") and moment >= before and source == "launch"
    assert points("a100-sxm") == [(None, dated, "launch")]
    assert points("l40s") == []
    assert points("mi300x") == [(Decimal("4.00"), dated, "import")]
    assert PricePoint.objects.count() == GPU.objects.count() - 1


# 2. The GPU page: changes over 7 and 30 days, one price, many prices, queries.


@pytest.mark.parametrize("language", LANGUAGES)
def test_changes_over_7_and_30_days_in_the_visitors_format(client, launch_content, language):
    history_from("h100-sxm", NOW - timedelta(days=45))
    record_points([(GPU.objects.get(slug="h100-sxm"), Decimal("3.00"), NOW - timedelta(days=45))], "import")
    PricePoint.objects.filter(gpu__slug="h100-sxm", usd_per_hour=Decimal("2.88")).delete()
    assert import_prices(csv_file(("h100-sxm", "2.40", NOW - timedelta(days=10)))).applied
    section = history_section(client, "h100-sxm", language)
    changes = {div.find("dt").squashed_text: div.find("dd").squashed_text for div in section.find_all("div")
               if "price-change" in div.classes}
    amount, share = Decimal("2.40") - Decimal("3.00"), (Decimal("2.40") - Decimal("3.00")) / Decimal("3.00")
    with translation.override(language):
        assert changes == {
            translation.ngettext("Change over %(days)s day", "Change over %(days)s days", 7) % {"days": 7}:
                gettext("No change"),
            translation.ngettext("Change over %(days)s day", "Change over %(days)s days", 30) % {"days": 30}:
                f"{signed_usd(amount, language)} ({signed_share(share, language)})",
        }


@pytest.mark.parametrize("language", ["es", "de"])
def test_a_rise_and_the_states_without_a_figure(client, launch_content, language):
    gpu = history_from("b200", NOW - timedelta(days=20))
    assert import_prices(csv_file(("b200", "8.39", NOW - timedelta(days=1)))).applied
    section = history_section(client, "b200", language)
    texts = [dd.squashed_text for dd in section.find_all("dd")]
    share = (Decimal("8.39") - Decimal("7.99")) / Decimal("7.99")
    with translation.override(language):
        assert texts == [f"{signed_usd(Decimal('0.40'), language)} ({signed_share(share, language)})",
                         gettext("No earlier price")]
    GPU.objects.filter(pk=gpu.pk).update(price_usd_per_hour=None)
    record_points([(gpu, None, NOW - timedelta(hours=1))], "admin")
    section = history_section(client, "b200", language)
    with translation.override(language):
        assert [dd.squashed_text for dd in section.find_all("dd")] == [gettext("No live offer now")] * 2
        assert table_points(section)[-1][1] == gettext("no live offer")
    # A withdrawn offer is a gap: the line has one run before it, none after.
    assert section.find("path", class_="chart-step-line").attrs["d"].count("M") == 1


@pytest.mark.parametrize("launched_days_ago", [None, 200], ids=["as loaded", "older than the window"])
def test_a_gpu_with_its_launch_price_only_says_one_line_without_a_chart_or_changes(client, launch_content,
                                                                                   launched_days_ago):
    """Issue 44: before a second price, one honest line instead of change figures and an empty chart, however long
    ago the launch was (a launch price has no time of day a flat chart's table could give)."""
    if launched_days_ago:
        history_from("b200", NOW - timedelta(days=launched_days_ago))
    section = history_section(client, "b200", "pt")
    assert section.find("svg") is None
    with translation.override("pt"):
        note = section.find("p", class_="empty-state").squashed_text
        assert note.startswith(gettext(
            "The price history starts at launch: %(price)s is the launch price of %(date)s.").split("%")[0])
        assert usd("7.99", "pt") in note
        assert section.find("dl") is None
        page = fetch(client, url_in("pt", "catalog:gpu_detail", {}, slug="b200"))
        assert gettext("No earlier price") not in page.squashed_text
        assert page.find(class_="price-change") is None


def test_a_gpu_with_one_imported_price_gives_its_date(client, launch_content):
    gpu = GPU.objects.get(slug="b200")
    PricePoint.objects.filter(gpu=gpu).delete()
    record_points([(gpu, Decimal("7.50"), NOW - timedelta(days=2))], "import")
    GPU.objects.filter(pk=gpu.pk).update(price_usd_per_hour=Decimal("7.50"), price_updated_at=NOW - timedelta(days=2),
                                         price_source="import")
    content_changed()
    section = history_section(client, "b200", "en")
    assert section.find("svg") is None and section.find("dl") is None
    note = section.find("p", class_="empty-state").squashed_text
    assert note.startswith("Only one price is known so far: $7.50 since")


def test_a_price_older_than_the_window_draws_a_flat_line_across_it(client, launch_content):
    """An imported price unchanged for 200 days (a launch price alone keeps its one line, whatever its age)."""
    gpu = history_from("b200", NOW - timedelta(days=200))
    GPU.objects.filter(pk=gpu.pk).update(price_source=PriceSource.IMPORT)
    PricePoint.objects.filter(gpu=gpu).update(source=PriceSource.IMPORT)
    section = history_section(client, "b200", "en")
    svg = section.find("svg")
    path = section.find("path", class_="chart-step-line").attrs["d"]
    grid = svg.find("g", class_="chart-grid").find_all("line")
    left, right = min(int(line.attrs["x1"]) for line in grid), max(int(line.attrs["x2"]) for line in grid)
    assert path.startswith(f"M{left} ") and path.endswith(f"H{right}") and path.count("H") == 1
    assert table_points(section) == [((NOW - timedelta(days=200)).isoformat(), "$7.99")]
    assert [dd.squashed_text for dd in section.find_all("dd")] == ["No change", "No change"]


def add_points(gpu, count, days=89):
    """``count`` alternating prices spread over the last ``days`` days, the GPU's price the last of them."""
    step = timedelta(days=days) / count
    prices = [Decimal("2.00") + Decimal(n % 7) / 10 for n in range(count)]
    PricePoint.objects.bulk_create(
        PricePoint(gpu=gpu, usd_per_hour=price, time=NOW - timedelta(days=days) + n * step, source="import")
        for n, price in enumerate(prices))
    GPU.objects.filter(pk=gpu.pk).update(price_usd_per_hour=prices[-1], price_updated_at=NOW)
    content_changed()


def test_many_prices_are_shown_as_each_days_last_price(client, launch_content):
    gpu = history_from("h100-sxm", NOW - timedelta(days=120))
    add_points(gpu, 2000)
    section = history_section(client, "h100-sxm", "en")
    rows = table_points(section)
    assert 2 <= len(rows) <= 92
    assert section.find("p", class_="chart-note").squashed_text == gettext(
        "The price changed many times: the chart and its data show the last price of each day.")
    assert rows[-1][1] == usd(GPU.objects.get(pk=gpu.pk).price_usd_per_hour, "en")


def test_the_gpu_page_queries_do_not_grow_with_its_history(client, launch_content):
    gpu = history_from("h100-sxm", NOW - timedelta(days=120))
    url = url_in("en", "catalog:gpu_detail", {}, slug="h100-sxm")
    add_points(gpu, 10)
    few = page_queries(client, url)
    add_points(gpu, 1000)
    assert page_queries(client, url) == few


# 3. The catalogue's 7-day change.


def set_change(slug, earlier, now_price):
    gpu = history_from(slug, NOW - timedelta(days=10))
    PricePoint.objects.filter(gpu=gpu).update(usd_per_hour=Decimal(earlier))
    GPU.objects.filter(pk=gpu.pk).update(price_usd_per_hour=Decimal(earlier))
    assert import_prices(csv_file((slug, now_price, NOW - timedelta(days=1)))).applied


def catalogue(client, language, sort):
    content_changed()
    document = fetch(client, url_in(language, "catalog:gpu_list", {"sort": sort}))
    headings = document.find("table", class_="gpu-table").find("thead").find_all("th")
    column = len(headings) - 1
    rows = document.find("table", class_="gpu-table").find("tbody").find_all("tr")
    return headings[column], [(row.find("a", class_="gpu-name").text, row.cells()[column].squashed_text)
                              for row in rows]


@pytest.mark.parametrize("language", ["de", "pt"])
def test_the_catalogue_sorts_by_the_7_day_change_both_ways(client, launch_content, language):
    launch_prices_dated(NOW - timedelta(hours=1))  # launched within the 7 days: the others have no earlier price
    set_change("h100-sxm", "2.00", "1.50")  # -25 %
    set_change("b200", "8.00", "8.80")  # +10 %
    set_change("l40s", "0.80", "0.78")  # -2.5 %
    others = sorted(GPU.objects.exclude(slug__in=["h100-sxm", "b200", "l40s"]).values_list("name", flat=True))
    with translation.override(language):
        no_earlier = gettext("No earlier price")
    expected = [("H100 SXM", signed_share(Decimal("-0.25"), language)),
                ("L40S", signed_share(Decimal("-0.025"), language)),
                ("B200", signed_share(Decimal("0.1"), language))]
    heading, rows = catalogue(client, language, "change-7d")
    assert rows == expected + [(name, no_earlier) for name in others]
    assert heading.attrs["aria-sort"] == "ascending"
    assert heading.find("a").attrs["href"] == "?sort=change-7d-rise"
    heading, rows = catalogue(client, language, "change-7d-rise")
    assert rows == expected[::-1] + [(name, no_earlier) for name in others]
    assert heading.attrs["aria-sort"] == "descending"
    assert heading.find("a").attrs["href"] == "?sort=change-7d"


def test_the_catalogue_hides_the_change_column_while_no_gpu_has_one(client, launch_content):
    heading, _rows = catalogue(client, "en", "memory")
    assert not heading.squashed_text.startswith("Price change over 7 days")
    set_change("b200", "8.00", "8.80")
    heading, _rows = catalogue(client, "en", "memory")
    assert heading.squashed_text.startswith("Price change over 7 days")


def test_the_catalogue_queries_do_not_grow_with_history(client, launch_content):
    url = url_in("en", "catalog:gpu_list", {"sort": "change-7d"})
    add_points(GPU.objects.get(slug="b200"), 10)
    few = page_queries(client, url)
    for gpu in GPU.objects.all():
        add_points(gpu, 200)
    assert page_queries(client, url) == few


# 4. The chart's geometry.


def test_the_step_chart_keeps_its_text_inside_and_leaves_gaps():
    start = NOW - timedelta(days=90)
    steps = [(start, Decimal("3.10")), (NOW - timedelta(days=40), None), (NOW - timedelta(days=30), Decimal("2.50")),
             (NOW - timedelta(days=5), Decimal("2.80"))]
    layout = step_chart(start, NOW, steps, "Highest: $3.10", "Lowest: $2.50", ["Now", "$2.80"],
                        [(start, "Sep 2"), (NOW, "Dec 1")])
    assert layout.path.count("M") == 2  # the withdrawn offer is a gap
    assert layout.path.startswith(f"M{layout.plot_left} {layout.plot_top}H")
    assert layout.path.endswith(f"H{layout.plot_right}")
    assert len(layout.points) == 2  # the first price came from before the window: no mark of its own
    for line in layout.current:
        assert line.x + text_width(line.text, FONT_SIZE, bold=True) <= layout.width
        assert 0 < line.y <= layout.height
    assert layout.high.y < layout.plot_top < layout.plot_bottom < layout.low.y < layout.height


def test_one_price_is_a_flat_line_in_the_middle():
    start = NOW - timedelta(days=90)
    layout = step_chart(start, NOW, [(start, Decimal("1.00"))], "Highest: $1.00", "Lowest: $1.00",
                        ["Now", "$1.00"], [])
    middle = (layout.plot_top + layout.plot_bottom) // 2
    assert layout.path == f"M{layout.plot_left} {middle}H{layout.plot_right}"
