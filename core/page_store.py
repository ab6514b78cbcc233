"""The pages' own space in the shared cache (the ``pages`` alias), bounded in bytes.

Pages never share an evictable space with state: the content version stays in
the default alias (which never culls a live key, ``core.database_cache``); pages live in
their own table (or Redis database), which may be emptied at any time without touching state.

The bytes stored under each content version are counted in the default alias; past
``PAGE_CACHE_MAX_BYTES`` a page is not stored (it is still rendered and served). The first page stored
under a new content version empties the pages' space, as the pages of earlier versions are never asked
for again: whatever arrives, the space holds about ``PAGE_CACHE_MAX_BYTES`` at most (plus what a process
still on the previous version stores in the second before it reads the new one, within that version's
own bound). Nothing else is ever culled to make room."""
import pickle

from django.conf import settings

from .shared_cache import shared_cache

PAGES_ALIAS = "pages"
# A database cache row besides its value: key, expiry and the row's own header, roughly.
ROW_OVERHEAD_BYTES = 200


def stored_bytes_key(version):
    return f"page-bytes:{version}"


def stored_size(key, entry):
    """The bytes a page takes in the shared cache, counted as the database cache stores it (base64 of the
    pickle, a third larger than what Redis keeps): the bound holds for either."""
    pickled = len(pickle.dumps(entry, pickle.HIGHEST_PROTOCOL))
    return 4 * -(-pickled // 3) + len(key) + ROW_OVERHEAD_BYTES


def get_page(key):
    """The page stored under ``key`` (None if none); raises CacheUnavailable."""
    return shared_cache("get", key, cache_alias=PAGES_ALIAS)


def has_room(version, size):
    """Whether ``size`` more bytes fit under ``version``'s bound now (a later ``put_page`` decides). Raises
    CacheUnavailable."""
    stored = shared_cache("get", stored_bytes_key(version)) or 0
    return stored + size <= settings.PAGE_CACHE_MAX_BYTES


def put_page(key, version, entry):
    """Stores the page under ``key`` unless the bytes of ``version`` would pass the bound; returns whether it
    was stored. Raises CacheUnavailable."""
    size = stored_size(key, entry)
    counter = stored_bytes_key(version)
    if size > settings.PAGE_CACHE_MAX_BYTES:
        return False
    if shared_cache("add", counter, 0, timeout=settings.PAGE_CACHE_SECONDS):
        shared_cache("clear", cache_alias=PAGES_ALIAS)
    try:
        total = shared_cache("incr", counter, size)
    except ValueError:  # expired between add and incr: the next page starts the count again
        return False
    if total > settings.PAGE_CACHE_MAX_BYTES:
        shared_cache("decr", counter, size)
        return False
    shared_cache("set", key, entry, timeout=settings.PAGE_CACHE_SECONDS, cache_alias=PAGES_ALIAS)
    return True
