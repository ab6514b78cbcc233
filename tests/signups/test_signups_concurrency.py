"""200 signups at once, many of them the same address in another case, then four mail workers at once:
exactly one row per address, one confirmation mail per address, and no server error.

Each thread is a browser (or a worker) with its own database connection, so the transactions really
overlap in PostgreSQL. (bench/signup_concurrency.py does the same over HTTP against
gunicorn; Django's test server accepts too few connections at once for 200.)"""
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from django.core import mail
from django.db import connections
from django.test import Client

from optin.models import OutboxEmail
from optin.outbox import send_due
from signups.models import Signup, WaitlistRequest
from signups.waitlist import apply_requests

from ..localized_urls import url_in
from ..signup_helpers import signup_data

SUBMISSIONS = 200
DISTINCT = 120
WORKERS = 4


def addresses():
    """120 addresses, 80 of them sent twice, the repeat in another case."""
    distinct = [f"renter{number}@example.com" for number in range(DISTINCT)]
    repeats = [address.upper() if number % 2 else address.title()
               for number, address in enumerate(distinct[:SUBMISSIONS - DISTINCT])]
    return distinct + repeats


def test_two_hundred_concurrent_signups_store_one_row_per_address(transactional_db, settings):
    settings.SIGNUP_RATE_LIMIT = 10_000
    path = url_in("es", "signups:signup")
    # One browser fetches the form; its CSRF cookie and token are valid for every post. The request
    # handler (the middleware chain) is shared by all threads, as a WSGI server shares it.
    first = Client(enforce_csrf_checks=True)
    first.get(path)
    cookie = first.cookies["csrftoken"].value
    start = threading.Barrier(SUBMISSIONS, timeout=60)

    def submit(address):
        browser = Client(enforce_csrf_checks=True)
        browser.handler = first.handler
        browser.cookies["csrftoken"] = cookie
        try:
            start.wait()
            response = browser.post(path, signup_data(email=address, csrfmiddlewaretoken=cookie))
            return response.status_code
        finally:
            connections.close_all()

    emails = addresses()
    with ThreadPoolExecutor(max_workers=SUBMISSIONS) as pool:
        statuses = Counter(pool.map(submit, emails))

    assert statuses == {303: SUBMISSIONS}
    # Each request stored what it was sent, whatever the address; the workers do the rest.
    assert WaitlistRequest.objects.count() == SUBMISSIONS and not Signup.objects.exists()

    def work(_worker):
        try:
            while WaitlistRequest.objects.exists():
                apply_requests(limit=10)
            while sum(send_due(limit=10)):  # passes, as `send_outbox --loop` makes them
                pass
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        list(pool.map(work, range(WORKERS)))

    distinct = {address.lower() for address in emails}
    assert len(distinct) == DISTINCT
    assert Signup.objects.count() == DISTINCT
    assert {address.lower() for address in Signup.objects.values_list("email", flat=True)} == distinct
    assert OutboxEmail.objects.count() == DISTINCT
    assert OutboxEmail.objects.filter(sent_at__isnull=False).count() == DISTINCT
    assert len(mail.outbox) == DISTINCT
