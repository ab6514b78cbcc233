"""Without REDIS_URL, the workers of a server share their cache through the database: an editor's change
reaches every worker within a second, and the signup limit and the admin lockout count every worker's
requests together. Real gunicorn (two workers) on the test database."""
import threading
import time

import pytest
from django.db import connection
from django.urls import reverse

from caching.database import DatabaseCache
from catalog.models import GPU
from workloads.models import Workload

from ..deck import squash
from ..html import form_fields
from ..http_visitors import PASSWORD, Browserless, create_editor, log_in, submit_signup
from ..servers import collect_static, empty_database_cache, gunicorn_server

LIMIT = 3


@pytest.fixture
def two_workers(live_launch_content):
    collect_static()
    with gunicorn_server(workers=2, SIGNUP_RATE_LIMIT=str(LIMIT), SIGNUP_RATE_LIMIT_WINDOW=str(10**9),
                         LOGIN_MAX_FAILURES_PER_USER=str(LIMIT),
                         EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend") as url:
        yield url


@pytest.mark.multiprocess
def test_every_worker_serves_an_editors_change_within_a_second(two_workers):
    create_editor()
    page_path = Workload.objects.get(key="llm-training").get_absolute_url("es")
    # A new connection per request: the kernel spreads them over both workers, which both cache the page.
    for _ in range(12):
        status, _headers, page = Browserless(two_workers).request("GET", page_path)
        assert status == 200 and "desde2,88US$" in squash(page)

    editor = log_in(two_workers)
    change_path = reverse("admin:catalog_gpu_change", args=[GPU.objects.get(slug="h100-sxm").pk])
    fields = form_fields(editor.request("GET", change_path)[2], "gpu_form")
    fields.update({"price_usd_per_hour": "2.50", "_save": "Save"})
    assert editor.request("POST", change_path, fields)[0] == 302

    time.sleep(1.2)
    pages = [Browserless(two_workers).request("GET", page_path)[2] for _ in range(12)]
    stale = [page for page in pages if "desde2,50US$" not in squash(page)]
    assert stale == [], f"{len(stale)} of 12 requests served the page from before the change"


@pytest.mark.multiprocess
def test_the_signup_limit_counts_both_workers_together(two_workers):
    statuses = [submit_signup(Browserless(two_workers), f"visitor{n}@example.com") for n in range(2 * LIMIT)]
    assert statuses == [303] * LIMIT + [429] * LIMIT


@pytest.mark.multiprocess
def test_the_admin_lockout_counts_both_workers_together(two_workers):
    create_editor()
    login_path = reverse("admin:login")

    def attempt(password):
        agent = Browserless(two_workers)
        fields = form_fields(agent.request("GET", login_path)[2], "login-form")
        fields.update({"username": "editor", "password": password, "next": reverse("admin:index")})
        return agent.request("POST", login_path, fields)[0]

    # The failure that reaches the limit is answered with the lockout already.
    assert [attempt("wrong") for _ in range(2 * LIMIT)] == [200] * (LIMIT - 1) + [429] * (LIMIT + 1)
    # Locked out: even the right password is refused, by either worker.
    assert [attempt(PASSWORD) for _ in range(4)] == [429] * 4


def test_a_database_cache_counter_loses_no_count_and_keeps_its_expiry(transactional_db):
    """Django's own incr reads, adds and writes back (with the default timeout): concurrent counts get
    lost, and a 15-minute lockout becomes a 5-minute one. Four threads, four connections, one row."""
    empty_database_cache()
    counters = DatabaseCache("django_cache", {})
    counters.add("failures", 0, timeout=900)
    expiry_query = "SELECT expires FROM django_cache WHERE cache_key = %s"
    key = counters.make_key("failures")
    with connection.cursor() as cursor:
        cursor.execute(expiry_query, [key])
        expires = cursor.fetchone()[0]
    start = threading.Barrier(4)

    def count():
        start.wait()
        try:
            for _ in range(25):
                counters.incr("failures")
        finally:
            connection.close()

    threads = [threading.Thread(target=count) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counters.get("failures") == 100
    with connection.cursor() as cursor:
        cursor.execute(expiry_query, [key])
        assert cursor.fetchone()[0] == expires
    with pytest.raises(ValueError):
        counters.incr("never-added")
