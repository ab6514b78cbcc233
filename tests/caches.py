"""Caches that keep, for the tests of what the caches do: the test settings' caches keep nothing
(everx/settings/test.py), so every other test reads the database as the test before it left it."""
import pytest
from django.core.cache import caches

# The caches of one process, as a server's are without Redis (a local memory cache stands for the shared one).
CACHES_AS_SERVED = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "everx-tests"},
    "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "everx-test-pages"},
    "memory": {"BACKEND": "caching.memory.MemoryCache", "LOCATION": "everx-tests", "TIMEOUT": None},
}


def empty_caches():
    for cache in caches.all():
        cache.clear()


@pytest.fixture
def caches_as_served(settings):
    """The caches of CACHES_AS_SERVED, empty at the start and the end of the test (a local memory cache's entries
    outlive its settings); the content version and any outage noticed are forgotten with the settings' change
    (caching/apps.py)."""
    settings.CACHES = CACHES_AS_SERVED
    empty_caches()
    yield caches
    empty_caches()
