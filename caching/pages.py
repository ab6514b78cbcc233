"""Whole pages, cached per content version, UTC day, language and path (decisions 23, 24 and 29).

A canonical page (no query string, or one of its view's presets: ``canonical_page``) is stored once, plain and
gzip-compressed with an ETag, in this process's ``memory`` alias and in the shared ``pages`` alias, at most
``PAGE_CACHE_MAX_BYTES`` of them per content version. Any other page, and one that uses the response's CSP nonce,
is rendered for its response alone. With ``busy``, a miss renders in one request at a time across every process."""
import contextlib
import functools
import gzip
import hashlib
import logging
import pickle
import time
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.module_loading import import_string
from django.utils.translation import get_language

from .content_version import content_version
from .memory import memory_cache
from .shared import CacheUnavailable, shared_cache

logger = logging.getLogger(__name__)
ROW_OVERHEAD_BYTES = 200  # a database cache row besides its value: key, expiry, the row's header
LOCK_SECONDS, POLL_SECONDS = 60, 0.05  # a lock whose holder died (or renders longer) is free after LOCK_SECONDS


def page_generation():
    """The content version and the UTC day: what a page shows of the time (a price's change over days, the feed's
    window) is made again each day, as after a content change."""
    return f"{content_version()}.{time.strftime('%Y%m%d', time.gmtime())}"


def has_room(generation, size):
    """Whether ``size`` more bytes fit under ``generation``'s bound now; raises CacheUnavailable."""
    return (shared_cache("get", f"page-bytes:{generation}") or 0) + size <= settings.PAGE_CACHE_MAX_BYTES


def cached_entry(key):
    """The page stored under ``key``: from this process's memory, else the shared tier (None if neither has it)."""
    if (entry := memory_cache().get(key)) is None:
        with contextlib.suppress(CacheUnavailable):
            if (entry := shared_cache("get", key, cache_alias="pages")) is not None:
                memory_cache().set(key, entry)
    return entry


