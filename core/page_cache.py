"""Whole rendered pages, cached per language and path under the content version.

A cached page is served at close to the speed of a static file: its bytes are stored once, plain and
gzip-compressed. Designed together with the Content Security Policy: public pages carry no nonce (no
inline script needs one), so their bytes are the same for every visitor. A page that does use the
response's nonce is stored with a placeholder instead, and every response, cached or not, gets a fresh
nonce in its body and its header (such a page is stored uncompressed). ETags come from the stored
bytes, so they are stable across nonces.

Only canonical pages are stored: a page with no query string, or whose query is one of the view's presets
(the view parses it with its form and marks its response with ``canonical_page``); any other query, valid
or not, gets its page rendered and served uncached, so distinct query strings cannot fill the cache. Such
renders are limited per client (``core.render_limit``): past the limit, 429 with Retry-After.

Two tiers: the shared cache (the ``pages`` alias of Redis or the database, bounded in bytes,
``core.page_store``) holds the pages for every process, and each process keeps the pages it served lately
in memory under the same keys. The key carries the content version,
which a process re-reads at most once a second (``core.content_version``), so a page served from memory
costs no round trip and is still replaced within a second of an editor's change. With the shared cache
unavailable, pages are rendered from the database and served uncached."""
import contextlib
import gzip
import hashlib
import threading
from collections import OrderedDict
from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.translation import get_language

from . import render_limit
from .content_version import content_version
from .errors import too_many_renders
from .middleware import allow_methods
from .page_store import get_page, put_page
from .pages import language_codes
from .shared_cache import CacheUnavailable

NONCE_PLACEHOLDER = b"\x00csp-nonce\x00"
ALLOWED_METHODS = ("GET", "HEAD", "OPTIONS")


class RecentPages:
    """The pages this process served lately, least recently used dropped first beyond ``max_bytes``.
    Entries of an earlier content version are never asked for again and age out the same way."""

    def __init__(self, max_bytes):
        self.max_bytes = max_bytes
        self.size = 0
        self.entries = OrderedDict()
        self.lock = threading.Lock()

    @staticmethod
    def entry_size(entry):
        return len(entry["body"]) + len(entry["gzip_body"] or b"")

    def get(self, key):
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None:
                self.entries.move_to_end(key)
            return entry

    def put(self, key, entry):
        with self.lock:
            previous = self.entries.pop(key, None)
            if previous is not None:
                self.size -= self.entry_size(previous)
            self.entries[key] = entry
            self.size += self.entry_size(entry)
            while self.size > self.max_bytes and self.entries:
                _key, dropped = self.entries.popitem(last=False)
                self.size -= self.entry_size(dropped)

    def clear(self):
        with self.lock:
            self.entries.clear()
            self.size = 0


recent_pages = RecentPages(max_bytes=settings.PAGE_MEMORY_CACHE_BYTES)


def cached_entry(key):
    """The stored page under ``key``: from this process's memory, else from the shared cache (None when
    neither has it, or the shared cache is unavailable)."""
    entry = recent_pages.get(key)
    if entry is None:
        try:
            entry = get_page(key)
        except CacheUnavailable:
            return None
        if entry is not None:
            recent_pages.put(key, entry)
    return entry


def store_entry(key, entry):
    recent_pages.put(key, entry)
    with contextlib.suppress(CacheUnavailable):
        put_page(key, key.split(":", 2)[1], entry)  # page:<content version>:… (page_cache_key)


def query_pairs_read(request, query):
    """The request's values of the parameters named in ``query``, empty ones included, sorted by name with
    the order of a repeated name's values kept."""
    return sorted(((name, value) for name, values in request.GET.lists() if name in query for value in values),
                  key=lambda pair: pair[0])


def page_cache_key(request, language=None, query=()):
    """The key of the page at this path in this language, under the current content version.

    Only the query parameters named in ``query`` (those the page's content depends on) are part of it,
    in the order given per name: a campaign's ``?utm_source=…`` or a made-up parameter is served the
    page already cached, and cannot make the cache keep a copy per variant."""
    pairs = query_pairs_read(request, query)
    address = request.path + ("?" + urlencode(pairs) if pairs else "")
    path_hash = hashlib.sha256(address.encode()).hexdigest()
    return f"page:{content_version()}:{language or get_language()}:{path_hash}"


def canonical_page(response, query_pairs):
    """Marks the page a view rendered as that of a canonical query (``[]``: the page without one, or a
    preset's pairs): ``cached_page`` stores it when these are exactly the request's own pairs. ``None``, or a
    page of a view that reads the query left unmarked, is served uncached."""
    response.canonical_query = None if query_pairs is None else sorted(query_pairs, key=lambda pair: pair[0])
    return response


def private_cache_control():
    """A page rendered for one visitor's query: their browser may keep it, a CDN may not."""
    return f"private, max-age={settings.PAGE_BROWSER_MAX_AGE}"


