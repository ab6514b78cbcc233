"""The feed's headers that are not CORS (django-cors-headers answers other origins on the same paths,
``CORS_URLS_REGEX``), on every response under them, the 304s, 404s and 405s included."""
import re

from django.conf import settings
from django.utils.cache import cc_delim_re


class FeedHeadersMiddleware:
    """Other sites may embed the files (the site's Cross-Origin-Resource-Policy is same-origin), and the
    files are the same in every language: the Vary and Content-Language that LocaleMiddleware adds are taken
    back, so that a shared cache keeps one copy, not one per Accept-Language. Comes before LocaleMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.feed_paths = re.compile(settings.CORS_URLS_REGEX)

    def __call__(self, request):
        response = self.get_response(request)
        if self.feed_paths.match(request.path_info):
            response["Cross-Origin-Resource-Policy"] = "cross-origin"
            vary = [name for name in cc_delim_re.split(response.get("Vary", ""))
                    if name and name.lower() != "accept-language"]
            if vary:
                response["Vary"] = ", ".join(vary)
            else:
                response.headers.pop("Vary", None)
            response.headers.pop("Content-Language", None)
        return response
