"""How long an import of 1,000 price rows takes (validation, one transaction, the content version bump).

Run: make bench-import"""
import io
import sys
import time
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup

django_setup()

from django.core.management import call_command  # noqa: E402

from catalog.models import GPU  # noqa: E402
from catalog.price_import import import_prices  # noqa: E402

ROWS = 1000


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
        content = "gpu,usd_per_hour,time\n" + "".join(f"{slug},{Decimal(cents + n % 7) / 100},{now}\n"
                                                     for n, slug in enumerate(slugs))
        started = time.perf_counter()
        report = import_prices(content, "bench.csv")
        elapsed = time.perf_counter() - started
        print(f"run {run}: {ROWS} rows in {elapsed * 1000:.0f} ms; applied={report.applied}, "
              f"{len(report.changes)} changed, {len(report.unchanged)} unchanged, {len(report.refused)} refused")


if __name__ == "__main__":
    main()
