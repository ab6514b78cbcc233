"""The founders' demand page in the admin: signups per week by workload, currency and language, confirmed
price alerts per GPU against today's price, and the CSV export of the same figures. The figures are computed
here from the rows the test creates; the page and the CSV must show them, with no address anywhere. Only
superusers reach it: an editor, or staff with every signups permission, is refused."""
import csv
import io
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from statistics import median

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.formats import date_format

from catalog.models import GPU
from demand import figures
from signups.models import Signup
from workloads.models import Workload

from .. import factories
from ..editors import create_editor
from ..html import Page
from ..queries import add_test_gpus

PAGE, CSV_EXPORT = "admin:signups_demand", "admin:signups_demand_csv"
# (day, hour, workload key or None, currency, language, confirmed)
SIGNUPS = [
    (date(2026, 11, 16), 9, "llm-training", "EUR", "es", True),
    (date(2026, 11, 18), 23, "llm-training", "EUR", "de", False),
    (date(2026, 11, 22), 23, None, "USD", "en", True),  # Sunday: still the week of the 16th
    (date(2026, 11, 23), 0, "llm-training", "GBP", "de", True),  # Monday: the next week
    (date(2026, 11, 24), 12, "llm-inference", "EUR", "pt", True),
    (date(2026, 11, 29), 8, "llm-inference", "EUR", "es", False),
    (date(2026, 11, 2), 10, None, "GBP", "es", False),
]


@pytest.fixture
def superuser_client(client, db):
    client.force_login(get_user_model().objects.create_superuser("founder", "founder@example.com", "a-long-pass-1"))
    return client


@pytest.fixture
def signups(launch_content):
    workloads = {workload.key: workload for workload in Workload.objects.all()}
    rows = []
    for day, hour, workload, currency, language, confirmed in SIGNUPS:
        moment = datetime(day.year, day.month, day.day, hour, tzinfo=UTC)
        rows.append(factories.signup(
            currency=currency, language=language, workload=workloads[workload] if workload else None,
            signed_up_at=moment, confirmed_at=moment + timedelta(minutes=5) if confirmed else None,
        ))
    return rows


def alert(gpu, target, confirmed=True):
    return factories.price_alert(gpu=gpu, target_usd_per_hour=Decimal(target),
                                 confirmed_at=datetime(2026, 11, 30, tzinfo=UTC) if confirmed else None)


@pytest.fixture
def alerts(launch_content):
    """H100 SXM at 2.00 with one target in each band and one on each band's lower edge; A100 without an offer."""
    h100 = GPU.objects.get(slug="h100-sxm")
    GPU.objects.filter(pk=h100.pk).update(price_usd_per_hour=Decimal("2.00"))
    a100 = GPU.objects.get(slug="a100-sxm")
    GPU.objects.filter(pk=a100.pk).update(price_usd_per_hour=None)
    targets = ["2.00", "2.40", "1.90", "1.80", "1.60", "1.50", "1.20", "1.00", "0.99", "0.40"]
    rows = [alert(h100, target) for target in targets]
    rows.append(alert(h100, "0.10", confirmed=False))  # not counted
    rows += [alert(a100, target) for target in ["1.00", "1.25"]]
    return rows


def week_of(moment):
    day = moment.date()
    return day - timedelta(days=day.weekday())


def expected_signup_counts(rows, dimension):
    """{(week, group): (confirmed, all)}, counted from the rows themselves."""
    counts = {}
    for row in rows:
        group = {"workload": row.workload.key if row.workload else "", "currency": row.currency,
                 "language": row.language}[dimension]
        key = (week_of(row.signed_up_at), group)
        confirmed, total = counts.get(key, (0, 0))
        counts[key] = (confirmed + (row.confirmed_at is not None), total + 1)
    return counts


def expected_band(target, price):
    ratio = Decimal(target) / price
    if ratio >= 1:
        return "at_or_above"
    if ratio >= Decimal("0.9"):
        return "below_0_10"
    if ratio >= Decimal("0.75"):
        return "below_10_25"
    if ratio >= Decimal("0.5"):
        return "below_25_50"
    return "below_50"


def test_the_figures_are_the_rows_counted(signups, alerts):
    demand = figures.demand()
    for table in demand.signup_tables:
        expected = expected_signup_counts(signups, table.key)
        shown = {(week, group): cell for week, cells in table.weeks
                 for group, cell in zip(table.groups, cells, strict=True) if cell != (0, 0)}
        assert shown == expected, table.key
        assert [week for week, _cells in table.weeks] == sorted({week for week, _group in expected}, reverse=True)
        assert sum(total for _confirmed, total in table.totals) == len(signups)
    rows = {row.gpu_slug: row for row in demand.alert_rows}
    assert set(rows) == {"h100-sxm", "a100-sxm"}
    confirmed = [a for a in alerts if a.confirmed_at]
    h100_targets = [a.target_usd_per_hour for a in confirmed if a.gpu.slug == "h100-sxm"]
    assert rows["h100-sxm"].confirmed == len(h100_targets)
    assert rows["h100-sxm"].median_target == median(h100_targets)
    expected_bands = dict.fromkeys((band.key for band in figures.BANDS), 0)
    for target in h100_targets:
        expected_bands[expected_band(target, Decimal("2.00"))] += 1
    assert rows["h100-sxm"].bands == expected_bands
    assert all(expected_bands.values())  # every band has a target in this test
    assert rows["a100-sxm"].price is None and rows["a100-sxm"].bands == {}
    assert rows["a100-sxm"].median_target == Decimal("1.125")


