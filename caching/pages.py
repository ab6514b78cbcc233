"""Whole rendered pages, cached per language and path under the content version (decisions 23 and 24).

A page's bytes are stored once, plain and gzip-compressed, with an ETag from its bytes. Only canonical pages are
stored: no query string, or one of the view's presets (``canonical_page``); any other query, and a page that uses
the response's CSP nonce, is rendered for each response, uncached (a visitor's query once the per-client limit,
``PAGE_RENDER_REFUSAL``, allowed it). Two tiers under one key: the shared ``pages`` alias (bounded in bytes per
content version, emptied by the first page of a new one) and this process's ``memory`` alias. A view may ask that a
miss render in one request at a time across every process (``busy``): the others wait for its copy."""
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
PAGES_ALIAS = "pages"
ROW_OVERHEAD_BYTES = 200  # a database cache row besides its value: key, expiry, the row's header
LOCK_SECONDS = 60  # a lock whose holder died (or renders longer) is free after this
POLL_SECONDS = 0.05


def has_room(version, size):
    """Whether ``size`` more bytes fit under ``version``'s bound now; raises CacheUnavailable."""
    return (shared_cache("get", f"page-bytes:{version}") or 0) + size <= settings.PAGE_CACHE_MAX_BYTES


def put_shared(key, version, entry):
    """Stores the page in the shared tier unless ``version``'s bytes (as the database cache stores them: base64 of
    the pickle) would pass the bound; raises CacheUnavailable."""
    counter, size = f"page-bytes:{version}", 4 * -(-len(pickle.dumps(entry, -1)) // 3) + len(key) + ROW_OVERHEAD_BYTES
    if shared_cache("add", counter, 0, timeout=settings.PAGE_CACHE_SECONDS):
        shared_cache("clear", cache_alias=PAGES_ALIAS)  # earlier versions' pages are never asked for again
    with contextlib.suppress(ValueError):  # expired between add and incr: the next page starts the count again
        if shared_cache("incr", counter, size) > settings.PAGE_CACHE_MAX_BYTES:
            shared_cache("decr", counter, size)
        else:
            shared_cache("set", key, entry, timeout=settings.PAGE_CACHE_SECONDS, cache_alias=PAGES_ALIAS)


def cached_entry(key):
    """The page stored under ``key``: from this process's memory, else the shared tier (None if neither has it)."""
    if (entry := memory_cache().get(key)) is None:
        with contextlib.suppress(CacheUnavailable):
            if (entry := shared_cache("get", key, cache_alias=PAGES_ALIAS)) is not None:
                memory_cache().set(key, entry)
    return entry


def store_entry(key, entry):
    memory_cache().set(key, entry)
    with contextlib.suppress(CacheUnavailable):
        put_shared(key, key.split(":", 2)[1], entry)  # page:<content version>:… (page_cache_key)


def query_pairs_read(request, query):
    """The request's values of the parameters named in ``query``, sorted by name (a repeated name's order kept)."""
    return sorted(((name, value) for name, values in request.GET.lists() if name in query for value in values),
                  key=lambda pair: pair[0])


def page_cache_key(request, language=None, query=()):
    """The page's key under the current content version. Only the query parameters named in ``query`` count: a
    ``?utm_source=…`` or a made-up parameter is served the page already cached."""
    pairs = query_pairs_read(request, query)
    address = request.path + ("?" + urlencode(pairs) if pairs else "")
    return f"page:{content_version()}:{language or get_language()}:{hashlib.sha256(address.encode()).hexdigest()}"


def canonical_page(response, query_pairs):
    """Marks a view's page as that of a canonical query (``[]``: none; a preset's pairs): stored when these are
    the request's own pairs. ``None``, or an unmarked page of a view that reads the query, is served uncached."""
    response.canonical_query = None if query_pairs is None else sorted(query_pairs, key=lambda pair: pair[0])
    return response


def stored_entry(response, compress=True):
    """The page as the cache keeps it (``compress=False``: served once, to a client that does not take gzip)."""
    body = response.content
    return {"body": body, "gzip_body": gzip.compress(body, 6, mtime=0) if compress else None,
            "content_type": response["Content-Type"], "etag": f'"{hashlib.sha256(body).hexdigest()[:40]}"'}


def accepts_gzip(request):
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def serve_entry(request, entry, shared=True):
    """A stored page's response (gzip when taken, each representation with its own ETag), or Django's 304; a CDN
    may keep it unless ``shared`` is false (a visitor's own query). HEAD gets the bytes too, for its Content-Length."""
    gzipped = entry["gzip_body"] is not None and accepts_gzip(request)
    body = entry["gzip_body"] if gzipped else entry["body"]
    response = HttpResponse(body, content_type=entry["content_type"])
    response["ETag"] = entry["etag"][:-1] + '-gzip"' if gzipped else entry["etag"]
    if gzipped:
        response["Content-Encoding"] = "gzip"
    response["Content-Length"] = str(len(body))
    response["Cache-Control"] = (f"public, max-age={settings.PAGE_BROWSER_MAX_AGE}, s-maxage="
                                 f"{settings.PAGE_SHARED_MAX_AGE}, stale-while-revalidate="
                                 f"{settings.PAGE_STALE_WHILE_REVALIDATE}" if shared
                                 else f"private, max-age={settings.PAGE_BROWSER_MAX_AGE}")
    patch_vary_headers(response, ("Accept-Encoding",))
    return get_conditional_response(request, etag=response["ETag"], response=response)


@functools.cache
def render_refusal():
    """``PAGE_RENDER_REFUSAL``: request -> a refusal (429) or None, asked before rendering a visitor's own query."""
    return import_string(settings.PAGE_RENDER_REFUSAL) if settings.PAGE_RENDER_REFUSAL else (lambda request: None)


def render_lock_key(page_key):
    return f"lock:{page_key}"


def rendered_alone(request, key, render, busy, wait_seconds):
    """``render()`` while holding ``key``'s lock (the shared cache's ``add``: every process sees it); without it,
    the page another request stores, asked every ``POLL_SECONDS``, or ``busy(request)`` after ``wait_seconds()``."""
    deadline, lock_key = time.monotonic() + wait_seconds(), render_lock_key(key)
    while True:
        try:
            if shared_cache("add", lock_key, 1, timeout=LOCK_SECONDS):
                break
        except CacheUnavailable:  # nothing can coordinate, or store: render
            return render()
        if time.monotonic() >= deadline:
            return busy(request)
        time.sleep(POLL_SECONDS)
        if (entry := cached_entry(key)) is not None:
            return serve_entry(request, entry)
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
                shared_cache("delete", lock_key)


def cached_page(view=None, *, query=(), busy=None, wait_seconds=lambda: 10):
    """Serve a public GET page from the page cache, render and store it on a miss; ETag and 304. A page answers
    GET, HEAD and OPTIONS (``core.middleware.AllowedMethodsMiddleware`` refuses the rest). ``query``: the query
    parameters the page depends on; a view naming some marks a canonical query's response with ``canonical_page``.
    ``busy``: render once at a time per page across every process (``rendered_alone``)."""
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
        if query and query_pairs_read(request, query) and (refusal := render_refusal()(request)) is not None:
            return refusal
        if key and busy:
            return rendered_alone(request, key, lambda: render(request, key, *args, **kwargs), busy, wait_seconds)
        return render(request, key, *args, **kwargs)

    wrapper.allowed_methods = ("GET", "HEAD", "OPTIONS")
    return wrapper


class PageCacheMiddleware:
    """The fast path: a cached page served before sessions, locale, CSRF and the URL resolver run. Only paths with
    a language prefix and no query string (the key ``cached_page`` stored under); a miss goes on to the view."""

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
