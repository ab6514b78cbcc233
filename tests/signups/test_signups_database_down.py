"""With the database unreachable, or a commit failing, the visitor gets a 503 page in their language with
Retry-After, and never a thank-you for a signup that was not stored; a worker whose commit fails keeps the request.

Every failure is a real PostgreSQL server's, nothing is mocked:

- The database unreachable: the suite's own server cannot be stopped (every pytest-xdist worker uses it), so the
  module starts a cluster of its own (``PostgresCluster``: initdb in a temporary folder, a unix socket there), migrated
  and loaded as a deploy does, and gunicorn with the production settings on it (one worker, connections kept 60 s and
  health-checked, as in production). A test stops that server with ``pg_ctl stop -m immediate`` (its processes end
  at once, as in a crash: the worker's kept connection dies and a new one finds no socket) and starts it again
  before it ends, then reads what was stored from the server itself.
- A backend ended under a request or at COMMIT: a trigger whose function ends its own session
  (``pg_terminate_backend(pg_backend_pid())``), so that the statement, or with ``DEFERRABLE INITIALLY DEFERRED``
  COMMIT itself, fails as when the server goes away there: psycopg's ``AdminShutdown`` ("terminating connection due
  to administrator command"), an ``OperationalError``, and the transaction never committed; at the very statement,
  with no race (as another connection's ``pg_terminate_backend`` would have to win). The forms' triggers live
  in the module's cluster; the workers' run in this process (``apply_requests``, as the mail worker calls it), on the
  suite's database, whose triggers the test drops before it ends.

What really happens, beside what the mocks said: a page the server holds in its memory (the home page; the forms carry
a CSRF token and are never kept) is still served, whole, for at most the second a server keeps the content version it
read, and only then gets the 503; a server started again is used again at the next request (the kept connection
fails its health check and is replaced), so a visitor who sends the form again then is thanked, and stored once.
Every real failure is an ``OperationalError`` (a connect finding no server, "connection is bad"; a session ended,
``AdminShutdown``): the ``InterfaceError`` the mocks also raised (a closed connection used again) never reaches a
view, as the health check replaces a dead kept connection before a request uses it."""
import time
from contextlib import contextmanager

import pytest
from django.core import mail
from django.db import OperationalError, connection

from optin.models import Mailbox, OutboxEmail, RequestOrigin
from providers.models import ApplicationRequest, ProviderApplication
from signups.models import Signup, WaitlistRequest

from .. import factories
from ..html import form_fields
from ..http_visitors import Browserless, assert_unavailable_page, visit
from ..localized_urls import url_in
from ..servers import site_on_its_own_database
from ..signup_helpers import provider_data, run_mail_worker, signup_data, smtp_server

# The whole module: its site, set up once (``running_site``), is torn down in whichever of its tests runs last.
pytestmark = pytest.mark.multiprocess

# What a session ended by its server answers (psycopg's AdminShutdown).
SESSION_ENDED = "terminating connection due to administrator command"
# Past the second a server keeps the content version it read (CONTENT_VERSION_MAX_AGE in production): a page it
# rendered before is not served from its memory any more.
PAST_THE_KEPT_VERSION = 1.2
# The production settings refuse an address at a reserved top-level domain, such as the tests' .example.
PROVIDER_EMAIL = "marta@computo.example.com"
# What a visitor's signup or application leaves, whatever else it leads to.
STORED = (WaitlistRequest, Signup, ApplicationRequest, ProviderApplication, RequestOrigin, OutboxEmail)


