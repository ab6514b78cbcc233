"""Form submissions per client address, counted in the shared cache (Redis when REDIS_URL is set) over a
fixed window: ``SIGNUP_RATE_LIMIT`` submissions per ``SIGNUP_RATE_LIMIT_WINDOW`` seconds."""
import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)


def client_address(request):
    """REMOTE_ADDR, or behind a proxy the header it sets to the client's address (CLIENT_IP_HEADER)."""
    if settings.CLIENT_IP_HEADER:
        forwarded = request.headers.get(settings.CLIENT_IP_HEADER, "").strip()
        if forwarded:
            return forwarded
    return request.META.get("REMOTE_ADDR", "")


def seconds_to_wait(request, scope):
    """Count this submission; None while under the limit, else the seconds until the window ends."""
    window = settings.SIGNUP_RATE_LIMIT_WINDOW
    now = time.time()
    # A hash keeps visitors' addresses out of the cache.
    client = hashlib.sha256(client_address(request).encode()).hexdigest()[:32]
    key = f"rate:{scope}:{int(now // window)}:{client}"
    try:
        cache.add(key, 0, timeout=window)
        count = cache.incr(key)
    except ValueError:  # evicted between add and incr: a fresh count
        count = 1
    except Exception:  # the cache server is down: let the visitor through rather than lose a signup
        logger.exception("Rate limit counter unavailable")
        return None
    if count <= settings.SIGNUP_RATE_LIMIT:
        return None
    return max(1, int(window - now % window))