def public_cache_control():
    return (
        f"public, max-age={settings.PAGE_BROWSER_MAX_AGE}, s-maxage={settings.PAGE_SHARED_MAX_AGE}, "
        f"stale-while-revalidate={settings.PAGE_STALE_WHILE_REVALIDATE}"
    )


def stored_entry(request, response, compress=True):
    """The page as the cache keeps it; ``compress=False`` for an entry that is served once and not kept,
    to a client that does not take gzip."""
    nonce = getattr(request, "_csp_nonce", None)
    body = response.content
    if nonce:
        body = body.replace(nonce.encode(), NONCE_PLACEHOLDER)
    return {
        "body": body,
        "gzip_body": None if nonce or not compress else gzip.compress(body, compresslevel=6, mtime=0),
        "content_type": response["Content-Type"],
        "etag": f'"{hashlib.sha256(body).hexdigest()[:40]}"',
        "uses_nonce": bool(nonce),
    }


def accepts_gzip(request):
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def response_from(request, entry):
    if entry["gzip_body"] is not None and accepts_gzip(request):
        response = HttpResponse(entry["gzip_body"], content_type=entry["content_type"])
        response["Content-Encoding"] = "gzip"
        return response
    body = entry["body"]
    if entry["uses_nonce"]:
        body = body.replace(NONCE_PLACEHOLDER, str(request.csp_nonce).encode())
    return HttpResponse(body, content_type=entry["content_type"])


def etag_for(request, entry):
    """Each representation has its own ETag: the gzip bytes differ from the plain ones."""
    if entry["gzip_body"] is not None and accepts_gzip(request):
        return entry["etag"][:-1] + '-gzip"'
    return entry["etag"]


def serve_entry(request, entry):
    """The response for a stored page: its bytes, or Django's 304 (with the headers a 304 keeps) when the
    client has them. A HEAD request gets the bytes too, so that its headers (Content-Length) are those of
    the GET; the server sends no body."""
    response = response_from(request, entry)
    response["Content-Length"] = str(len(response.content))
    response["ETag"] = etag_for(request, entry)
    response["Cache-Control"] = public_cache_control()
    patch_vary_headers(response, ("Accept-Encoding",))
    return get_conditional_response(request, etag=response["ETag"], response=response)


def cached_page(view=None, *, query=()):
    """Serve a public GET page from the page cache, render and store it on a miss; ETag and 304. A page
    answers GET and HEAD, and OPTIONS with what it allows (``core.middleware.AllowedMethodsMiddleware``
    answers OPTIONS and refuses any other method).

    ``query``: the names of the query parameters the page's content depends on (none by default). A view
    that names some marks the response of a canonical query with ``canonical_page``; any other is rendered
    on every request and never stored."""
    if view is None:
        return lambda view: cached_page(view, query=frozenset(query))

    @allow_methods(*ALLOWED_METHODS)
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        key = page_cache_key(request, query=query) if settings.PAGE_CACHE_ENABLED else None
        entry = cached_entry(key) if key else None
        if entry is not None:
            return serve_entry(request, entry)
        if query and query_pairs_read(request, query):
            # An answer to the visitor's own query, unless it is a preset not yet stored: counted per client.
            seconds = render_limit.seconds_to_wait(request)
            if seconds:
                return too_many_renders(request, seconds)
        response = view(request, *args, **kwargs)
        if response.status_code != 200 or response.streaming or response.cookies:
            return response
        if hasattr(response, "render"):
            response.render()
        canonical = getattr(response, "canonical_query", None) if query else []
        if canonical != query_pairs_read(request, query):
            entry = stored_entry(request, response, compress=accepts_gzip(request))
            response = serve_entry(request, entry)
            response["Cache-Control"] = private_cache_control()
            return response
        entry = stored_entry(request, response, compress=bool(key) or accepts_gzip(request))
        if key:
            store_entry(key, entry)
        return serve_entry(request, entry)

    return wrapper


class PageCacheMiddleware:
    """The fast path: a page already in the cache is served before sessions, locale, CSRF and the URL
    resolver run, at close to the speed of a static file. Only paths with a language prefix and no query
    string: their language is in the path, so the key is the one ``cached_page`` stored the page under
    (with a query string, only the view knows which of its parameters count). A miss goes on to the
    view, where ``cached_page`` serves or renders and stores it."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.languages = set(language_codes())

    def __call__(self, request):
        if settings.PAGE_CACHE_ENABLED and request.method in ("GET", "HEAD") and not request.META.get("QUERY_STRING"):
            language = request.path_info.split("/", 2)[1]
            if language in self.languages:
                entry = cached_entry(page_cache_key(request, language))
                if entry is not None:
                    response = serve_entry(request, entry)
                    response["Content-Language"] = language
                    return response
        return self.get_response(request)
