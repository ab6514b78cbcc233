import os
import sys

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.test.utils import setup_test_environment, teardown_test_environment
from django.utils import translation

from . import editors
from .markers import starts_processes

pytest_plugins = [
    "tests.launch_version", "tests.launch_content", "tests.schema_history", "tests.browsers", "tests.sqlite_sites"]

# Playwright's sync API runs an event loop in this thread; Django's ORM is used beside it in tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

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
    if event in PROCESS_START_EVENTS and _running_test is not None and not starts_processes(_running_test):
        raise RuntimeError(f"{_running_test.nodeid} starts a process ({event} {args[:2]}): mark it multiprocess")


sys.addaudithook(refuse_processes_from_unmarked_tests)


def pytest_collection_modifyitems(items):
    """The long tests first, then the others that start processes, then the rest, each group in the order collected:
    the workers (``--dist worksteal``, Makefile) each take half the run and an idle one takes half of what another
    has left, so a run ends on short tests rather than on one worker alone in a long one."""
    items.sort(key=lambda item: 0 if item.get_closest_marker("long") else 1 if starts_processes(item) else 2)


@pytest.fixture(autouse=True, scope="session")
def django_test_environment():
    """Django's test set-up, but for its instrumented template renderer (a signal and a copy of the context at each
    template, about 7 % of a page test's time): the test client's host, the mail backend and no debug pages are
    everx/settings/test.py's. The few tests that read ``response.templates`` ask for ``recorded_templates``."""
    mail.outbox = []
    yield


@pytest.fixture
def recorded_templates():
    """``response.templates`` and ``response.context`` filled, as in Django's own test set-up."""
    setup_test_environment()
    yield
    teardown_test_environment()


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
