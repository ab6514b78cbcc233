import gc
import io
import os
import sqlite3
import subprocess
import sys
import time
import warnings
from contextlib import closing

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.template.base import Template
from django.test import Client
from django.test.utils import _TestState, instrumented_test_render
from django.utils import translation
from pytest_django.plugin import blocking_manager_key

from caching import content_version, shared
from workloads.models import Workload

from . import editors, launch_copy, launch_version, schema_history
from .page_judges import CHROMIUM, CHROMIUM_HEADLESS_SHELL
from .servers import PROJECT_DIR, production_env
from .sitemap import sitemap_paths

# Playwright's sync API runs an event loop in this thread; Django's ORM is used beside it in tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Tests that start other processes (servers, commands, a browser) carry one of these markers, so that
# `make test-fast` (-m "not browser and not quality and not multiprocess") leaves them all out.
MARKERS_OF_TESTS_THAT_START_PROCESSES = ("multiprocess", "browser", "quality")
PROCESS_START_EVENTS = {"subprocess.Popen", "os.posix_spawn", "os.system"}

_running_test = None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _running_test
    _running_test = item
    try:
        return (yield)
    finally:
        _running_test = None


def refuse_processes_from_unmarked_tests(event, args):
    test = _running_test
    if event in PROCESS_START_EVENTS and test is not None and not any(
            test.get_closest_marker(name) for name in MARKERS_OF_TESTS_THAT_START_PROCESSES):
        raise RuntimeError(f"{test.nodeid} starts a process ({event} {args[:2]}): mark it multiprocess")


sys.addaudithook(refuse_processes_from_unmarked_tests)


# Python's cycle collector, as a long test run needs it: a full collection walks every object alive, and a run
# keeps many (Django and the apps, the test modules, the content each worker keeps, parsed pages), so one every
# tenth of the usual times, and none of them walks the objects the start made, frozen once the tests are collected.
# Young collections as usual. Collections took 8-10 % of the page tests' time, two thirds of it in full ones; now
# 3 % (docs/benchmarks.md).
FULL_COLLECTION_THRESHOLD = 100  # middle-generation collections between two full ones; Python's default is 10


def pytest_configure(config):
    young, middle, _full = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_THRESHOLD)


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()


def running_order(item):
    """The long tests first, then the others that start processes, then the rest, each group in the order collected:
    the workers (``--dist worksteal``, Makefile) each take half the run and an idle one takes half of what another
    has left, so a run ends on short tests rather than on one worker alone in a long one."""
    if item.get_closest_marker("long"):
        return 0
    return 1 if any(item.get_closest_marker(name) for name in MARKERS_OF_TESTS_THAT_START_PROCESSES) else 2


def pytest_collection_modifyitems(items):
    items.sort(key=running_order)


@pytest.fixture(scope="session", autouse=True)
def templates_rendered_as_served(django_test_environment):
    """Templates render as on a server: Django's test set-up wraps every template render in a signal and a copy
    of its context (about 7 % of a page test's time) so that a response lists its templates and contexts. The
    few tests that read those ask for ``recorded_templates``."""
    Template._render = _TestState.saved_data.template_render


@pytest.fixture
def recorded_templates():
    """``response.templates`` and ``response.context`` filled, as in Django's own test set-up."""
    Template._render = instrumented_test_render
    yield
    Template._render = _TestState.saved_data.template_render