class Site:
    """The module's gunicorn on its own PostgreSQL cluster."""

    def __init__(self, url, cluster):
        self.url, self.cluster = url, cluster

    def rows(self):
        return self.cluster.rows(STORED)

    def forget_visitors(self):
        """Every table of ``STORED`` emptied (and what refers to them), and the mailboxes' budgets."""
        self.cluster.empty((*STORED, Mailbox))

    @contextmanager
    def database_stopped(self):
        self.cluster.stop()
        try:
            yield
        finally:
            self.cluster.start()

    def form(self, visitor, language, view_name, data):
        """The form's fields as a browser sends them, its CSRF token and hidden fields fetched while the database
        answers, filled in with ``data``."""
        path = url_in(language, view_name)
        page = visit(visitor, "GET", path)
        assert page.status_code == 200
        return path, {**form_fields(page.content.decode(), action=path), **data}


@pytest.fixture(scope="module")
def running_site():
    """Set up once, in each pytest-xdist worker that runs a test of the site; the workers' tests run in this process,
    on the suite's database, without it."""
    with site_on_its_own_database(SIGNUP_RATE_LIMIT="1000") as (url, cluster):
        yield Site(url, cluster)


@pytest.fixture
def site(running_site):
    """The module's site, its database up and holding the launch content and nothing any visitor sent."""
    running_site.forget_visitors()
    return running_site


def stored(**counts):
    """``Site.rows()`` when the tables hold ``counts`` rows (the others none)."""
    return {model.__name__: counts.get(model.__name__, 0) for model in STORED}


def ends_the_session_sql(table, *, at_commit):
    """A trigger on ``table`` whose function ends the session that inserts a row: at the insert, or
    ``at_commit`` (deferred: COMMIT runs it, and fails)."""
    name = f"ends_the_session_{table}"
    when = "DEFERRABLE INITIALLY DEFERRED" if at_commit else ""
    create = (f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS "
              f"$$ BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$; "
              f'CREATE CONSTRAINT TRIGGER {name} AFTER INSERT ON "{table}" {when} '
              f"FOR EACH ROW EXECUTE FUNCTION {name}()")
    drop = f'DROP TRIGGER {name} ON "{table}"; DROP FUNCTION {name}()'
    return create, drop


def in_the_cluster(cluster):
    """Runs SQL in the module's cluster, on a connection of its own."""
    def execute(sql):
        with cluster.connect() as database:
            database.execute(sql)
    return execute


def here(sql):
    """Runs SQL in the suite's database (this test's, committed)."""
    with connection.cursor() as cursor:  # after a failed commit, on a new connection
        cursor.execute(sql)


@contextmanager
def session_ended_on_insert(model, *, at_commit, execute):
    """Every insert into ``model``'s table ends its session (``ends_the_session_sql``), in the database that
    ``execute`` runs SQL in (``in_the_cluster``, ``here``)."""
    create, drop = ends_the_session_sql(model._meta.db_table, at_commit=at_commit)
    execute(create)
    try:
        yield
    finally:
        execute(drop)


@pytest.mark.parametrize("failure", ["database stopped", "insert ends the session"])
def test_a_signup_the_database_fails_gets_a_503_not_a_thank_you(site, failure):
    """The server stopped, or its session ended under the insert (a signup request is one insert, committed as it
    runs: the server going away then fails the insert)."""
    visitor = Browserless(site.url)
    path, fields = site.form(visitor, "de", "signups:signup", signup_data(language="de"))
    with (site.database_stopped() if failure == "database stopped"
          else session_ended_on_insert(WaitlistRequest, at_commit=False, execute=in_the_cluster(site.cluster))):
        response = visit(visitor, "POST", path, fields)
    assert_unavailable_page(response, "de")
    assert site.rows() == stored()


def test_a_signup_sent_again_once_the_database_is_back_is_thanked_and_stored_once(site):
    """The server started again: the worker's kept connection fails its health check and is replaced, at once."""
    visitor = Browserless(site.url)
    path, fields = site.form(visitor, "es", "signups:signup", signup_data(email="vuelve@example.com"))
    with site.database_stopped():
        assert_unavailable_page(visit(visitor, "POST", path, fields), "es")
    response = visit(visitor, "POST", path, fields)
    assert response.status_code == 303 and response["Location"] == url_in("es", "signups:signup_thanks")
    assert site.rows() == stored(WaitlistRequest=1, RequestOrigin=1)


