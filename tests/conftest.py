import os

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.utils import translation

# Playwright's sync API runs an event loop in this thread; Django's ORM is used beside it in tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the default language: a test that activates one must not leak it."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: the database is rolled back between tests, the cache is not."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def launch_content(db):
    """The launch content, loaded from the versioned data files as `make run` loads it."""
    call_command("load_launch_content", reset=True, stdout=open(os.devnull, "w"))


@pytest.fixture
def live_launch_content(transactional_db):
    """The launch content, committed, for tests that drive a browser against the live server."""
    call_command("load_launch_content", reset=True, stdout=open(os.devnull, "w"))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium, never a downloaded browser; no background traffic on a closed network."""
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run",
        ],
    }