@pytest.fixture(scope="session", autouse=True)
def force_login_passes_the_second_factor():
    """``client.force_login(staff)`` logs in as the admin's login page does, second factor included
    (staff/staff_login.py): what a test of an admin page needs, as force_login skips the password. A test of the
    second factor itself logs in through the login page (tests/editors.py: ``login_data``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Client, "force_login", editors.force_login_with_second_factor)
        yield


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the default language: a test that activates one must not leak it."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


def forget_the_cache(keep_memory=False):
    """An empty cache, as this process would first see it: no outage noticed in the last second, no content version
    read (a test of an outage leaves both behind; the next test starts within the second). With ``keep_memory``,
    what this process cached in its ``memory`` alias stays: each page or loaded value is under the content version
    it was made from, and found again only under that version."""
    for alias in settings.CACHES:
        if not (keep_memory and alias == "memory"):
            caches[alias].clear()
    shared._unavailable_until = 0.0
    content_version._known, content_version._bump_pending = (None, 0.0), False


@pytest.fixture(autouse=True)
def empty_cache(request):
    """Each test starts with an empty cache (the database is rolled back between tests, the cache is not),
    under the content version the tests before it read the launch content under, unless it changes the
    database or the settings (tests/launch_version.py). The pages rendered under that version stay in the
    process's memory, as a server keeps them until the content changes; those of a test that left it go."""
    own_state = launch_version.has_own_state(request.node)
    launch_content_committed(request)
    forget_the_cache(keep_memory=not own_state)
    with launch_version.start_test(request.node):
        yield
    forget_the_cache(keep_memory=launch_version.end_test(request.node))
    global _tables_may_be_empty
    _tables_may_be_empty = _tables_may_be_empty or own_state


# Whether a test that commits (whose teardown empties every table) ran since the launch content was last seen.
_tables_may_be_empty = False


def launch_content_committed(request):
    """The launch content put back, committed, before a test starts when a transactional test's teardown emptied
    the tables: the tests after it find it as loaded and keep one content version, where each would put it back
    in its own rolled-back transaction, under a version of its own. Not once a test's transaction has begun (a
    test marked ``django_db`` begins it before this): the next test looks again. Nor before the test database is
    set up (a test with no database may start processes before any test asked for one)."""
    global _tables_may_be_empty
    if (_tables_may_be_empty and not connection.in_atomic_block
            and connection.settings_dict["NAME"].startswith("test_")):
        with request.config.stash[blocking_manager_key].unblock():
            ensure_launch_content()
        _tables_may_be_empty = False


def load_launch_content():
    call_command("load_launch_content", reset=True, stdout=io.StringIO())


def ensure_launch_content():
    """The launch content, put back if the tables are empty: a transactional test's teardown empties every
    table, so the tests after one (transactional ones, or any in another order than pytest-django's) would find
    none. Put back as the session loaded it (tests/launch_copy.py), or loaded again."""
    if not Workload.objects.exists() and not launch_copy.put_back_launch_content():
        load_launch_content()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, with the launch content loaded and committed once per session: each `db` test
    runs in a transaction rolled back at its end, so it finds the content as loaded, whatever the test
    before it changed. At the end, no other session may keep the database from being dropped (sessions_left_open)."""
    with django_db_blocker.unblock():
        load_launch_content()
        launch_copy.copy_launch_content()
    yield
    with django_db_blocker.unblock():
        left_open = sessions_left_open()
    if left_open:
        warnings.warn(f"sessions of other processes on the test database at the end of the run: {left_open}",
                      stacklevel=1)


def other_sessions():
    """The other sessions on this worker's test database: (pid, application, connected at, state, last query)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid, application_name, backend_start, state, left(query, 160) FROM pg_stat_activity"
                       " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        return cursor.fetchall()


def close_other_connections_of_this_process():
    """Closes the database connections this process holds besides the current one, found among its objects.
    Playwright's sync API leaves an event loop running in this thread from the first browser test on, and Django's
    connections (asgiref's thread-critical locals) are then kept per context: the ORM in and after a browser test
    uses a second connection, still open when pytest-django drops the database after Playwright has stopped
    ("is being accessed by other users", seen at the end of some runs)."""
    current = connections["default"]
    # type(), not isinstance(): the objects include lazy ones, which isinstance() would evaluate (a response's CSP
    # nonce raises once its header is written).
    for wrapper in gc.get_objects():
        if issubclass(type(wrapper), BaseDatabaseWrapper) and wrapper is not current \
                and wrapper.vendor == "postgresql" and wrapper.connection is not None \
                and not wrapper.connection.closed:
            wrapper.connection.close()


