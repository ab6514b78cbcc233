import logging

from django.core.files.uploadhandler import FileUploadHandler
from django.db import InterfaceError, OperationalError
from django.http.multipartparser import MultiPartParserError

from core.errors import service_unavailable

logger = logging.getLogger(__name__)


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
        staff = request.user.is_active and request.user.is_staff
        if not ("admin" in request.resolver_match.namespaces and staff):
            request.upload_handlers = [RefuseFilePartsHandler(request)]
