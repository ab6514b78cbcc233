"""A flood of social images against gunicorn as `make serve` runs it (2 workers × 8 threads, the production
settings, the database cache): 16 clients from other loopback addresses (127.0.7.x) each fetch distinct calculator
answers and the og:image each page names (1,200 pages in all). Prints the cache tables' bytes and rows (state,
pages) before and after, the images drawn and served, and p50/p99 of a normal page (the calculator with no query,
from the page cache) during the flood. The per-client render limit is off here (RENDER_RATE_LIMIT=0), so that the
images, not the limit, are measured. Sends nothing beyond 127.0.0.0/8.

Run: make bench-social-images"""
import http.client
import io
import re
import statistics
import sys
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup, print_cache_tables

django_setup()

from django.core.management import call_command  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import translation  # noqa: E402

from tests.servers import gunicorn_server  # noqa: E402

PAGES = 1200
CLIENTS = 16
OG_IMAGE = re.compile(r'<meta property="og:image" content="https?://[^/]+(/[^"]+)"')


def get(host, path, source=None):
    started = time.perf_counter()
    connection = http.client.HTTPConnection(host, timeout=60, source_address=(source, 0) if source else None)
    try:
        connection.request("GET", path, headers={"Host": host})
        response = connection.getresponse()
        body = response.read()
        return (time.perf_counter() - started) * 1000, response.status, body
    finally:
        connection.close()


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main():
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", stdout=io.StringIO())
    with translation.override("en"):
        calculator = reverse("estimator:calculator")
    with gunicorn_server(workers=2, RENDER_RATE_LIMIT="0") as server:
        host = urllib.parse.urlsplit(server).netloc
        get(host, calculator)
        print_cache_tables("before")
        images, statuses, image_times = set(), [], []

        def flood(share):
            for number in range(share, PAGES, CLIENTS):
                source = f"127.0.7.{share + 1}"
                query = (f"?size={number + 1}&method=full_adam" if number % 2 else
                         f"?answer=training&size={number + 1}.5&method=full_adam&tokens=100")
                _elapsed, _status, page = get(host, calculator + query, source)
                match = OG_IMAGE.search(page.decode())
                if match:
                    images.add(match.group(1))
                    elapsed, status, _png = get(host, match.group(1), source)
                    statuses.append(status)
                    image_times.append(elapsed)

        stop = threading.Event()
        during = []

        def sample():
            while not stop.is_set():
                during.append(get(host, calculator)[0])

        sampler = threading.Thread(target=sample)
        clients = [threading.Thread(target=flood, args=(share,)) for share in range(CLIENTS)]
        started = time.perf_counter()
        sampler.start()
        for client in clients:
            client.start()
        for client in clients:
            client.join()
        stop.set()
        sampler.join()
        seconds = time.perf_counter() - started
        print(f"{'flood':>16}: {PAGES:,} calculator answers and their images in {seconds:.1f} s from {CLIENTS} "
              f"clients: {len(images):,} distinct image URLs, statuses "
              f"{dict(sorted((s, statuses.count(s)) for s in set(statuses)))}, image p50 "
              f"{statistics.median(image_times):.1f} ms, p99 {percentile(image_times, 0.99):.1f} ms", flush=True)
        print_cache_tables("after the flood")
        print(f"{'during':>16}: normal page p50 {statistics.median(during):.1f} ms, p99 "
              f"{percentile(during, 0.99):.1f} ms ({len(during):,} requests)")


if __name__ == "__main__":
    main()
