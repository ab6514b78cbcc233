import pytest


@pytest.fixture(autouse=True)
def caches_that_keep(caches_as_served):
    """The caching tests' caches keep what they are given, as a server's do (tests/caches.py)."""
    return caches_as_served