def store_entry(key, entry):
    """In both tiers; the shared one counts its bytes as the database cache stores them (base64 of the pickle), and
    the first page of a generation empties it (earlier generations' pages are never asked for again)."""
    memory_cache().set(key, entry)
    counter = f"page-bytes:{key.split(':', 2)[1]}"  # page:<generation>:… (page_cache_key)
    size = 4 * -(-len(pickle.dumps(entry, -1)) // 3) + len(key) + ROW_OVERHEAD_BYTES
    with contextlib.suppress(CacheUnavailable, ValueError):  # ValueError: the counter expired since it was added
        if shared_cache("add", counter, 0, timeout=settings.PAGE_CACHE_SECONDS):
            shared_cache("clear", cache_alias="pages")
        if shared_cache("incr", counter, size) > settings.PAGE_CACHE_MAX_BYTES:
            shared_cache("decr", counter, size)
        else:
            shared_cache("set", key, entry, timeout=settings.PAGE_CACHE_SECONDS, cache_alias="pages")


def query_pairs_read(request, query):
    """The request's values of the parameters named in ``query``, sorted by name (a repeated name's order kept)."""
    return sorted(((name, value) for name, values in request.GET.lists() if name in query for value in values),
                  key=lambda pair: pair[0])


def page_cache_key(request, language=None, query=()):
    """Only the parameters named in ``query`` count: a ``?utm_source=…`` is served the page already cached."""
    pairs = query_pairs_read(request, query)
    address = request.path + ("?" + urlencode(pairs) if pairs else "")
    return f"page:{page_generation()}:{language or get_language()}:{hashlib.sha256(address.encode()).hexdigest()}"


def canonical_page(response, query_pairs):
    """Marks a view's page as that of a canonical query (``[]``: none; a preset's pairs), stored when these are the
    request's own. ``None``, or an unmarked page of a view that reads the query, is served uncached."""
    response.canonical_query = None if query_pairs is None else sorted(query_pairs, key=lambda pair: pair[0])
    return response


def stored_entry(response, compress=True):
    body = response.content
    return {"body": body, "gzip_body": gzip.compress(body, 6, mtime=0) if compress else None,
            "content_type": response["Content-Type"], "etag": f'"{hashlib.sha256(body).hexdigest()[:40]}"'}


def accepts_gzip(request):
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def serve_entry(request, entry, shared=True):
    """A stored page's response, gzip when taken (each representation its own ETag), or Django's 304; a CDN may
    keep it unless ``shared`` is false. HEAD gets the bytes too, for its Content-Length."""
    gzipped = entry["gzip_body"] is not None and accepts_gzip(request)
    body = entry["gzip_body"] if gzipped else entry["body"]
    response = HttpResponse(body, content_type=entry["content_type"])
    response["ETag"] = entry["etag"][:-1] + '-gzip"' if gzipped else entry["etag"]
    if gzipped:
        response["Content-Encoding"] = "gzip"
    response["Content-Length"] = str(len(body))
    response["Cache-Control"] = (f"public, max-age={settings.PAGE_BROWSER_MAX_AGE}, "
                                 f"s-maxage={settings.PAGE_SHARED_MAX_AGE}"
                                 f", stale-while-revalidate={settings.PAGE_STALE_WHILE_REVALIDATE}" if shared
                                 else f"private, max-age={settings.PAGE_BROWSER_MAX_AGE}")
    patch_vary_headers(response, ("Accept-Encoding",))
    return get_conditional_response(request, etag=response["ETag"], response=response)


def render_lock_key(page_key):
    return f"lock:{page_key}"


def rendered_alone(request, key, render, busy, wait_seconds):
    """``render()`` holding ``key``'s lock (the shared cache's ``add``: every process sees it); without it, the copy
    another request stores, looked for every ``POLL_SECONDS``, or ``busy(request)`` after ``wait_seconds()``."""
    deadline, lock = time.monotonic() + wait_seconds(), render_lock_key(key)
    try:
        while not shared_cache("add", lock, 1, timeout=LOCK_SECONDS):
            if time.monotonic() >= deadline:
                return busy(request)
            time.sleep(POLL_SECONDS)
            if (entry := cached_entry(key)) is not None:
                return serve_entry(request, entry)
    except CacheUnavailable:  # nothing can coordinate, or store: render
        return render()
    taken_at = time.monotonic()
    try:  # the holder before may have stored it between the first look and the lock
        if (entry := cached_entry(key)) is not None:
            return serve_entry(request, entry)
        response = render()
        logger.info("Rendered %s in %.0f ms", request.path, (time.monotonic() - taken_at) * 1000)
        return response
    finally:
        if time.monotonic() - taken_at < LOCK_SECONDS:  # past it, the key may be another request's lock
            with contextlib.suppress(CacheUnavailable):
                shared_cache("delete", lock)


def cached_page(view=None, *, query=(), busy=None, wait_seconds=lambda: 10):
    """Serves a public GET page from the page cache, renders and stores it on a miss. ``query``: the parameters the
    page reads (its view marks a canonical query's response with ``canonical_page``); ``busy``: a miss renders in
    one request at a time (``rendered_alone``). GET, HEAD and OPTIONS only (``core.middleware``)."""
    if view is None:
        return lambda view: cached_page(view, query=frozenset(query), busy=busy, wait_seconds=wait_seconds)

    def render(request, key, /, *args, **kwargs):  # positional: a view may take a "key" argument
        response = view(request, *args, **kwargs)
        if response.status_code != 200 or response.streaming or response.cookies:
            return response
        if hasattr(response, "render"):
            response.render()
        canonical = (getattr(response, "canonical_query", None) if query else []) == query_pairs_read(request, query)
        if not canonical or getattr(request, "_csp_nonce", None):  # a nonce is each response's own
            return serve_entry(request, stored_entry(response, accepts_gzip(request)), shared=False)
        entry = stored_entry(response, compress=bool(key) or accepts_gzip(request))
        if key:
            store_entry(key, entry)
        return serve_entry(request, entry)

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        key = page_cache_key(request, query=query) if settings.PAGE_CACHE_ENABLED else None
        if key and (entry := cached_entry(key)) is not None:
            return serve_entry(request, entry)
        if query and query_pairs_read(request, query) and settings.PAGE_RENDER_REFUSAL \
                and (refusal := import_string(settings.PAGE_RENDER_REFUSAL)(request)) is not None:
            return refusal  # a visitor's own query, past the per-client limit
        if key and busy:
            return rendered_alone(request, key, lambda: render(request, key, *args, **kwargs), busy, wait_seconds)
        return render(request, key, *args, **kwargs)

    wrapper.allowed_methods = ("GET", "HEAD", "OPTIONS")
    return wrapper


class PageCacheMiddleware:
    """A cached page served before sessions, locale, CSRF and the URL resolver run: paths with a language prefix and
    no query string, under the key ``cached_page`` stored them; a miss goes on to the view."""

    def __init__(self, get_response):
        self.get_response, self.languages = get_response, {code for code, _name in settings.LANGUAGES}

    def __call__(self, request):
        if settings.PAGE_CACHE_ENABLED and request.method in ("GET", "HEAD") and not request.META.get("QUERY_STRING"):
            language = request.path_info.split("/", 2)[1]
            if language in self.languages and (entry := cached_entry(page_cache_key(request, language))) is not None:
                response = serve_entry(request, entry)
                response["Content-Language"] = language
                return response
        return self.get_response(request)
