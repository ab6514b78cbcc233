from django.conf import settings

from .errors import method_not_allowed


class CrossOriginResourcePolicyMiddleware:
    """Cross-Origin-Resource-Policy on every response: other sites may not embed our resources."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Cross-Origin-Resource-Policy", settings.CROSS_ORIGIN_RESOURCE_POLICY)
        return response


class AllowedMethodsMiddleware:
    """A view that names the methods it answers (``allowed_methods``, set by ``cached_page`` and
    ``allow_methods``) refuses any other with the localized 405 before CsrfViewMiddleware runs: a PUT or
    DELETE sent to a page is the wrong method, not a form with an expired token."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        allowed = getattr(view, "allowed_methods", None)
        if allowed is not None and request.method not in allowed:
            return method_not_allowed(request, allowed)
        return None
