"""The site's own middleware: headers every response carries, the method policy of views, no file from an
anonymous visitor, and the 503 when the database is unavailable."""
import logging

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.http.multipartparser import MultiPartParserError

from .errors import method_not_allowed, service_unavailable

logger = logging.getLogger(__name__)


class CrossOriginResourcePolicyMiddleware:
    """Cross-Origin-Resource-Policy on every response: other sites may not embed our resources."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Cross-Origin-Resource-Policy", settings.CROSS_ORIGIN_RESOURCE_POLICY)
        return response


def allow_methods(*methods):
    """Names the methods a view answers, for ``AllowedMethodsMiddleware``: like Django's
    require_http_methods, with a localized 405, and checked before the CSRF check."""
    def decorator(view):
        view.allowed_methods = methods
        return view
    return decorator


class AllowedMethodsMiddleware:
    """The one place that enforces a view's ``allowed_methods`` (``allow_methods``, ``cached_page``): any
    other method gets the localized 405 before CsrfViewMiddleware runs (a PUT or DELETE sent to a page is
    the wrong method, not a form with an expired token), and OPTIONS, where allowed, gets what is."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        allowed = getattr(view, "allowed_methods", None)
        if allowed is None:
            return None
        if request.method not in allowed:
            return method_not_allowed(request, allowed)
        if request.method == "OPTIONS":
            response = HttpResponse()
            response["Allow"] = ", ".join(allowed)
            return response
        return None


class FilePartRefused(MultiPartParserError):
    """A file in a request that may send none: Django answers 400 with the localized page (``handler400``)."""


class RefuseFilePartsHandler(FileUploadHandler):
    """Stops reading a multipart body at its first file part, before a byte of the file is kept anywhere.
    The text fields before it are read into memory only (at most ``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""

    def new_file(self, *args, **kwargs):
        raise FilePartRefused("Files are not accepted here.")

    def receive_data_chunk(self, raw_data, start):
        raise FilePartRefused("Files are not accepted here.")

    def file_complete(self, file_size):
        return None


class NoFileUploadsMiddleware:
    """No file is ever read from an anonymous visitor: no public form has a file field, yet Django's default
    upload handlers stream every file part of a multipart body to a temporary file as soon as anything
    reads ``request.POST`` (the CSRF check does, before any view), and a 1 GB part filled the disk. Only
    staff, in the admin (the price import), get Django's upload handlers. Comes before
    ``CsrfViewMiddleware``, whose ``process_view`` reads the body."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        # The namespace first: only an admin URL needs to know the user (a session read).
        in_admin = "admin" in request.resolver_match.namespaces
        if not (in_admin and request.user.is_active and request.user.is_staff):
            request.upload_handlers = [RefuseFilePartsHandler(request)]


class DatabaseUnavailableMiddleware:
    """A view that meets an unreachable database (or a failed commit) answers 503 with Retry-After: the
    visitor is told nothing was saved, instead of a 500 or a thank-you for a row that does not exist."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, (OperationalError, InterfaceError)):
            logger.error("Database unavailable: %s", exception)
            return service_unavailable()
        return None
