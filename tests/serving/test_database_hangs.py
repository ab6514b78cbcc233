"""A database that hangs costs a request a bounded time and the 503 page in the visitor's language, never a thread held
for ever, and the rest of the site goes on answering (serving/database_limits.py, decision 30).

Nothing is mocked: the module starts a PostgreSQL cluster of its own (``PostgresCluster``, on a unix socket), migrated
and loaded as a deploy does, and gunicorn with the production settings on it (one worker of 8 threads, connections
kept 60 s and health-checked, the shared cache in the database as without REDIS_URL), with the timeouts set low
through the environment. The tests break that server:

- its postmaster frozen (SIGSTOP): a new connection is accepted by the kernel (the socket's backlog) and never
  answered, so it waits for the connect timeout; the sessions already open are other processes, and still answer;
- every process of it frozen (the postmaster and its backends, as a server that stopped scheduling): a kept
  connection's health check is sent and never answered, and nothing on the server can cancel it;
- a table locked (ACCESS EXCLUSIVE, in a transaction the test keeps open) under a form's insert or a page's read, and
  a statement slowed down by a trigger (pg_sleep): the server cancels it at the lock or statement timeout.

A unix socket, not TCP: a frozen process is answered for by its kernel in both (the connection accepted, the query's
bytes acknowledged), so TCP keepalives and tcp_user_timeout, which detect a peer that no longer acknowledges, would
not fire on loopback either; what bounds the waits here is the connect timeout and the site's own wait for an answer,
the same on both."""
import os
import signal
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from optin.models import RequestOrigin
from serving.database_limits import RETRY_AFTER_TIMEOUT_SECONDS
from signups.models import Signup, WaitlistRequest

from ..html import form_fields
from ..http_visitors import Browserless, assert_unavailable_page, visit
from ..localized_urls import url_in
from ..servers import site_on_its_own_database
from ..signup_helpers import signup_data

pytestmark = pytest.mark.multiprocess

# The server's bounds, set low (seconds): a connection attempt (libpq's minimum), a statement, a lock wait, and
# how much longer than a statement the site waits for a server that does not answer at all.
CONNECT_TIMEOUT, STATEMENT_TIMEOUT, LOCK_TIMEOUT, NO_ANSWER_GRACE = 2, 1, 0.5, 1
# What a loaded machine (2 cores, other jobs) may add to a bound before the test calls it unbounded.
SLACK = 1.5
# Past the second a server keeps the content version it read (CONTENT_VERSION_MAX_AGE in production).
PAST_THE_KEPT_VERSION = 1.2
STORED = (WaitlistRequest, Signup, RequestOrigin)