def confirmed_and_all(cell):
    """A cell of a signup table, "3 / 5", as (3, 5)."""
    confirmed, total = cell.split("/")
    return int(confirmed), int(total)


def page_tables(client):
    """The response and the tables of the page's content (the admin's sidebar has tables too): workload,
    currency, language, price alerts; each as rows of cell texts."""
    response = client.get(reverse(PAGE))
    assert response.status_code == 200
    main = Page(response.content.decode()).document.by_id("content-main")
    return response, main, [[[cell.visible_text for cell in row.cells()] for row in table.rows()]
                            for table in main.find_all("table")]


def test_the_superuser_sees_the_figures_and_no_address(superuser_client, signups, alerts):
    response, main, tables = page_tables(superuser_client)
    body = response.content.decode()
    for person in [*signups, *alerts]:
        assert person.email not in body
    assert "@" not in main.text
    currency, language = tables[1], tables[2]
    assert [cell.strip() for cell in currency[0][1:]] == [label for _code, label in sorted(Signup.Currency.choices)]
    expected = expected_signup_counts(signups, "currency")
    codes = sorted({code for _week, code in expected})
    weeks = sorted({week for week, _code in expected}, reverse=True)
    for week, row in zip(weeks, currency[1:-1], strict=True):
        assert row[0].strip() == date_format(week, "DATE_FORMAT")
        assert [confirmed_and_all(cell) for cell in row[1:]] == [expected.get((week, code), (0, 0)) for code in codes]
    totals = [confirmed_and_all(cell) for cell in currency[-1][1:]]
    assert sum(total for _confirmed, total in totals) == len(signups)
    assert sum(confirmed for confirmed, _total in totals) == sum(1 for s in signups if s.confirmed_at)
    assert sum(confirmed_and_all(cell)[1] for cell in language[-1][1:]) == len(signups)
    alert_table = tables[3]
    h100 = next(row for row in alert_table if row[0].strip() == "H100 SXM")
    assert h100[1].strip() == "10"
    assert [int(cell) for cell in h100[3:3 + len(figures.BANDS)]] == list(
        next(r for r in figures.demand().alert_rows if r.gpu_slug == "h100-sxm").bands.values())


def test_the_csv_has_the_pages_figures_and_nothing_personal(superuser_client, signups, alerts):
    response = superuser_client.get(reverse(CSV_EXPORT))
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="demand-')
    text = response.content.decode()
    assert "@" not in text
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["table", "week", "group", "measure", "value"]
    values = {tuple(row[:4]): row[4] for row in rows[1:]}
    _response, _main, tables = page_tables(superuser_client)
    # The currency table of the page, cell by cell, is in the CSV.
    currency = tables[1]
    codes = sorted(code for code, _label in Signup.Currency.choices if any(s.currency == code for s in signups))
    weeks = [week for week, _cells in figures.demand().signup_tables[1].weeks]
    for week, row in zip([*weeks, "total"], currency[1:], strict=True):
        week_text = week if week == "total" else week.isoformat()
        for code, cell in zip(codes, row[1:], strict=True):
            confirmed, total = confirmed_and_all(cell)
            assert values[("signups_by_currency", week_text, code, "confirmed")] == str(confirmed)
            assert values[("signups_by_currency", week_text, code, "all")] == str(total)
    assert values[("signups_by_workload", "total", "none", "all")] == str(sum(1 for s in signups if not s.workload))
    h100 = next(row for row in tables[3] if row[0].strip() == "H100 SXM")
    for index, band in enumerate(figures.BANDS):
        assert values[("price_alerts", "", "h100-sxm", f"targets_{band.key}")] == h100[3 + index].strip()
    assert Decimal(values[("price_alerts", "", "a100-sxm", "median_target_usd_per_hour")]) == Decimal("1.125")
    assert ("price_alerts", "", "a100-sxm", "targets_at_or_above") not in values


def test_editors_and_other_staff_are_refused(client, signups):
    editor = create_editor()
    client.force_login(editor)
    for name in (PAGE, CSV_EXPORT):
        assert client.get(reverse(name)).status_code == 403
    assert reverse(PAGE) not in client.get(reverse("admin:index")).content.decode()
    staff = get_user_model().objects.create_user("clerk", "clerk@example.com", "a-long-pass-2", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label="signups"))
    client.force_login(staff)
    for name in (PAGE, CSV_EXPORT):
        assert client.get(reverse(name)).status_code == 403
    client.logout()
    response = client.get(reverse(PAGE))
    assert response.status_code == 302 and reverse("admin:login") in response["Location"]


def test_the_admin_index_links_the_page_for_superusers(superuser_client, db):
    body = superuser_client.get(reverse("admin:index")).content.decode()
    assert f'href="{reverse(PAGE)}"' in body


def test_queries_do_not_grow_with_signups_gpus_or_alerts(superuser_client, signups, alerts):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert superuser_client.get(reverse(PAGE)).status_code == 200
        return len(captured)

    before = queries()
    add_test_gpus(4)
    for number, gpu in enumerate(GPU.objects.filter(vendor="Test")):
        alert(gpu, "0.50")
        factories.signup(currency="USD", language="pt", signed_up_at=datetime(2026, 10, 5 + number, tzinfo=UTC))
    assert queries() == before
