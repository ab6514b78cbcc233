from django.conf import settings


class CrossOriginResourcePolicyMiddleware:
    """Cross-Origin-Resource-Policy on every response: other sites may not embed our resources."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Cross-Origin-Resource-Policy", settings.CROSS_ORIGIN_RESOURCE_POLICY)
        return response
