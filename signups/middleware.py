import logging

from django.db import InterfaceError, OperationalError

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
