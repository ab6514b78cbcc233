"""Supply beside demand (issue 45): the demand page shows, per GPU model, the GPUs the provider applications offer
(every application, and those of accepted ones) beside the renter signups that chose the model and its confirmed
price alerts; GPUs the catalogue lacks by their name; applications sent as free text counted as unstructured.
Counted here from the rows the test makes; the page and its CSV show the same, in queries that do not grow."""
import csv
import io
from collections import Counter
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalog.models import GPU
from demand import figures

from .. import factories
from ..html import Page

AT = datetime(2026, 12, 1, tzinfo=UTC)
# (status, [(catalogue slug or None, name, count)], free text)
APPLICATIONS = [
    ("new", [("h100-sxm", "H100 SXM", 16), (None, "MI250", 8)], ""),
    ("accepted", [("h100-sxm", "H100 SXM", 8), ("rtx-4090", "RTX 4090", 24)], ""),
    ("declined", [(None, "MI250", 4), (None, "Gaudi 3", 2)], ""),
    ("contacted", [], "32 × A100 80 GB in Oslo"),
]


@pytest.fixture
def superuser_client(client, db):
    client.force_login(get_user_model().objects.create_superuser("founder", "founder@example.com", "a-long-pass-1"))
    return client


def application(status, rows, free_text):
    made = factories.provider_application(gpus=free_text, server_locations="Oslo" if free_text else "",
                                          status=status, submitted_at=AT)
    for order, (slug, name, count) in enumerate(rows):
        factories.offered_gpu(application=made, order=order, gpu=GPU.objects.get(slug=slug) if slug else None,
                              name=name, count=count)
    return made


@pytest.fixture
def supply_rows(launch_content):
    for status, rows, free_text in APPLICATIONS:
        application(status, rows, free_text)
    h100, b200 = GPU.objects.get(slug="h100-sxm"), GPU.objects.get(slug="b200")
    for gpu, confirmed in [(h100, True), (h100, False), (b200, True)]:
        factories.signup(gpu=gpu, gpu_count=8, confirmed_at=AT if confirmed else None)
    for confirmed in [True, True, False]:
        factories.price_alert(gpu=b200, target_usd_per_hour="5.00", confirmed_at=AT if confirmed else None)


def expected_rows():
    """{group: (offered, offered in accepted applications, applications)} from APPLICATIONS."""
    offered, accepted, applications = Counter(), Counter(), Counter()
    for status, rows, _free_text in APPLICATIONS:
        for slug, name, count in rows:
            group = slug or f"other={name}"
            offered[group] += count
            accepted[group] += count if status == "accepted" else 0
        for group in {slug or f"other={name}" for slug, name, _count in rows}:
            applications[group] += 1
    return {group: (offered[group], accepted[group], applications[group]) for group in offered}


def test_the_figures_are_the_rows_counted(supply_rows):
    supply = figures.supply()
    rows = {row.gpu_slug or f"other={row.gpu_name}": row for row in supply.rows}
    assert {group: (row.offered, row.offered_accepted, row.applications) for group, row in rows.items()} == {
        **expected_rows(), "b200": (0, 0, 0)}
    assert (rows["h100-sxm"].signups, rows["h100-sxm"].alerts) == ((1, 2), 0)
    assert (rows["b200"].signups, rows["b200"].alerts) == ((1, 1), 2)
    assert supply.unstructured_applications == 1
    # Catalogue GPUs first, most offered first (then most signups); then other GPUs by name.
    assert [row.gpu_slug or row.gpu_name for row in supply.rows] == [
        "h100-sxm", "rtx-4090", "b200", "Gaudi 3", "MI250"]


def test_the_page_shows_supply_beside_demand_and_the_csv_holds_it(superuser_client, supply_rows):
    response = superuser_client.get(reverse("admin:signups_demand"))
    main = Page(response.content.decode()).document.by_id("content-main")
    table = next(table for table in main.find_all("table")
                 if table.closest("div").attrs.get("aria-labelledby") == "demand-supply")
    cells = {row.cells()[0].visible_text: [cell.visible_text for cell in row.cells()[1:]]
             for row in table.rows()[1:]}
    assert cells["H100 SXM"] == ["24 (8)", "2", "1 / 2", "0"]
    assert cells["B200"] == ["0 (0)", "0", "1 / 1", "2"]
    assert cells["other: MI250"] == ["12 (0)", "2", "0 / 0", "0"]
    assert "1 application sent before GPU rows" in main.visible_text

    text = superuser_client.get(reverse("admin:signups_demand_csv")).content.decode()
    values = {tuple(row[:4]): row[4] for row in csv.reader(io.StringIO(text))}
    for group, (offered, accepted, applications) in expected_rows().items():
        assert values[("supply_by_gpu", "total", group, "gpus_offered")] == str(offered)
        assert values[("supply_by_gpu", "total", group, "gpus_offered_accepted")] == str(accepted)
        assert values[("supply_by_gpu", "total", group, "applications")] == str(applications)
    assert values[("supply_by_gpu", "total", "b200", "signups_all")] == "1"
    assert values[("supply_by_gpu", "total", "b200", "price_alerts_confirmed")] == "2"
    assert values[("supply_by_gpu", "total", "unstructured", "applications")] == "1"
    assert "@" not in text


def test_queries_do_not_grow_with_applications(superuser_client, supply_rows):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert superuser_client.get(reverse("admin:signups_demand")).status_code == 200
        return len(captured)

    before = queries()
    for number in range(5):
        application("new", [("b200", "B200", 8), (None, f"Other {number}", 1)], "")
    assert queries() == before
