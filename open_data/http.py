"""How the feed's files are served: from the page cache like pages (keyed by path and content version, so
a price import or an admin edit makes them fresh), with an ETag and 304s, a short browser cache, and open to
scripts on any site (``middleware.OpenDataHeadersMiddleware`` adds the cross-origin headers)."""
from functools import wraps

from django.utils import translation

from core.page_cache import cached_page

# Seconds a client or a CDN may use its copy before asking again (with If-None-Match).
MAX_AGE = 300
# The files are the same in every language: one cache entry, whatever the request's language.
FEED_LANGUAGE = "en"


def open_data_file(view=None, *, headers=()):
    """A feed file: GET and HEAD (OPTIONS too), cached, readable from any origin. The page cache keeps a
    response's body and type only: ``headers`` are (name, value) pairs every answer carries."""
    if view is None:
        return lambda view: open_data_file(view, headers=headers)
    cached = cached_page(view)

    @wraps(cached)
    def wrapper(request, *args, **kwargs):
        with translation.override(FEED_LANGUAGE):
            response = cached(request, *args, **kwargs)
        if response.status_code in (200, 304):
            response["Cache-Control"] = f"public, max-age={MAX_AGE}"
            for name, value in headers:
                response[name] = value
        return response

    wrapper.open_to_every_origin = True
    return wrapper
