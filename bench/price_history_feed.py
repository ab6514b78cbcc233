"""The price history feed under a burst: a GPU with 50,000 history points over two years, then rounds of one price
import (a new content version) followed by 20 concurrent requests for /data/gpus/<slug>/prices.json against
gunicorn (2 workers, the shared cache in the database): each round's p50/p99 and the number of renders (the
feed's "Rendered …" log lines), then the same figures over every round; the feed's size with the default window
and with ?since=2000-01-01.

Run: make bench-history-feed"""
import io
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup

django_setup()

from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from catalog.models import GPU, PricePoint  # noqa: E402
from prices.price_import import import_prices  # noqa: E402
from tests.servers import gunicorn_server  # noqa: E402

SLUG = "h100-sxm"
POINTS = 50_000
HISTORY = timedelta(days=730)
CONCURRENT = 20
ROUNDS = 5
# The workers re-read the content version at most once a second: after this, every one of them sees the import.
VERSION_SPREAD_SECONDS = 1.1
RENDERED = f"Rendered /data/gpus/{SLUG}/prices.json".encode()


def set_history(gpu):
    """``POINTS`` points spread evenly over the last two years, the last one an hour ago."""
    PricePoint.objects.filter(gpu=gpu).delete()
    end = timezone.now() - timedelta(hours=1)
    PricePoint.objects.bulk_create(
        (PricePoint(gpu=gpu, usd_per_hour=Decimal("2.00") + Decimal(n % 97) / 100,
                    time=end - HISTORY + n * HISTORY / POINTS, source="import") for n in range(POINTS)),
        batch_size=5000)
    GPU.objects.filter(pk=gpu.pk).update(price_usd_per_hour=Decimal("2.50"), price_updated_at=end)


def fetch(url):
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as response:
        body = response.read()
        status = response.status
    return (time.perf_counter() - started) * 1000, status, len(body)


def burst(url):
    """``CONCURRENT`` requests at once, one thread each: their (ms, status, bytes)."""
    start, results = threading.Barrier(CONCURRENT), [None] * CONCURRENT

    def get(index):
        start.wait()
        try:
            results[index] = fetch(url)
        except OSError as error:  # an HTTP error status or a refused connection: counted, not fatal
            results[index] = (float("nan"), getattr(error, "code", 0), 0)

    threads = [threading.Thread(target=get, args=(index,)) for index in range(CONCURRENT)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def renders(log):
    log.flush()
    log.seek(0)
    return log.read().count(RENDERED)


def main():
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", stdout=io.StringIO())
    gpu = GPU.objects.get(slug=SLUG)
    set_history(gpu)
    print(f"{SLUG}: {PricePoint.objects.filter(gpu=gpu).count():,} history points over {HISTORY.days} days")
    all_times, all_statuses = [], []
    with tempfile.TemporaryFile() as log, gunicorn_server(workers=2, log=log) as server:
        url = f"{server}/data/gpus/{SLUG}/prices.json"
        _ms, _status, size = fetch(url)
        _ms, _status, full_size = fetch(url + "?since=2000-01-01")
        print(f"feed: {size:,} bytes with the default window (365 days, each day's last price before 90 days), "
              f"{full_size:,} bytes with ?since=2000-01-01")
        for round_number in range(1, ROUNDS + 1):
            price = Decimal("2.50") + Decimal(round_number) / 100
            moment = timezone.now().replace(microsecond=0)
            report = import_prices(f"gpu,usd_per_hour,time\n{SLUG},{price},{moment.isoformat()}\n".encode(),
                                   "bench.csv")
            assert report.applied, report.refused
            time.sleep(VERSION_SPREAD_SECONDS)
            before = renders(log)
            results = burst(url)
            times = [ms for ms, _status, _size in results]
            statuses = [status for _ms, status, _size in results]
            all_times += times
            all_statuses += statuses
            print(f"round {round_number}: import, then {CONCURRENT} concurrent requests: p50 "
                  f"{percentile(times, 0.5):.0f} ms, p99 {percentile(times, 0.99):.0f} ms, "
                  f"{statuses.count(200)} × 200, {renders(log) - before} render(s)")
    print(f"all {ROUNDS} rounds ({len(all_times)} requests): p50 {percentile(all_times, 0.5):.0f} ms, "
          f"p99 {percentile(all_times, 0.99):.0f} ms, mean {statistics.fmean(all_times):.0f} ms; "
          f"non-200: {len(all_statuses) - all_statuses.count(200)} (target: p99 ≤ 1 s, one render per import)")


if __name__ == "__main__":
    main()
