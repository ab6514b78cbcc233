"""The launch content in the test database: loaded and committed once per session, so that each test, in a
transaction rolled back at its end, finds it as loaded; put back after a test that commits (its teardown empties
every table)."""
import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client

from . import launch_copy
from .launch_version import forget_the_cache
from .markers import has_own_state
from .sitemap import sitemap_paths


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, with the launch content loaded and committed once per session: each `db` test runs in a
    transaction rolled back at its end, so it finds the content as loaded, whatever the test before it changed."""
    with django_db_blocker.unblock():
        launch_copy.load_launch_content()
    yield
    with django_db_blocker.unblock():
        launch_copy.wait_for_other_sessions()


@pytest.fixture(autouse=True)
def launch_content_put_back(request, django_db_blocker):
    """The launch content back before a test when a transactional test's teardown emptied every table: put back
    as the session loaded it (tests/launch_copy.py). Not inside a test's transaction (a test marked ``django_db``
    has begun it before this: it looks again for the next test), nor before the test database is made."""
    if launch_copy.tables_may_be_empty and not connection.in_atomic_block \
            and connection.settings_dict["NAME"].startswith("test_"):
        with django_db_blocker.unblock():
            launch_copy.ensure_launch_content()
    yield
    launch_copy.tables_may_be_empty |= has_own_state(request.node)


@pytest.fixture
def launch_content(db):
    """The launch content, loaded from the versioned data files as `make run` loads it (once per session; see
    django_db_setup), committed; put back if a transactional test emptied the tables."""
    if launch_copy.tables_may_be_empty:
        launch_copy.ensure_launch_content()


@pytest.fixture
def live_launch_content(transactional_db):
    """The launch content, committed, for tests that drive a browser or a server (a transactional test: its
    teardown empties the tables)."""
    launch_copy.ensure_launch_content()


@pytest.fixture(scope="session")
def sitemap_pages(django_db_setup, django_db_blocker):
    """Every page the sitemap lists, rendered once per session from the launch content as loaded: a dict
    of path to HTML, in the sitemap's order, for the tests that read every page and change no content."""
    with django_db_blocker.unblock():
        launch_copy.ensure_launch_content()
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
