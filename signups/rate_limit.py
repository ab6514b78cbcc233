"""Form submissions per client address, counted in the shared cache (Redis when REDIS_URL is set) over a
fixed window: ``SIGNUP_RATE_LIMIT`` submissions per ``SIGNUP_RATE_LIMIT_WINDOW`` seconds."""
import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache

from core.client_ip import client_ip

logger = logging.getLogger(__name__)


def seconds_to_wait(request, scope):
    """Count this submission; None while under the limit, else the seconds until the window ends."""
    window = settings.SIGNUP_RATE_LIMIT_WINDOW
    now = time.time()
    # A hash keeps visitors' addresses out of the cache.
    client = hashlib.sha256(client_ip(request).encode()).hexdigest()[:32]
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
