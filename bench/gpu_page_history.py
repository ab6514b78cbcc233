"""A GPU page with a short and a long price history: its queries and its render time (page cache off, in this
process), with 10 and with 10,000 points in the last 90 days (the worst case: every point in the chart's
window), and the page's size.

Run: make bench-history"""
import io
import statistics
import sys
import time
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup

django_setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone, translation  # noqa: E402

from caching.content_version import bump_content_version  # noqa: E402
from catalog.models import GPU, PricePoint  # noqa: E402

SLUG = "h100-sxm"
SIZES = (10, 10_000)
RENDERS = 30
WINDOW = timedelta(days=89)


def set_history(gpu, count):
    """``count`` points spread over the last 89 days, the GPU's price the last of them."""
    PricePoint.objects.filter(gpu=gpu).delete()
    now = timezone.now()
    prices = [Decimal("2.00") + Decimal(n % 13) / 20 for n in range(count)]
    PricePoint.objects.bulk_create(
        (PricePoint(gpu=gpu, usd_per_hour=price, time=now - WINDOW + n * WINDOW / count, source="import")
         for n, price in enumerate(prices)), batch_size=2000)
    GPU.objects.filter(pk=gpu.pk).update(price_usd_per_hour=prices[-1], price_updated_at=now)
    bump_content_version()


def measure(path):
    """The page's own queries (not the shared cache's table), its size, and the median render time."""
    client = Client(HTTP_HOST="127.0.0.1")
    client.get(path)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, response.status_code
    queries = [query for query in captured if "django_cache" not in query["sql"]]
    times = []
    for _ in range(RENDERS):
        started = time.perf_counter()
        client.get(path)
        times.append((time.perf_counter() - started) * 1000)
    return len(queries), len(response.content), statistics.median(times)


def main():
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", stdout=io.StringIO())
    settings.PAGE_CACHE_ENABLED = False  # in this process only: every request renders the page
    gpu = GPU.objects.get(slug=SLUG)
    with translation.override("es"):
        path = gpu.get_absolute_url("es")
    for count in SIZES:
        set_history(gpu, count)
        queries, size, render_ms = measure(path)
        print(f"{count:>6} points in 90 days: {queries} queries, {size:,} bytes, render {render_ms:.1f} ms "
              f"(median of {RENDERS})")


if __name__ == "__main__":
    main()
