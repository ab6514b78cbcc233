"""The browser of the browser tests: Debian's Chromium, driven by Playwright."""
import pytest
from django.db import connections

from .page_judges import CHROMIUM, CHROMIUM_HEADLESS_SHELL


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


@pytest.fixture(scope="session")
def playwright(playwright):
    """Playwright's sync API, with Django's database connections closed before it stops. While its event loop runs
    in this thread, Django keeps the connections apart from those of the thread (asgiref's thread-critical locals
    are then per context): the ORM in and after a browser test uses a second connection, which nothing could
    close once the loop has stopped, and which would keep pytest-django from dropping the test database."""
    yield playwright
    connections.close_all()
