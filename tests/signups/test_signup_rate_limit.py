"""The forms' rate limit (signups/rate_limit.py): counted in the database in one statement, exact under
concurrency, indifferent to the shared cache, and keeping no client address and no ended window."""
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from django.core.cache import caches
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from core.models import SubmissionCount
from optin.retention import purge_unconfirmed
from signups import rate_limit
from signups.models import WaitlistRequest

from ..localized_urls import url_in
from ..signup_helpers import signup_data

THREADS = 40


def test_concurrent_submissions_from_one_address_lose_no_count(transactional_db):
    """Forty threads, forty connections, one row: each gets its own count, none is lost."""
    ends_at = datetime.now(UTC) + timedelta(hours=1)
    start = threading.Barrier(THREADS, timeout=60)

    def count(_thread):
        try:
            start.wait()
            return rate_limit.count_submission("signups:signup:1:client", window_ends_at=ends_at)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        counts = list(pool.map(count, range(THREADS)))
    assert sorted(counts) == list(range(1, THREADS + 1))
    assert SubmissionCount.objects.get(key="signups:signup:1:client").count == THREADS


def test_a_submission_is_counted_in_one_statement(rf, db, settings):
    settings.SIGNUP_RATE_LIMIT = 2
    request = rf.post("/", REMOTE_ADDR="192.0.2.7")
    for _first_two in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert rate_limit.seconds_to_wait(request, scope="signups:signup") is None
        assert len(queries) == 1
    assert 0 < rate_limit.seconds_to_wait(request, scope="signups:signup") <= settings.SIGNUP_RATE_LIMIT_WINDOW


def test_the_table_holds_no_client_address(rf, db):
    rate_limit.seconds_to_wait(rf.post("/", REMOTE_ADDR="192.0.2.7"), scope="signups:signup")
    (key,) = SubmissionCount.objects.values_list("key", flat=True)
    assert "192.0.2.7" not in key and key.startswith("signups:signup:")


def test_the_workers_purge_deletes_ended_windows_and_keeps_the_current_one(rf, db, settings):
    settings.SIGNUP_RATE_LIMIT_WINDOW = 600
    SubmissionCount.objects.create(key="signups:signup:1:ended", count=3,
                                   window_ends_at=datetime.now(UTC) - timedelta(seconds=1))
    rate_limit.seconds_to_wait(rf.post("/", REMOTE_ADDR="192.0.2.7"), scope="signups:signup")
    assert SubmissionCount.objects.count() == 2, "a submission never purges: it takes one statement"
    purged = purge_unconfirmed()
    assert purged.submission_counts == 1
    (current,) = SubmissionCount.objects.all()
    assert current.count == 1 and current.window_ends_at > datetime.now(UTC)


def test_emptying_the_shared_cache_does_not_reset_the_limit(client, launch_content, settings):
    settings.SIGNUP_RATE_LIMIT = 2
    path = url_in("es", "signups:signup")
    assert [client.post(path, signup_data(email=f"p{n}@example.com")).status_code for n in range(2)] == [303, 303]
    caches["default"].clear()
    response = client.post(path, signup_data(email="p2@example.com"))
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert WaitlistRequest.objects.count() == 2


def test_the_addresses_of_one_ipv6_network_share_one_limit(rf, db, settings):
    """One subscriber is handed a whole /64: its addresses count as one client, another /64 as another."""
    settings.SIGNUP_RATE_LIMIT = 2
    waits = [rate_limit.seconds_to_wait(rf.post("/", REMOTE_ADDR=f"2001:db8:0:1::{n:x}"), scope="signups:signup")
             for n in range(1, 4)]
    assert waits[:2] == [None, None] and waits[2] > 0
    assert rate_limit.seconds_to_wait(rf.post("/", REMOTE_ADDR="2001:db8:0:2::1"), scope="signups:signup") is None
