"""How long the price alert form takes to answer for an address it knows (confirmed alerts, one waiting) and for a
new one, and which queries it runs for each (issue 48: a difference tells a visitor who has an alert). In-process
(Django's test client, production settings, PostgreSQL), so the figures are the view's and the database's, not
the network's: N posts of each, in a shuffled order, then the median, p90 and mean per kind, their ratio, and the
queries per post.

Run: scripts/with-throwaway-postgres.sh .venv/bin/python bench/known_vs_new.py"""
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup

django_setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone, translation  # noqa: E402

from alerts.amounts import amount_text  # noqa: E402
from alerts.models import PriceAlert  # noqa: E402
from catalog.models import GPU  # noqa: E402

POSTS = 200
KNOWN = "known@example.com"


def main():
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", verbosity=0)
    gpus = list(GPU.objects.exclude(price_usd_per_hour=None).order_by("pk")[:6])
    now = timezone.now()
    for gpu in gpus[:5]:
        PriceAlert.objects.create(email=KNOWN, gpu=gpu, target_usd_per_hour="0.50", language="es", confirmed_at=now,
                                  renewed_at=now, consent_text_version="price-alert-2", consent_language="es",
                                  source_path="/es/")
    PriceAlert.objects.create(email=KNOWN, gpu=gpus[5], target_usd_per_hour="0.50", language="es",
                              consent_text_version="price-alert-2", consent_language="es", source_path="/es/")
    client = Client()
    times, queries = {"known": [], "new": []}, {"known": set(), "new": set()}
    with override_settings(SIGNUP_RATE_LIMIT=10 ** 6), translation.override("es"):
        paths = [reverse("alerts:price_alert", kwargs={"slug": gpu.slug}) for gpu in gpus]
        client.post(paths[0], {"email": "warm@example.com", "target": amount_text("0.10", "es"), "consent": "on"})
        kinds = ["known", "new"] * POSTS
        random.Random(48).shuffle(kinds)  # neither always second: no warm-up favours one
        for number, kind in enumerate(kinds):
            email = KNOWN if kind == "known" else f"new{number}@example.com"
            data = {"email": email, "target": amount_text(f"0.{10 + number % 80}", "es"), "consent": "on"}
            with CaptureQueriesContext(connection) as captured:
                began = time.perf_counter()
                response = client.post(paths[number // 2 % len(paths)], data)
                times[kind].append((time.perf_counter() - began) * 1000)
            assert response.status_code == 302 or response.status_code == 303, response.status_code
            queries[kind].add(len(captured.captured_queries))
    for kind in ("known", "new"):
        ms = sorted(times[kind])
        print(f"{kind:5}: median {statistics.median(ms):.2f} ms, p90 {ms[int(len(ms) * 0.9)]:.2f} ms, "
              f"mean {statistics.fmean(ms):.2f} ms, queries per post {sorted(queries[kind])}")
    ratio = statistics.median(times["known"]) / statistics.median(times["new"])
    print(f"known/new median: {ratio:.2f}×  ({POSTS} posts each, shuffled)")


if __name__ == "__main__":
    main()