@pytest.mark.parametrize("view_name", ["signups:signup", "providers:application", "home"])
def test_pages_with_the_database_stopped_get_the_503_page(site, view_name):
    with site.database_stopped():
        time.sleep(PAST_THE_KEPT_VERSION)
        response = visit(Browserless(site.url), "GET", url_in("pt", view_name))
    assert_unavailable_page(response, "pt")


def test_a_page_the_server_holds_is_served_whole_for_at_most_the_second_it_keeps_the_content_version(site):
    path = url_in("pt", "home")
    page = visit(Browserless(site.url), "GET", path)
    assert page.status_code == 200
    with site.database_stopped():
        at_once = visit(Browserless(site.url), "GET", path)
        time.sleep(PAST_THE_KEPT_VERSION)
        later = visit(Browserless(site.url), "GET", path)
    if at_once.status_code == 200:  # within the second (a loaded machine may take longer to stop the server)
        assert at_once.content == page.content
    else:
        assert_unavailable_page(at_once, "pt")
    assert_unavailable_page(later, "pt")


def test_a_failed_commit_gets_a_503_and_leaves_neither_row_nor_mail(site):
    """The provider form writes its request and the request's origin in one transaction, whose COMMIT ends the
    session here. The mail worker then finds nothing to apply or send; the same form sent again once the database
    commits is stored, and acknowledged, once."""
    visitor = Browserless(site.url)
    path, fields = site.form(visitor, "es", "providers:application", provider_data(email=PROVIDER_EMAIL))
    with session_ended_on_insert(ApplicationRequest, at_commit=True, execute=in_the_cluster(site.cluster)):
        response = visit(visitor, "POST", path, fields)
    assert_unavailable_page(response, "es")
    assert site.rows() == stored()
    with smtp_server() as (port, mailbox):
        mail_worker = {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(port), "EMAIL_TIMEOUT": "5",
                       "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend"}
        site.cluster.manage("send_outbox", **mail_worker)
        assert site.rows() == stored() and mailbox.messages == []

        response = visit(visitor, "POST", path, fields)
        assert response.status_code == 303 and response["Location"] == url_in("es", "providers:thanks")
        site.cluster.manage("send_outbox", **mail_worker)
    assert site.rows() == stored(ProviderApplication=1, OutboxEmail=1)
    assert [message.rcpt_tos for message in mailbox.messages] == [[PROVIDER_EMAIL]]


def test_a_worker_whose_commit_fails_keeps_the_provider_request_for_its_next_pass(client, live_launch_content):
    from providers.applications import apply_requests

    client.post(url_in("es", "providers:application"), provider_data())
    with session_ended_on_insert(ProviderApplication, at_commit=True, execute=here), \
            pytest.raises(OperationalError, match=SESSION_ENDED):
        apply_requests()
    assert ApplicationRequest.objects.count() == 1 and not ProviderApplication.objects.exists()
    assert apply_requests() == 1 and ProviderApplication.objects.count() == 1 and OutboxEmail.objects.count() == 1
    assert not ApplicationRequest.objects.exists() and not RequestOrigin.objects.exists()
    run_mail_worker()
    assert len(mail.outbox) == 1


def test_a_worker_whose_commit_fails_keeps_the_signup_request_for_its_next_pass(transactional_db):
    from signups.waitlist import apply_requests

    factories.waitlist_request()
    with session_ended_on_insert(Signup, at_commit=True, execute=here), \
            pytest.raises(OperationalError, match=SESSION_ENDED):
        apply_requests()
    assert WaitlistRequest.objects.count() == 1 and not Signup.objects.exists()
    assert apply_requests() == 1 and Signup.objects.count() == 1 and OutboxEmail.objects.count() == 1
