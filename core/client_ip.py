"""The visitor's IP address, for rate limits and login throttling."""
from django.conf import settings


def client_ip(request):
    """REMOTE_ADDR, or, behind trusted proxies, the address the nearest of them saw.

    With TRUSTED_PROXY_COUNT = n, the n-th address from the right of X-Forwarded-For is the client
    as seen by our outermost proxy; anything further left was written by the client and is not trusted."""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "")
