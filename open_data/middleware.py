"""Headers of the feed's responses (views marked ``open_to_every_origin``, see ``http.open_data_file``), on
every one of them, the 304s, 404s and the OPTIONS answer of ``core.middleware.AllowedMethodsMiddleware``
included: any site's script may read them, and they do not vary by language."""
from django.utils.cache import cc_delim_re

CORS_METHODS = "GET, HEAD, OPTIONS"
# A script that revalidates its copy sends If-None-Match, which needs a preflight.
CORS_REQUEST_HEADERS = "If-None-Match"
PREFLIGHT_MAX_AGE = 86400


class OpenDataHeadersMiddleware:
    """Comes before LocaleMiddleware (whose Vary and Content-Language it takes back for the feed) and before
    AllowedMethodsMiddleware (whose OPTIONS answer it completes)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if match is not None and getattr(match.func, "open_to_every_origin", False):
            open_to_every_origin(request, response)
        return response


def open_to_every_origin(request, response):
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Expose-Headers"] = "ETag"
    # Other sites may embed the files too (the site's default is same-origin).
    response["Cross-Origin-Resource-Policy"] = "cross-origin"
    if request.method == "OPTIONS":
        response["Access-Control-Allow-Methods"] = CORS_METHODS
        response["Access-Control-Allow-Headers"] = CORS_REQUEST_HEADERS
        response["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
    # The files are the same in every language.
    if response.has_header("Vary"):
        kept = [name for name in cc_delim_re.split(response["Vary"]) if name.lower() != "accept-language"]
        if kept:
            response["Vary"] = ", ".join(kept)
        else:
            del response["Vary"]
    if response.has_header("Content-Language"):
        del response["Content-Language"]
