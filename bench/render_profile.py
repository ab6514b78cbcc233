"""Where an uncached render spends its time: each kind of page the page benchmark measures, rendered in this
process with the page cache off and the content of the current version already loaded, timed, its queries
counted, and profiled with cProfile (the functions that cost the most, by their own time and with callees).

Run: scripts/with-throwaway-postgres.sh .venv/bin/python bench/render_profile.py [--top N] [--page NAME]"""
import argparse
import cProfile
import io
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup

django_setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.template.base import Template  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.render_times import answer_paths, page_paths  # noqa: E402

REPEAT = 50
PROJECT_CODE = rf"^{Path(__file__).resolve().parent.parent}/(?!\.venv)"


def render_ms(client, path, repeat=REPEAT, batches=5):
    """Milliseconds of processor time of an uncached render, the content already loaded (a first request loads
    it): the mean of the fastest of ``batches`` batches, as timeit does, since other jobs on a shared machine
    only ever slow a batch down."""
    client.get(path)
    means = []
    for _batch in range(batches):
        start = time.process_time()
        for _ in range(repeat // batches):
            client.get(path)
        means.append((time.process_time() - start) / (repeat // batches) * 1000)
    return min(means)


def page_queries(client, path):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return len([query for query in captured if "django_cache" not in query["sql"]]), len(response.content)


def profile(client, path, top, repeat=REPEAT):
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeat):
        client.get(path)
    profiler.disable()
    # By own time, with callees, then the project's own functions and templates' tags with callees.
    for order, restriction in (("tottime", ""), ("cumulative", ""), ("cumulative", PROJECT_CODE)):
        output = io.StringIO()
        pstats.Stats(profiler, stream=output).sort_stats(order).print_stats(restriction, top)
        print("\n".join(line for line in output.getvalue().splitlines() if line.strip())[:12000])


def template_times(client, path, repeat=REPEAT):
    """Milliseconds per render spent in each template (its includes and tags included), and how many times
    a render uses it: which include or loop is worth making cheaper."""
    totals, counts = defaultdict(float), defaultdict(int)
    original = Template._render

    def timed(template, context):
        start = time.perf_counter()
        try:
            return original(template, context)
        finally:
            totals[template.origin.template_name] += time.perf_counter() - start
            counts[template.origin.template_name] += 1

    Template._render = timed
    try:
        for _ in range(repeat):
            client.get(path)
    finally:
        Template._render = original
    for name, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"  {seconds / repeat * 1000:7.2f} ms {counts[name] / repeat:6.1f}× {name}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--page", help="profile only this page (a name printed in the summary)")
    parser.add_argument("--no-profile", action="store_true", help="print the summary only")
    arguments = parser.parse_args()
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", stdout=io.StringIO())
    settings.PAGE_CACHE_ENABLED = False
    settings.RENDER_RATE_LIMIT = 0  # else the renders of a query past the per-client limit are timed as 429s
    client = Client(HTTP_HOST="127.0.0.1")
    pages = {**page_paths(), **answer_paths()}
    print(f"{'page':28}{'path':58}{'CPU ms':>8}{'queries':>9}{'bytes':>9}")
    for name, path in pages.items():
        milliseconds = render_ms(client, path)
        queries, size = page_queries(client, path)
        print(f"{name:28}{path[:56]:58}{milliseconds:8.2f}{queries:9}{size:9}")
    if arguments.no_profile:
        return
    for name, path in pages.items():
        if arguments.page and name != arguments.page:
            continue
        print(f"\n=== {name}: {path} ({REPEAT} renders) ===")
        template_times(client, path)
        profile(client, path, arguments.top)


if __name__ == "__main__":
    main()