class Site:
    def __init__(self, url, cluster):
        self.url, self.cluster = url, cluster

    def get(self, view_name, language="pt"):
        return timed(visit, Browserless(self.url), "GET", url_in(language, view_name))

    def rows(self):
        return self.cluster.rows(STORED)

    def forget_visitors(self):
        self.cluster.empty(STORED)

    def end_the_sites_sessions(self):
        """Every session but the test's own ended, and gone: the site's threads keep no connection."""
        with self.cluster.connect() as database:
            ended = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() " \
                    "AND backend_type = 'client backend'"
            database.execute(ended)
            deadline = time.monotonic() + 10
            while database.execute("SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                                   "AND backend_type = 'client backend'").fetchone()[0]:
                assert time.monotonic() < deadline
                time.sleep(0.05)

    def processes(self, *, backends):
        """The postmaster's pid (from postmaster.pid), and with ``backends`` every process it started."""
        postmaster = int((self.cluster.data / "postmaster.pid").read_text().split()[0])
        children = [int(stat.parent.name) for stat in Path("/proc").glob("[0-9]*/stat") if backends
                    and stat.exists() and parent_pid(stat) == postmaster]
        return [postmaster, *children]

    @contextmanager
    def frozen(self, *, backends):
        """The server's postmaster (and with ``backends`` every process of the server) stopped, continued at the end."""
        pids = self.processes(backends=backends)
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        try:
            yield
        finally:
            for pid in pids:
                os.kill(pid, signal.SIGCONT)

    @contextmanager
    def locked(self, model):
        """``model``'s table locked (ACCESS EXCLUSIVE: no read, no write) by a transaction of the test's, kept open."""
        with self.cluster.connect() as database, database.transaction():
            database.execute(f'LOCK TABLE "{model._meta.db_table}" IN ACCESS EXCLUSIVE MODE')
            yield

    @contextmanager
    def slowed(self, model, seconds):
        """Every insert into ``model``'s table takes ``seconds`` more (a trigger's pg_sleep)."""
        table, name = model._meta.db_table, f"slowed_{model._meta.db_table}"
        with self.cluster.connect() as database:
            database.execute(f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS "
                             f"$$ BEGIN PERFORM pg_sleep({seconds}); RETURN NEW; END $$; "
                             f'CREATE TRIGGER {name} BEFORE INSERT ON "{table}" FOR EACH ROW EXECUTE FUNCTION {name}()')
        try:
            yield
        finally:
            with self.cluster.connect() as database:
                database.execute(f'DROP TRIGGER {name} ON "{table}"; DROP FUNCTION {name}()')

    def form(self, visitor, language, data):
        path = url_in(language, "signups:signup")
        page = visit(visitor, "GET", path)
        assert page.status_code == 200
        return path, {**form_fields(page.content.decode(), action=path), **data}


def parent_pid(stat):
    try:
        return int(stat.read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):  # the process ended meanwhile
        return None


def timed(function, *args):
    """``function(*args)`` and the seconds it took."""
    started = time.monotonic()
    result = function(*args)
    return result, time.monotonic() - started


@pytest.fixture(scope="module")
def running_site():
    limits = {"DATABASE_CONNECT_TIMEOUT": str(CONNECT_TIMEOUT), "DATABASE_STATEMENT_TIMEOUT": str(STATEMENT_TIMEOUT),
              "DATABASE_LOCK_TIMEOUT": str(LOCK_TIMEOUT), "DATABASE_NO_ANSWER_GRACE": str(NO_ANSWER_GRACE)}
    with site_on_its_own_database(SIGNUP_RATE_LIMIT="1000", **limits) as (url, cluster):
        yield Site(url, cluster)


@pytest.fixture
def site(running_site):
    running_site.forget_visitors()
    return running_site


def assert_answers_normally(site):
    """The site answers as before, once the second after a timed-out connection attempt is over."""
    time.sleep(RETRY_AFTER_TIMEOUT_SECONDS)
    response, _seconds = site.get("signups:signup")
    assert response.status_code == 200


def test_a_frozen_postmaster_costs_a_page_one_connect_timeout_and_the_503(site):
    """No kept connection (its session ended), so the page's first query connects: it waits for the connect timeout,
    once (the rest of the request, and the other threads meanwhile, do not try again for a second), then the 503."""
    site.end_the_sites_sessions()
    time.sleep(PAST_THE_KEPT_VERSION)
    with site.frozen(backends=False):
        response, seconds = site.get("signups:signup")
        assert_unavailable_page(response, "pt")
        assert CONNECT_TIMEOUT - 0.2 < seconds < CONNECT_TIMEOUT + SLACK
        again, at_once = site.get("signups:signup")  # within the second after the timeout: not tried again
        assert_unavailable_page(again, "pt")
        assert at_once < 0.5
    assert_answers_normally(site)


def test_a_whole_frozen_server_costs_a_kept_connection_its_no_answer_bound_then_a_connect_timeout(site):
    """Every process of the server stopped: a kept connection's health check is never answered; the site closes it
    after DATABASE_STATEMENT_TIMEOUT + DATABASE_NO_ANSWER_GRACE and connects anew, which times out: the 503, bounded.
    (Which of the worker's threads takes the request, and so whether it has a kept connection, is the worker's
    choice: the bound is the sum.)"""
    assert_answers_normally(site)
    time.sleep(PAST_THE_KEPT_VERSION)
    with site.frozen(backends=True):
        response, seconds = site.get("signups:signup")
    assert_unavailable_page(response, "pt")
    assert CONNECT_TIMEOUT - 0.2 < seconds < STATEMENT_TIMEOUT + NO_ANSWER_GRACE + CONNECT_TIMEOUT + SLACK
    assert_answers_normally(site)


def test_while_a_request_waits_on_a_frozen_server_the_rest_of_the_site_answers(site):
    """One request waits on the database (a connect timeout); meanwhile the worker's other threads answer a static
    file and the page held in the server's memory at once, and /healthz within the connect timeout."""
    home, _seconds = site.get("home")
    assert home.status_code == 200
    site.end_the_sites_sessions()
    answers = {}
    with site.frozen(backends=False):
        waiting = threading.Thread(target=lambda: answers.update(form=site.get("signups:signup")))
        waiting.start()
        time.sleep(0.3)  # the form's request is in its connection attempt
        visitor = Browserless(site.url)
        static, static_seconds = timed(visit, visitor, "GET", "/static/css/site.css")
        cached, cached_seconds = timed(visit, visitor, "GET", url_in("pt", "home"))
        assert waiting.is_alive()  # both answered while the form's request still waits
        health, health_seconds = timed(visit, visitor, "GET", "/healthz")
        waiting.join()
    assert static.status_code == 200 and static_seconds < 0.5
    # The home page, rendered before, within the second its content version is kept: served whole from memory.
    assert cached.status_code == 200 and cached.content == home.content and cached_seconds < 0.5
    # /healthz makes its own connection attempt (the form's has not timed out yet, so nothing says the server hangs).
    assert health.status_code == 503 and b'"database": "failing"' in health.content
    assert health_seconds < CONNECT_TIMEOUT + SLACK
    form, seconds = answers["form"]
    assert_unavailable_page(form, "pt")
    assert seconds < CONNECT_TIMEOUT + SLACK
    assert_answers_normally(site)


def test_past_the_kept_content_version_a_page_held_in_memory_gets_the_503_at_once_after_a_connect_timeout(site):
    """The shared cache is the database here (no REDIS_URL): once the content version a server read is older than
    a second, the version it stands in with has nothing stored under it, and the page needs the database, which is
    not tried again in the second after a timed-out attempt. (With Redis, the page would still be served.)"""
    home, _seconds = site.get("home")
    assert home.status_code == 200
    site.end_the_sites_sessions()
    with site.frozen(backends=False):
        time.sleep(PAST_THE_KEPT_VERSION)
        first, first_seconds = site.get("signups:signup")
        cached, cached_seconds = site.get("home")
    assert_unavailable_page(first, "pt")
    assert_unavailable_page(cached, "pt")
    assert first_seconds < CONNECT_TIMEOUT + SLACK and cached_seconds < 0.5
    assert_answers_normally(site)


def test_a_signup_whose_table_is_locked_gets_a_503_at_the_lock_timeout_and_is_stored_once_sent_again(site):
    visitor = Browserless(site.url)
    path, fields = site.form(visitor, "de", signup_data(language="de"))
    with site.locked(WaitlistRequest):
        response, seconds = timed(visit, visitor, "POST", path, fields)
    assert_unavailable_page(response, "de")
    assert LOCK_TIMEOUT - 0.1 < seconds < LOCK_TIMEOUT + SLACK
    assert site.rows() == {"WaitlistRequest": 0, "Signup": 0, "RequestOrigin": 0}
    response = visit(visitor, "POST", path, fields)
    assert response.status_code == 303 and response["Location"] == url_in("de", "signups:signup_thanks")
    assert site.rows() == {"WaitlistRequest": 1, "Signup": 0, "RequestOrigin": 1}


def test_a_page_whose_table_is_locked_gets_a_503_at_the_lock_timeout_and_answers_once_it_is_released(site):
    """The signup form lists the workloads, read from their table at each request."""
    from workloads.models import Workload

    assert_answers_normally(site)
    with site.locked(Workload):
        response, seconds = site.get("signups:signup")
    assert_unavailable_page(response, "pt")
    assert LOCK_TIMEOUT - 0.1 < seconds < LOCK_TIMEOUT + SLACK
    assert_answers_normally(site)


def test_a_statement_the_server_is_slow_to_run_is_cancelled_at_the_statement_timeout(site):
    visitor = Browserless(site.url)
    path, fields = site.form(visitor, "es", signup_data(email="lenta@example.com"))
    with site.slowed(WaitlistRequest, seconds=STATEMENT_TIMEOUT * 5):
        response, seconds = timed(visit, visitor, "POST", path, fields)
    assert_unavailable_page(response, "es")
    assert STATEMENT_TIMEOUT - 0.1 < seconds < STATEMENT_TIMEOUT + SLACK
    assert site.rows() == {"WaitlistRequest": 0, "Signup": 0, "RequestOrigin": 0}
