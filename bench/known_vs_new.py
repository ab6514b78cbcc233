"""How long the public forms that take an address (the price alert form, the provider application form) take to
answer for an address they know and for a new one, and which queries they run for each (issue 48: a difference
tells a visitor who has an alert or has applied). In-process (Django's test client, production settings,
PostgreSQL), so the figures are the view's and the database's, not the network's: N posts of each, in a shuffled
order, then the median, p90 and mean per kind, their ratio, and the queries per post.

Known addresses: for the alert form one with confirmed alerts and one waiting; for the provider form, in turn, one
with its application stored (the same company again), one whose application was accepted, and another address of
a company that applied.

Run: scripts/with-throwaway-postgres.sh .venv/bin/python bench/known_vs_new.py [alerts|providers]"""
import random
import statistics
import sys
import time
import uuid
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
from providers.models import ProviderApplication  # noqa: E402

POSTS = 200
KNOWN = "known@example.com"
CONSENT = {"consent_language": "es", "source_path": "/es/"}


def alert_posts(client):
    """(post(kind, number) -> response) for the price alert form, its known address's alerts stored."""
    gpus = list(GPU.objects.exclude(price_usd_per_hour=None).order_by("pk")[:6])
    now = timezone.now()
    for gpu in gpus[:5]:
        PriceAlert.objects.create(email=KNOWN, gpu=gpu, target_usd_per_hour="0.50", language="es", confirmed_at=now,
                                  renewed_at=now, consent_text_version="price-alert-2", **CONSENT)
    PriceAlert.objects.create(email=KNOWN, gpu=gpus[5], target_usd_per_hour="0.50", language="es",
                              consent_text_version="price-alert-2", **CONSENT)
    paths = [reverse("alerts:price_alert", kwargs={"slug": gpu.slug}) for gpu in gpus]

    def post(kind, number):
        email = KNOWN if kind == "known" else f"new{number}@example.com"
        return client.post(paths[number // 2 % len(paths)], {
            "email": email, "target": amount_text(f"0.{10 + number % 80}", "es"), "consent": "on"})
    return post


def provider_posts(client):
    """The same for the provider application form; its three kinds of known address take turns."""
    known = [(KNOWN, "Known GmbH"), ("accepted@example.com", "Accepted S.A."), ("colleague@example.com", "Same Lda")]
    stored = [(KNOWN, "Known GmbH", "new"), ("accepted@example.com", "Accepted S.A.", "accepted"),
              ("first@example.com", "Same Lda", "new")]
    for email, company, status in stored:
        ProviderApplication.objects.create(email=email, company=company, contact_name="Eva", country="DE",
                                           language="es", status=status, consent_text_version="provider-2",
                                           **CONSENT)
    path = reverse("providers:application")

    def post(kind, number):
        email, company = known[number % 3] if kind == "known" else (f"new{number}@example.com", f"New {number}")
        return client.post(path, {
            "company": company, "contact_name": "Eva", "email": email, "country": "DE", "gpu_1": "other",
            "name_1": "H100 SXM", "count_1": str(1 + number % 64), "location_1": "Frankfurt", "consent": "on",
            "submission": str(uuid.uuid4())})
    return post


def measure(label, post):
    times, queries = {"known": [], "new": []}, {"known": set(), "new": set()}
    post("new", -1)  # what a process reads once per content version is read by this first post
    kinds = ["known", "new"] * POSTS
    random.Random(48).shuffle(kinds)  # neither always second: no warm-up favours one
    for number, kind in enumerate(kinds):
        with CaptureQueriesContext(connection) as captured:
            began = time.perf_counter()
            response = post(kind, number)
            times[kind].append((time.perf_counter() - began) * 1000)
        assert response.status_code in (302, 303), response.status_code
        queries[kind].add(len(captured.captured_queries))
    print(label)
    for kind in ("known", "new"):
        ms = sorted(times[kind])
        print(f"  {kind:5}: median {statistics.median(ms):.2f} ms, p90 {ms[int(len(ms) * 0.9)]:.2f} ms, "
              f"mean {statistics.fmean(ms):.2f} ms, queries per post {sorted(queries[kind])}")
    ratio = statistics.median(times["known"]) / statistics.median(times["new"])
    print(f"  known/new median: {ratio:.2f}×  ({POSTS} posts each, shuffled)")


def main(forms):
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", verbosity=0)
    client = Client()
    with override_settings(SIGNUP_RATE_LIMIT=10 ** 6), translation.override("es"):
        if "alerts" in forms:
            measure("Price alert form", alert_posts(client))
        if "providers" in forms:
            measure("Provider application form", provider_posts(client))


if __name__ == "__main__":
    main(sys.argv[1:] or ["alerts", "providers"])