def sessions_left_open(seconds=5):
    """The sessions besides this one on the test database at the end of the run, which would keep pytest-django from
    dropping it: this process's own are closed; those of other processes are waited for ``seconds`` and returned
    (pid, application, connected at, state, last query), so that the test that leaves one can be found."""
    if connection.vendor != "postgresql" or not other_sessions():
        return []
    close_other_connections_of_this_process()
    deadline = time.monotonic() + seconds
    while (left_open := other_sessions()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left_open


@pytest.fixture
def launch_content(db):
    """The launch content, loaded from the versioned data files as `make run` loads it (once per session;
    see django_db_setup). Looked for only when a test that commits ran since it was last seen: otherwise the
    tables hold it as loaded (a query saved for each of some 2,000 tests)."""
    if _tables_may_be_empty:
        ensure_launch_content()


@pytest.fixture(scope="session")
def sitemap_pages(django_db_setup, django_db_blocker):
    """Every page the sitemap lists, rendered once per session from the launch content as loaded: a dict
    of path to HTML, in the sitemap's order, for the tests that read every page and change no content."""
    with django_db_blocker.unblock():
        ensure_launch_content()
        forget_the_cache()
        client = Client()
        pages = {}
        for path in sitemap_paths(client):
            response = client.get(path)
            assert response.status_code == 200, path
            pages[path] = response.content.decode()
        forget_the_cache()
    return pages


@pytest.fixture
def empty_database(db):
    """No content at all, for a test of the site before any is loaded: every table emptied inside the
    test's transaction, so the launch content is back for the next test."""
    call_command("flush", interactive=False, inhibit_post_migrate=True, verbosity=0)


@pytest.fixture
def migrations_rolled_back(db):
    """``schema_history.migrate_to`` in a test whose transaction, schema changes included, is rolled back at its
    end (PostgreSQL's DDL is transactional): no migrating forward again, no emptied tables."""
    assert connection.in_atomic_block
    yield schema_history.migrate_to
    # Content types a migration made or renamed in the rolled-back transaction went with it.
    ContentType.objects.clear_cache()


@pytest.fixture
def live_launch_content(transactional_db):
    """The launch content, committed, for tests that drive a browser or a server (a transactional test:
    its teardown empties the tables)."""
    ensure_launch_content()


@pytest.fixture(scope="session")
def migrated_sqlite_template(tmp_path_factory):
    """A SQLite database migrated by ``manage.py migrate`` with the production settings, made once per worker (3 s
    alone): for the tests of a site on SQLite, which each start from a copy (``migrated_sqlite_url``)."""
    path = tmp_path_factory.mktemp("sqlite-template") / "migrated.sqlite3"
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=PROJECT_DIR,
                   env=production_env(DATABASE_URL=f"sqlite:///{path}"), check=True, capture_output=True, timeout=300)
    return path


@pytest.fixture
def migrated_sqlite_url(migrated_sqlite_template, tmp_path):
    """A fresh copy of the migrated SQLite database, in the test's folder, as its ``DATABASE_URL`` (SQLite's backup
    copies what its write-ahead log still holds too)."""
    path = tmp_path / "site.sqlite3"
    with closing(sqlite3.connect(migrated_sqlite_template)) as source, closing(sqlite3.connect(path)) as copy:
        source.backup(copy)
    return f"sqlite:///{path}"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium, never a downloaded browser: its headless shell, or the full browser when a test runs
    headed (``--headed``); no background traffic on a closed network."""
    headless = browser_type_launch_args.get("headless", True)
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM_HEADLESS_SHELL if headless else CHROMIUM,
        "args": [
            "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run",
        ],
    }
