"""Price files from the market feed: validated, applied all or nothing, reported, seen at once."""
import io
import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from catalog.models import GPU
from prices.price_import import import_prices
from workloads.models import Workload

from ..deck import squash
from ..html import Page

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
LAUNCH_PRICES_TIME = datetime(2026, 11, 1, tzinfo=UTC)


@pytest.fixture
def launch_content(launch_content):
    """The launch content, its prices dated before every time in these tests' files (loading dates them now)."""
    GPU.objects.update(price_updated_at=LAUNCH_PRICES_TIME)


@pytest.fixture
def editor_client(client, db):
    user = get_user_model().objects.create_superuser("boss", "boss@example.com", "a-long-test-password")
    client.force_login(user)
    return client


def upload(client, name, content, **headers):
    """The admin's import page, given one file; the response."""
    return client.post(
        reverse("admin:catalog_gpu_import_prices"), {"price_file": SimpleUploadedFile(name, content)}, **headers,
    )


def run_command(path):
    """The import command on a file, in the site's default language: (applied, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with translation.override(settings.LANGUAGE_CODE):
            call_command("import_prices", str(path), stdout=out, stderr=err)
    except CommandError:
        return False, out.getvalue(), err.getvalue()
    return True, out.getvalue(), err.getvalue()


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
    assert h100.price_updated_at == datetime(2026, 11, 30, 10, 0, tzinfo=UTC)


def test_a_valid_json_file_is_applied(launch_content):
    content = json.dumps([{"gpu": "a100-sxm", "usd_per_hour": "1.55", "time": "2026-11-30T09:30:00+01:00"}])
    report = import_prices(content.encode(), "feed.json", now=NOW)
    assert report.applied
    assert GPU.objects.get(slug="a100-sxm").price_updated_at == datetime(2026, 11, 30, 8, 30, tzinfo=UTC)


@pytest.mark.parametrize("bad_row, reason_words", [
    ("no-such-gpu,1.00,2026-11-30T10:00:00Z", "unknown GPU"),
    ("b200,-1,2026-11-30T10:00:00Z", "more than 0 and at most 1000"),
    ("b200,0,2026-11-30T10:00:00Z", "more than 0 and at most 1000"),
    ("b200,0.00,2026-11-30T10:00:00Z", "more than 0 and at most 1000"),
    ("b200,,2026-11-30T10:00:00Z", "no price"),
    ("b200,abc,2026-11-30T10:00:00Z", "not a number"),
    ("b200,NaN,2026-11-30T10:00:00Z", "not a number"),
    ("b200,1.999,2026-11-30T10:00:00Z", "two decimals"),
    ("b200,5000,2026-11-30T10:00:00Z", "more than 0 and at most 1000"),
    ("b200,1.00,yesterday", "ISO 8601"),
    ("b200,1.00,2026-11-30T10:00:00", "ISO 8601"),
    ("b200,1.00,2027-01-01T10:00:00Z", "future"),
    ("b200,1.00,2026-11-30T12:06:00Z", "future"),
    ("b200,1.00,1999-12-31T23:59:59Z", "before 2000-01-01"),
    ("b200,1.00,0001-01-01T00:00:00+14:00", "before 2000-01-01"),
    ("b200,1.00,9999-12-31T23:59:59-14:00", "future"),
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
    bad = SimpleUploadedFile(
        "feed.csv", b"gpu,usd_per_hour,time\nh100-sxm,2.50,2026-11-30T10:00:00Z\nnope,1,2026-11-30T10:00:00Z\n",
    )
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
    assert (
        'Precios actualizados el <time datetime="2026-11-29T10:00:00+00:00">'
        "29 de noviembre de 2026, 10:00:00 UTC</time>"
    ) in page
    german = client.get(training.get_absolute_url("de")).content.decode()
    assert "Preise aktualisiert am" in german and "29. November 2026" in german


def test_a_time_a_few_minutes_ahead_is_a_clock_difference_and_accepted(launch_content):
    content = "gpu,usd_per_hour,time\nb200,7.50,2026-11-30T12:04:00Z\n"
    assert import_prices(content, "feed.csv", now=NOW).applied
    assert GPU.objects.get(slug="b200").price_updated_at == datetime(2026, 11, 30, 12, 4, tzinfo=UTC)


def test_a_row_older_than_the_current_price_is_kept_by_the_command(launch_content, tmp_path):
    newer = tmp_path / "newer.csv"
    newer.write_text("gpu,usd_per_hour,time\nh100-sxm,2.50,2026-11-30T10:00:00Z\n")
    assert run_command(newer)[0]
    older = tmp_path / "older.csv"
    older.write_text("gpu,usd_per_hour,time\nb200,7.50,2026-11-30T11:00:00Z\nh100-sxm,2.10,2026-11-29T10:00:00Z\n")
    applied, out, _err = run_command(older)
    assert applied, "an older row is not an error: the rest of the file applies"
    assert "row 2, h100-sxm: older than the current price: recorded as history only" in out
    h100 = GPU.objects.get(slug="h100-sxm")
    assert h100.price_usd_per_hour == Decimal("2.50")
    assert h100.price_updated_at == datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
    assert GPU.objects.get(slug="b200").price_usd_per_hour == Decimal("7.50")


def test_a_row_older_than_the_current_price_is_kept_by_the_admin(editor_client, launch_content):
    assert upload(
        editor_client, "feed.csv", b"gpu,usd_per_hour,time\nh100-sxm,2.50,2026-11-30T10:00:00Z\n",
    ).status_code == 200
    response = upload(editor_client, "feed.json", json.dumps([
        {"gpu": "b200", "usd_per_hour": "7.50", "time": "2026-11-30T11:00:00Z"},
        {"gpu": "h100-sxm", "usd_per_hour": "2.10", "time": "2026-11-30T09:59:59Z"},
    ]).encode())
    assert response.status_code == 200
    page = Page(response.content.decode())
    kept_rows = [row for index in range(len(page.tables)) for row in page.table_cells(index)
                 if "history only" in " ".join(row)]
    assert kept_rows == [
        ["2", "h100-sxm", "2026-11-30T09:59:59+00:00", "older than the current price: recorded as history only"]]
    assert GPU.objects.get(slug="h100-sxm").price_usd_per_hour == Decimal("2.50")
    assert GPU.objects.get(slug="b200").price_usd_per_hour == Decimal("7.50")


def test_a_row_as_old_as_the_current_price_is_applied(launch_content):
    import_prices("gpu,usd_per_hour,time\nh100-sxm,2.50,2026-11-30T10:00:00Z\n", "feed.csv", now=NOW)
    report = import_prices("gpu,usd_per_hour,time\nh100-sxm,2.40,2026-11-30T10:00:00Z\n", "feed.csv", now=NOW)
    assert report.applied and report.kept == []
    assert GPU.objects.get(slug="h100-sxm").price_usd_per_hour == Decimal("2.40")


def test_a_zero_price_is_refused_by_the_admin_upload_and_the_command(editor_client, launch_content, tmp_path):
    zero = b"gpu,usd_per_hour,time\nb200,0.00,2026-11-30T10:00:00Z\n"
    response = upload(editor_client, "feed.csv", zero, HTTP_ACCEPT_LANGUAGE="es")
    assert "el precio debe ser mayor que 0" in response.content.decode()
    path = tmp_path / "zero.csv"
    path.write_bytes(zero)
    applied, _out, err = run_command(path)
    assert not applied and "more than 0" in err
    assert GPU.objects.get(slug="b200").price_usd_per_hour == Decimal("7.99")


DEEP_JSON = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize("name, content, english, german", [
    ("feed.csv", b"gpu,usd_per_hour,time\nb200,1.00,0001-01-01T00:00:00+14:00\n",
     "before 2000-01-01", "vor dem 2000-01-01"),
    ("feed.csv", b"gpu,usd_per_hour,time\nb200,1.00,9999-12-31T23:59:59-14:00\n", "future", "Zukunft"),
    ("feed.json", DEEP_JSON, "nested too deeply", "zu tief verschachtelt"),
    ("feed.json", b'{"prices": [{"gpu": "b200", "usd_per_hour": [[[[' + b"[" * 100_000 + b"]" * 100_004 + b"}]}",
     "nested too deeply", "zu tief verschachtelt"),
])
def test_extreme_files_are_refused_with_a_message_not_an_error(editor_client, launch_content, tmp_path,
                                                               name, content, english, german):
    before = prices()
    response = upload(editor_client, name, content, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert german in response.content.decode()
    path = tmp_path / name
    path.write_bytes(content)
    applied, _out, err = run_command(path)
    assert not applied and english in err
    assert prices() == before


# Files that are too large, have other columns or a malformed line; files read as a stream.

GOOD_ROW = "h100-sxm,2.50,2026-11-30T10:00:00Z\n"


@pytest.mark.parametrize("header, names", [
    ("gpu,usd_per_hour,time,provider", "“provider”"),
    ("region,gpu,usd_per_hour,time,note", "“region”, “note”"),
])
def test_unknown_columns_are_refused_and_named(launch_content, tmp_path, header, names):
    before = prices()
    extra = "x," if header.startswith("region") else ""
    content = f"{header}\n{extra}{GOOD_ROW.strip()}{',y' if header.endswith(('provider', 'note')) else ''}\n"
    report = import_prices(content, "feed.csv", now=NOW)
    assert not report.applied and report.refused == [
        (0, f"unknown columns: {names} (a price file has the columns gpu, usd_per_hour and time only)")]
    path = tmp_path / "feed.csv"
    path.write_text(content)
    applied, _out, err = run_command(path)
    assert not applied and names in err
    assert prices() == before


def test_unknown_keys_of_a_json_row_are_refused_and_named(launch_content):
    content = json.dumps([{"gpu": "h100-sxm", "usd_per_hour": "2.50", "time": "2026-11-30T10:00:00Z", "region": "eu"}])
    report = import_prices(content, "feed.json", now=NOW)
    assert not report.applied and len(report.refused) == 1
    assert report.refused[0][0] == 1 and "unknown keys: “region”" in report.refused[0][1]


@pytest.mark.parametrize("content, line", [
    (f'gpu,usd_per_hour,time\n{GOOD_ROW}"b200,7.50,2026-11-30T10:00:00Z\nh200,3.10,2026-11-30T10:00:00Z\n', 3),
    (f'gpu,usd_per_hour,time\n{GOOD_ROW}{GOOD_ROW.replace("h100-sxm", "b200")}"b200"x,7.50,2026-11-30T10:00:00Z\n', 4),
])
def test_a_malformed_quote_is_named_with_its_line_not_as_an_unknown_gpu(launch_content, tmp_path, content, line):
    report = import_prices(content, "feed.csv", now=NOW)
    assert not report.applied
    reasons = [reason for _number, reason in report.refused]
    assert not any("unknown GPU" in reason for reason in reasons)
    assert f"line {line} has a malformed quote" in reasons[-1]
    path = tmp_path / "feed.csv"
    path.write_text(content)
    applied, _out, err = run_command(path)
    assert not applied and f"line {line} has a malformed quote" in err


def test_a_row_with_more_fields_than_the_header_is_refused_as_such(launch_content):
    report = import_prices(f"gpu,usd_per_hour,time\n{GOOD_ROW}b200,7.50,2026-11-30T10:00:00Z,extra\n", "feed.csv",
                           now=NOW)
    assert not report.applied and report.refused == [(2, "the row has 4 fields, the header 3 columns")]


def test_a_file_above_the_size_cap_is_refused_before_it_is_read(launch_content, tmp_path, settings):
    settings.PRICE_IMPORT_MAX_BYTES = 1000
    content = "gpu,usd_per_hour,time\n" + GOOD_ROW * 40
    report = import_prices(content.encode(), "feed.csv", now=NOW)
    assert not report.applied and len(report.refused) == 1 and "larger than" in report.refused[0][1]
    path = tmp_path / "big.csv"
    path.write_text(content)
    refusal = rf"has {len(content):,} bytes, more than the 1,000 an import reads \(PRICE_IMPORT_MAX_BYTES\)"
    with pytest.raises(CommandError, match=refusal):
        call_command("import_prices", str(path), stdout=io.StringIO(), stderr=io.StringIO())


def test_a_json_file_above_its_own_cap_is_refused_with_a_pointer_to_csv(launch_content, settings):
    settings.PRICE_IMPORT_MAX_JSON_BYTES = 100
    content = json.dumps([{"gpu": "h100-sxm", "usd_per_hour": "2.50", "time": "2026-11-30T10:00:00Z"}] * 5)
    report = import_prices(content, "feed.json", now=NOW)
    assert not report.applied and "as CSV" in report.refused[0][1]


def test_a_line_longer_than_any_price_row_is_refused_without_reading_it_whole(launch_content):
    report = import_prices("gpu,usd_per_hour,time\n" + "h" * 1_000_000, "feed.csv", now=NOW)
    assert not report.applied and report.refused == [(0, "line 2 is longer than 10000 characters: no price row is")]


def test_refusals_beyond_the_first_hundred_are_counted_not_listed(launch_content):
    content = "gpu,usd_per_hour,time\n" + "no-such-gpu,1.00,2026-11-30T10:00:00Z\n" * 250
    report = import_prices(content, "feed.csv", now=NOW)
    assert not report.applied and len(report.refused) == 101
    assert report.refused[-1] == (0, "150 more rows refused, not listed")


def test_a_csv_file_is_read_as_a_stream(launch_content):
    """The import reads an open CSV file in chunks, never ``read()`` of the whole of it."""
    class NoWholeReads(io.BytesIO):
        def read(self, size=-1):
            assert size is not None and size >= 0, "the whole file was read"
            return super().read(size)

    report = import_prices(NoWholeReads(("gpu,usd_per_hour,time\n" + GOOD_ROW).encode()), "feed.csv", now=NOW)
    assert report.applied and [change.slug for change in report.changes] == ["h100-sxm"]


def test_the_command_reads_standard_input(launch_content, monkeypatch):
    stdin = io.TextIOWrapper(io.BytesIO(("gpu,usd_per_hour,time\n" + GOOD_ROW).encode()))
    monkeypatch.setattr("sys.stdin", stdin)
    applied, out, _err = run_command("-")
    assert applied and "changed h100-sxm" in out
