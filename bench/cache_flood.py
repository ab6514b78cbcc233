"""A flood of distinct query strings against gunicorn (2 workers, the shared cache in the database, as
`make serve` runs): 5,000 calculator, catalogue and compare URLs, valid and junk, from 4 clients at once. Prints
the cache tables' bytes and rows (state and pages) and p50/p99 of a normal page (the calculator with no
query, served from the page cache) before, during and after the flood.

Run: make bench-flood"""
import io
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup, print_cache_tables

django_setup()

from django.core.management import call_command  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import translation  # noqa: E402

from tests.servers import gunicorn_server  # noqa: E402

FLOOD = 5000
FLOOD_CLIENTS = 4
SAMPLE_SECONDS = 10


def flood_paths(calculator, catalogue, compare):
    """Distinct query strings as a crawler or an attacker writes them: valid inputs and junk."""
    for number in range(FLOOD):
        kind = number % 5
        if kind == 0:
            yield f"{calculator}?size={number}&method=full_adam"
        elif kind == 1:
            yield f"{calculator}?answer=training&size={number % 900 + 1}.{number % 1000:03d}&method=full_adam"
        elif kind == 2:
            yield f"{calculator}?answer=inference&size=junk-{number}&method=weights_16bit"
        elif kind == 3:
            yield f"{catalogue}?min_memory={number}&sort=junk-{number}"
        else:
            yield f"{compare}?gpu=h100-sxm&gpu=junk-{number}"


def get(url):
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return (time.perf_counter() - started) * 1000, status


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def sample(url, stop):
    """A normal page's latencies, one request after another, until ``stop`` is set."""
    times = []
    while not stop.is_set():
        times.append(get(url)[0])
    return times


def print_latency(moment, times):
    print(f"{moment:>16}: normal page p50 {statistics.median(times):.1f} ms, p99 {percentile(times, 0.99):.1f} ms "
          f"({len(times):,} requests)")


def sample_for(url, seconds):
    stop = threading.Event()
    timer = threading.Timer(seconds, stop.set)
    timer.start()
    return sample(url, stop)


def main():
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", stdout=io.StringIO())
    with translation.override("en"):
        calculator, catalogue, compare = (reverse(name) for name in (
            "estimator:calculator", "catalog:gpu_list", "catalog:compare"))
    with gunicorn_server(workers=2) as server:
        normal = server + calculator
        get(normal)
        print_cache_tables("before")
        print_latency("before", sample_for(normal, SAMPLE_SECONDS))

        paths = list(flood_paths(calculator, catalogue, compare))
        statuses, flood_times = [], []

        def flood(share):
            for path in paths[share::FLOOD_CLIENTS]:
                elapsed, status = get(server + path)
                statuses.append(status)
                flood_times.append(elapsed)

        stop = threading.Event()
        during = []
        sampler = threading.Thread(target=lambda: during.extend(sample(normal, stop)))
        clients = [threading.Thread(target=flood, args=(share,)) for share in range(FLOOD_CLIENTS)]
        started = time.perf_counter()
        sampler.start()
        for client in clients:
            client.start()
        for client in clients:
            client.join()
        stop.set()
        sampler.join()
        seconds = time.perf_counter() - started
        print(f"{'flood':>16}: {len(paths):,} distinct URLs in {seconds:.1f} s from {FLOOD_CLIENTS} clients, "
              f"statuses {dict(sorted((s, statuses.count(s)) for s in set(statuses)))}, "
              f"p50 {statistics.median(flood_times):.1f} ms, p99 {percentile(flood_times, 0.99):.1f} ms")
        print_cache_tables("after the flood")
        print_latency("during", during)
        print_latency("after", sample_for(normal, SAMPLE_SECONDS))


if __name__ == "__main__":
    main()
