"""One render per content version, however many requests arrive at once, across every worker and server.

A page the cache does not hold yet (the first request after an import or an admin save) is rendered by one
request; the others that arrive meanwhile wait for its stored copy instead of each rendering it (20 requests
for a 50,000-point price history each took 18–23 s when all of them rendered it). The mutex is the shared
cache's ``add`` (SET NX on Redis, an INSERT on the database cache's primary key): every process of every app
server sees it, and it expires by itself if its holder dies. A waiter asks the page cache again every
``POLL_SECONDS``; after ``wait_seconds`` it gets the ``busy`` answer (a 503 with Retry-After), never a render
of its own. With the shared cache unavailable (nothing can be stored either) or the page cache off, every
request renders, as without this module.

Use: ``render_once(cached_page(renders_once(view, key)), busy, wait_seconds)``. On a cache miss the inner view
takes the lock; the page cache is then asked once more under it (the holder before may have stored the page
meanwhile), renders and stores; ``render_once`` releases the lock after the store."""
import contextlib
import logging
import secrets
import time
from functools import wraps

from django.conf import settings
from django.http import HttpResponse

from .shared_cache import CacheUnavailable, shared_cache

logger = logging.getLogger(__name__)

# A holder that died (or a render slower than this) frees the lock after this many seconds.
LOCK_SECONDS = 60
POLL_SECONDS = 0.05


class RenderInProgress(HttpResponse):
    """What the inner view answers when another request holds the lock: not a 200, so the page cache passes it
    through unstored, and ``render_once`` waits and asks again."""

    status_code = 503


class LockTaken(HttpResponse):
    """What the inner view answers when it has just taken the lock: ``render_once`` asks the page cache again,
    now holding it, since the holder before may have stored the page between the first look and the lock."""

    status_code = 503


class RenderLock:
    def __init__(self, key):
        self.key = key
        self.token = secrets.token_hex(8)
        self.taken_at = None

    def acquire(self):
        """True when this request holds the lock now (also when the shared cache is unavailable: nothing
        can coordinate, or store, then)."""
        try:
            taken = shared_cache("add", self.key, self.token, timeout=LOCK_SECONDS)
        except CacheUnavailable:
            taken = True
        if taken:
            self.taken_at = time.monotonic()
        return taken

    def release(self):
        # Past its expiry the key may be another request's lock by now: left to expire.
        if time.monotonic() - self.taken_at < LOCK_SECONDS:
            with contextlib.suppress(CacheUnavailable):
                shared_cache("delete", self.key)


def renders_once(view, key):
    """The view behind the page cache: renders only while holding the lock named ``key(request, *args,
    **kwargs)``; else takes it (``LockTaken``) or answers ``RenderInProgress``."""
    @wraps(view)
    def inner(request, *args, **kwargs):
        if not settings.PAGE_CACHE_ENABLED:
            return view(request, *args, **kwargs)
        if getattr(request, "_render_lock", None) is None:
            lock = RenderLock(key(request, *args, **kwargs))
            if not lock.acquire():
                return RenderInProgress()
            request._render_lock = lock
            return LockTaken()
        started = time.perf_counter()
        response = view(request, *args, **kwargs)
        logger.info("Rendered %s for the current content version in %.0f ms", request.path,
                    (time.perf_counter() - started) * 1000)
        return response

    return inner


def render_once(cached_view, busy, wait_seconds):
    """``cached_view`` (a page cache around ``renders_once``): its answer, asked again every ``POLL_SECONDS``
    while another request renders, for at most ``wait_seconds()`` seconds; then ``busy(request)``."""
    @wraps(cached_view)
    def outer(request, *args, **kwargs):
        deadline = time.monotonic() + wait_seconds()
        try:
            while True:
                response = cached_view(request, *args, **kwargs)
                if isinstance(response, LockTaken):
                    continue
                if not isinstance(response, RenderInProgress):
                    return response
                if time.monotonic() >= deadline:
                    return busy(request)
                time.sleep(POLL_SECONDS)
        finally:
            lock = request.__dict__.pop("_render_lock", None)
            if lock is not None:
                lock.release()

    return outer
