"""Page speed against gunicorn on loopback, measured with wrk in one run, as ratios to a static file: the cached
workload page, and an uncached render of each kind of page (workload, GPU, catalogue, comparison, calculator); first,
each render's processor time in this process (bench/render_times.py), right after a content change and content loaded.

Run: scripts/with-throwaway-postgres.sh .venv/bin/python bench/page_speed.py (BENCH_ROUNDS=2 for a quicker look)"""
import io
import os
import statistics
import sys
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup, wrk

django_setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.render_times import answer_paths, page_paths, print_render_times  # noqa: E402
from caching.content_version import bump_content_version  # noqa: E402
from catalog.models import GPU  # noqa: E402
from tests.servers import gunicorn_server  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
CATALOGUE_ROUNDS = min(ROUNDS, 3)
# Every price import bumps the content version, so each page a visit can find in the page cache is rendered again on
# its next visit: an uncached render of each kind is measured, in Spanish (the language with the most formatting
# rules), against the target. The calculator's answers (any input) are never cached, whatever the content version:
# their figures are printed beside, as the price of an answer, without that target.
UNCACHED_TARGET = 0.25


def queries_for(path):
    """Queries for one request with the page cache off (the benchmark's settings): the first after a
    content change (the workload content is loaded again), then the next one."""
    client = Client(HTTP_HOST="127.0.0.1")
    counts = []
    bump_content_version()
    for _request in ("after a change", "next"):
        with CaptureQueriesContext(connection) as captured:
            response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        # The page's own queries: not the shared cache's (its table is in this database), whose content
        # version a process re-reads once a second, whenever a request happens to come after that.
        counts.append(len([query for query in captured if "django_cache" not in query["sql"]]))
    return counts, response.content


def set_gpu_count(total):
    """Pad the catalogue with synthetic GPUs (vendor "Bench") up to ``total``."""
    GPU.objects.filter(vendor="Bench").delete()
    real = GPU.objects.count()
    GPU.objects.bulk_create(
        GPU(slug=f"bench-{n}", vendor="Bench", name=f"Bench GPU {n}", architecture="Bench",
            memory_gb=Decimal(8 + n % 200), bandwidth_gbs=Decimal(500 + n), bf16_dense_tflops=Decimal(100 + n % 900),
            price_usd_per_hour=Decimal("0.50") + Decimal(n % 300) / 100)
        for n in range(total - real)
    )


def main():
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", stdout=io.StringIO())
    call_command("collectstatic", interactive=False, verbosity=0)
    pages, answers = page_paths(), answer_paths()
    workload_path, catalogue_path = pages["workload page"], pages["catalogue"]
    settings.PAGE_CACHE_ENABLED = False  # in this process only: queries and times of a render
    settings.RENDER_RATE_LIMIT = 0  # else the renders of a query past the per-client limit are timed as 429s
    (after_change, loaded), page_bytes = queries_for(workload_path)
    static_copy = Path(settings.STATIC_ROOT) / "bench" / "workload-page.html"
    static_copy.parent.mkdir(parents=True, exist_ok=True)
    static_copy.write_bytes(page_bytes)
    print(f"workload page: {len(page_bytes)} bytes; uncached: {after_change} queries the first time after a "
          f"content change, {loaded} after")
    # Processor time per render, the fastest of RENDER_REPEAT requests (bench/render_times.py, which compare_trees.py
    # runs in each tree it compares).
    print_render_times({**pages, **answers})

    # The page figures are measured in rounds, each right after its own static-file run, so that a
    # slower or faster spell of the machine moves both sides of a ratio; the median round is reported.
    rounds = []
    with gunicorn_server(workers=2, RENDER_RATE_LIMIT="0") as cached, \
            gunicorn_server(workers=2, PAGE_CACHE_ENABLED="false", RENDER_RATE_LIMIT="0") as uncached:
        for _round in range(ROUNDS):
            rounds.append({
                "static file": wrk(cached + "/static/bench/workload-page.html", seconds=5),
                "cached page": wrk(cached + workload_path, seconds=5),
                **{f"uncached: {name}": wrk(uncached + path, seconds=5) for name, path in pages.items()},
                **{name: wrk(uncached + path, seconds=5) for name, path in answers.items()},
                "/healthz": wrk(cached + "/healthz", seconds=5),
            })
        catalogue_rounds = []
        for _round in range(CATALOGUE_ROUNDS):
            figures = {}
            for total in (100, 1000):
                set_gpu_count(total)
                figures[total] = wrk(uncached + catalogue_path, seconds=10), queries_for(catalogue_path)[0][1]
            catalogue_rounds.append(figures)
    print(f"{'':36}" + "".join(f"{f'round {n}':>22}" for n in range(1, ROUNDS + 1)) + f"{'median ratio':>16}"
          + f"{'range':>14}")
    for name in rounds[0]:
        cells = "".join(
            f"{figures[name]['rps']:8.0f} req/s {figures[name]['rps'] / figures['static file']['rps']:5.2f}×"
            + ("!" if figures[name]["non_2xx"] else " ") for figures in rounds
        )
        ratios = [figures[name]["rps"] / figures["static file"]["rps"] for figures in rounds]
        print(f"{name:36}{cells}{statistics.median(ratios):15.2f}×{min(ratios):7.2f}–{max(ratios):.2f}×")
    print("(! marks a run with non-2xx responses; p99 latency of the last round: "
          + ", ".join(f"{name} {figures['p99']}" for name, figures in rounds[-1].items()) + ")")
    targets = [("cached page", "≥ 0.9×")] + [(f"uncached: {name}", f"≥ {UNCACHED_TARGET}×") for name in pages]
    for name, target in targets:
        ratio = statistics.median(figures[name]["rps"] / figures["static file"]["rps"] for figures in rounds)
        print(f"{name} / static file: {ratio:.2f}× (median of {ROUNDS} rounds; target {target})")
    for name in answers:
        ratio = statistics.median(figures[name]["rps"] / figures["static file"]["rps"] for figures in rounds)
        print(f"{name} / static file: {ratio:.2f}× (median of {ROUNDS} rounds; never cached, no target)")
    slowdowns = []
    for n, figures in enumerate(catalogue_rounds, start=1):
        (small, small_queries), (large, large_queries) = figures[100], figures[1000]
        # A loaded machine may finish no request of the large catalogue in a run: an infinite slowdown.
        slowdowns.append(small["rps"] / large["rps"] if large["rps"] else float("inf"))
        print(f"catalogue, uncached, round {n}: 100 GPUs {small['rps']:.1f} req/s, 1,000 GPUs "
              f"{large['rps']:.1f} req/s: {slowdowns[-1]:.1f}× the time; queries {small_queries} vs {large_queries}")
    print(f"catalogue 1,000 GPUs vs 100: {statistics.median(slowdowns):.1f}× the time per request (median of "
          f"{CATALOGUE_ROUNDS} rounds; target ≤ 10×, queries equal)")

if __name__ == "__main__":
    main()
