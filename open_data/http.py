"""How the feed's files are served: from the page cache like pages (keyed by path and content version, so
a price import or an admin edit makes them fresh), with an ETag and 304s, a short browser cache, and open to
scripts on any site (django-cors-headers and ``middleware.FeedHeadersMiddleware`` add the headers). A file the
cache does not hold yet is rendered by one request, whichever worker it reaches; the others wait for it
(``caching.pages.rendered_alone``)."""
import json
from functools import wraps

from django.http import HttpResponse
from django.utils import translation

from caching import pages
from caching.pages import cached_page, canonical_page, page_cache_key, query_pairs_read

# Seconds a client or a CDN may use its copy before asking again (with If-None-Match).
MAX_AGE = 300
# The files are the same in every language: one cache entry, whatever the request's language.
FEED_LANGUAGE = "en"
# How long a request waits for another one's render of the same file before it is told to ask again.
RENDER_WAIT_SECONDS = 10
RETRY_AFTER_SECONDS = 1


def render_lock_key(request, query):
    """The render lock of the file at the request's path and values of ``query``, under the content version."""
    return pages.render_lock_key(page_cache_key(request, FEED_LANGUAGE, query))


def busy(request):
    """The answer after ``RENDER_WAIT_SECONDS`` of waiting for another request's render: ask again shortly."""
    response = HttpResponse(json.dumps({
        "error": "busy", "detail": "This file is being rebuilt after a change; ask again in a second.",
    }) + "\n", content_type="application/json", status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def every_valid_query_is_canonical(view, query):
    """``refuse`` has answered any invalid value before the cache was asked: each valid one is its own file,
    stored (within the page cache's byte bound)."""
    @wraps(view)
    def marked(request, *args, **kwargs):
        return canonical_page(view(request, *args, **kwargs), query_pairs_read(request, query))

    return marked


def open_data_file(view=None, *, headers=(), query=(), refuse=None):
    """A feed file: GET and HEAD (OPTIONS too), cached, rendered once per content version, readable from any
    origin. The page cache keeps a response's body and type only: ``headers`` are (name, value) pairs every
    answer carries. ``query``: the query parameters the file depends on (each valid value is its own file);
    ``refuse(request)``: the error answer for invalid ones (else None), given before the cache is asked."""
    if view is None:
        return lambda view: open_data_file(view, headers=headers, query=query, refuse=refuse)
    query = frozenset(query)
    cached = cached_page(every_valid_query_is_canonical(view, query), query=query, busy=busy,
                         wait_seconds=lambda: RENDER_WAIT_SECONDS)

    @wraps(cached)
    def wrapper(request, *args, **kwargs):
        with translation.override(FEED_LANGUAGE):
            response = refuse(request) if refuse else None
            if response is None:
                response = cached(request, *args, **kwargs)
        if response.status_code in (200, 304):
            response["Cache-Control"] = f"public, max-age={MAX_AGE}"
            for name, value in headers:
                response[name] = value
        return response

    return wrapper
