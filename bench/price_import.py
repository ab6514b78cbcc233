"""How long an import of 1,000 price rows takes (validation, one transaction, the content version bump), and
the same with 10,000 confirmed price alerts on those GPUs, some of which the new prices reach (mails queued in
the import's transaction); then the peak memory (RSS) of the import command's process reading a generated
100 MB CSV file (every row after the first per GPU is refused as a repeat: the whole file is read and checked).

Run: make bench-import"""
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup

django_setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from alerts.models import PriceAlert  # noqa: E402
from catalog.models import GPU  # noqa: E402
from optin.models import OutboxEmail  # noqa: E402
from prices.price_import import import_prices  # noqa: E402

ROWS = 1000
ALERTS = 10_000
LARGE_FILE_BYTES = 100 * 1024 * 1024


def main():
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", stdout=io.StringIO())
    GPU.objects.bulk_create(
        GPU(slug=f"bench-{n}", vendor="Bench", name=f"Bench GPU {n}", architecture="Bench", memory_gb=Decimal(80))
        for n in range(ROWS - GPU.objects.count())
    )
    slugs = list(GPU.objects.values_list("slug", flat=True))[:ROWS]
    now = datetime.now(UTC).replace(microsecond=0).isoformat()
    for run, cents in enumerate((150, 175, 199), start=1):
        content = price_file(slugs, cents, now)
        started = time.perf_counter()
        report = import_prices(content, "bench.csv")
        elapsed = time.perf_counter() - started
        print(f"run {run}: {ROWS} rows in {elapsed * 1000:.0f} ms; applied={report.applied}, "
              f"{len(report.changes)} changed, {len(report.unchanged)} unchanged, {len(report.refused)} refused")
    import_with_alerts(slugs, now)
    large_file_memory(slugs, now)


def price_file(slugs, cents, now):
    return "gpu,usd_per_hour,time\n" + "".join(f"{slug},{Decimal(cents + n % 7) / 100},{now}\n"
                                               for n, slug in enumerate(slugs))


def import_with_alerts(slugs, now):
    """10 confirmed alerts per GPU, targets 1.00 to 1.90: a price file above them all, one at 1.75 to 1.81
    (reaching the targets of 1.80 and 1.90), one a little lower (reaching a few more; the resting ones stay
    quiet), then one above them all again (every resting alert active again)."""
    gpus = list(GPU.objects.filter(slug__in=slugs))
    PriceAlert.objects.bulk_create((
        PriceAlert(email=f"bench-{n}@example.com", gpu=gpus[n % len(gpus)],
                   target_usd_per_hour=Decimal(100 + 10 * (n // len(gpus) % 10)) / 100, language="en",
                   confirmed_at=timezone.now(), consent_text_version="bench", consent_language="en",
                   source_path="/en/")
        for n in range(ALERTS)
    ), batch_size=2000)
    for run, cents in enumerate((230, 175, 170, 230), start=1):
        mails_before = OutboxEmail.objects.count()
        resting_before = PriceAlert.objects.filter(state=PriceAlert.State.RESTING).count()
        content = price_file(slugs, cents, now)
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            report = import_prices(content, "bench.csv")
            elapsed = time.perf_counter() - started
        changed = [change.slug for change in report.changes]
        checked = PriceAlert.objects.filter(gpu__slug__in=changed, confirmed_at__isnull=False).count()
        mails = OutboxEmail.objects.count() - mails_before
        rearmed = resting_before + mails - PriceAlert.objects.filter(state=PriceAlert.State.RESTING).count()
        print(f"with {ALERTS:,} alerts, run {run}: {ROWS} rows in {elapsed * 1000:.0f} ms, {len(queries)} queries; "
              f"{len(changed)} changed, {checked} confirmed alerts on them checked, {mails} mails queued, "
              f"{rearmed} alerts active again")


def large_file_memory(slugs, now):
    """A 100 MB price file imported by the command in a process of its own, which reports its peak RSS."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "large.csv")
        with open(path, "w") as large:
            large.write("gpu,usd_per_hour,time\n")
            block = "".join(f"{slug},1.{n % 100:02},{now}\n" for n, slug in enumerate(slugs))
            while large.tell() < LARGE_FILE_BYTES:
                large.write(block)
        size = os.path.getsize(path)
        output = subprocess.run([sys.executable, __file__, "--memory", path], capture_output=True, text=True,
                                check=True).stdout.strip()
        print(f"import of a {size / 2**20:.0f} MB CSV file: {output}")


def import_memory(path):
    """In the child process: the RSS after Django's set-up, then the import, then the peak RSS."""
    GPU.objects.count()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    started = time.perf_counter()
    with open(path, "rb") as price_file:
        report = import_prices(price_file, path)
    elapsed = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    size = os.path.getsize(path)
    print(f"{elapsed:.1f} s, peak RSS {peak / 2**20:.0f} MB ({peak / size:.2f}× the file; {before / 2**20:.0f} MB "
          f"before the import, so the import added {(peak - before) / 2**20:.0f} MB); applied={report.applied}, "
          f"{len(report.refused)} refusals listed (target: peak < 2× the file)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--memory"]:
        import_memory(sys.argv[2])
    else:
        main()
