"""Price files from the market feed: validated, applied all or nothing, reported, seen at once."""
import io
import json
from datetime import datetime, timezone
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from catalog.models import GPU
from catalog.price_import import import_prices
from workloads.models import Workload

from .deck import squash

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


def prices():
    return dict(GPU.objects.values_list("slug", "price_usd_per_hour"))


def test_a_valid_csv_is_applied_and_reported(launch_content):
    content = "gpu,usd_per_hour,time\nh100-sxm,2.50,2026-11-30T10:00:00Z\nb200,7.99,2026-11-30T10:00:00+00:00\n"
    report = import_prices(content, "feed.csv", now=NOW)
    assert report.applied and report.refused == []
    assert [(c.slug, c.old, c.new) for c in report.changes] == [("h100-sxm", Decimal("2.88"), Decimal("2.50"))]
    assert report.unchanged == ["b200"]
    h100 = GPU.objects.get(slug="h100-sxm")
    assert h100.price_usd_per_hour == Decimal("2.50")
    assert h100.price_updated_at == datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)


def test_a_valid_json_file_is_applied(launch_content):
    content = json.dumps([{"gpu": "a100-sxm", "usd_per_hour": "1.55", "time": "2026-11-30T09:30:00+01:00"}])
    report = import_prices(content.encode(), "feed.json", now=NOW)
    assert report.applied
    assert GPU.objects.get(slug="a100-sxm").price_updated_at == datetime(2026, 11, 30, 8, 30, tzinfo=timezone.utc)


@pytest.mark.parametrize("bad_row, reason_words", [
    ("no-such-gpu,1.00,2026-11-30T10:00:00Z", "unknown GPU"),
    ("b200,-1,2026-11-30T10:00:00Z", "between 0 and"),
    ("b200,abc,2026-11-30T10:00:00Z", "not a number"),
    ("b200,NaN,2026-11-30T10:00:00Z", "not a number"),
    ("b200,1.999,2026-11-30T10:00:00Z", "two decimals"),
    ("b200,5000,2026-11-30T10:00:00Z", "between 0 and"),
    ("b200,1.00,yesterday", "ISO 8601"),
    ("b200,1.00,2026-11-30T10:00:00", "ISO 8601"),
    ("b200,1.00,2027-01-01T10:00:00Z", "future"),
    ("h100-sxm,2.40,2026-11-30T10:00:00Z", "appears twice"),
])
def test_one_bad_row_changes_nothing(launch_content, bad_row, reason_words):
    before = prices()
    content = f"gpu,usd_per_hour,time\nh100-sxm,2.50,2026-11-30T10:00:00Z\n{bad_row}\n"
    report = import_prices(content, "feed.csv", now=NOW)
    assert not report.applied
    assert [number for number, _reason in report.refused] == [2]
    assert reason_words in report.refused[0][1]
    assert prices() == before


@pytest.mark.parametrize("content", [b"", b"\xff\xfe\x00garbage", b"gpu;price\nb200;1", b'{"prices": 3}', b"[1, 2]"])
def test_unreadable_files_change_nothing(launch_content, content):
    before = prices()
    report = import_prices(content, "feed", now=NOW)
    assert not report.applied and report.refused
    assert prices() == before


def test_the_command_reports_and_fails_on_bad_rows(launch_content, tmp_path):
    good = tmp_path / "good.csv"
    good.write_text("gpu,usd_per_hour,time\nh100-sxm,2.50,2026-11-30T10:00:00Z\n")
    out = io.StringIO()
    call_command("import_prices", str(good), stdout=out)
    assert "changed h100-sxm: 2.88 → 2.50" in out.getvalue()
    bad = tmp_path / "bad.csv"
    bad.write_text("gpu,usd_per_hour,time\nh100-sxm,2.10,2026-11-30T10:00:00Z\nnope,1,2026-11-30T10:00:00Z\n")
    with pytest.raises(CommandError):
        call_command("import_prices", str(bad), stdout=io.StringIO(), stderr=io.StringIO())
    assert GPU.objects.get(slug="h100-sxm").price_usd_per_hour == Decimal("2.50")
    with pytest.raises(CommandError):
        call_command("import_prices", str(tmp_path / "missing.csv"))


def test_an_import_is_seen_at_once_on_cached_pages(client, launch_content):
    url_es = Workload.objects.get(key="llm-training").get_absolute_url("es")
    assert "desde2,88US$" in squash(client.get(url_es).content.decode())
    import_prices("gpu,usd_per_hour,time\nh100-sxm,2.50,2026-11-30T10:00:00Z\n", "feed.csv", now=NOW)
    assert "desde2,50US$" in squash(client.get(url_es).content.decode())


def test_the_admin_upload_applies_a_file_and_reports_refusals(client, launch_content):
    user = get_user_model().objects.create_superuser("boss", "boss@example.com", "a-long-test-password")
    client.force_login(user)
    url = reverse("admin:catalog_gpu_import_prices")
    bad = SimpleUploadedFile("feed.csv", b"gpu,usd_per_hour,time\nh100-sxm,2.50,2026-11-30T10:00:00Z\nnope,1,2026-11-30T10:00:00Z\n")
    response = client.post(url, {"price_file": bad})
    assert response.status_code == 200
    assert "unknown GPU" in response.content.decode()
    assert GPU.objects.get(slug="h100-sxm").price_usd_per_hour == Decimal("2.88")
    good = SimpleUploadedFile("feed.csv", b"gpu,usd_per_hour,time\nh100-sxm,2.50,2026-11-30T10:00:00Z\n")
    response = client.post(url, {"price_file": good})
    assert response.status_code == 200
    assert GPU.objects.get(slug="h100-sxm").price_usd_per_hour == Decimal("2.50")


def test_workload_pages_say_when_their_prices_were_updated(client, launch_content):
    training = Workload.objects.get(key="llm-training")
    slugs = [row.gpu.slug for row in training.rows.select_related("gpu")]
    content = "gpu,usd_per_hour,time\n" + "".join(f"{slug},1.00,2026-11-29T10:00:00Z\n" for slug in slugs)
    assert import_prices(content, "feed.csv", now=NOW).applied
    page = client.get(training.get_absolute_url("es")).content.decode()
    assert 'Precios actualizados el <time datetime="2026-11-29T10:00:00+00:00">29 de noviembre de 2026, 10:00:00 UTC</time>' in page
    german = client.get(training.get_absolute_url("de")).content.decode()
    assert "Preise aktualisiert am" in german and "29. November 2026" in german
