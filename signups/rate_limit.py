"""Form submissions per client address, counted in the shared cache (Redis when REDIS_URL is set, else the
database) over a fixed window: ``SIGNUP_RATE_LIMIT`` submissions per ``SIGNUP_RATE_LIMIT_WINDOW`` seconds.
With the cache unavailable the limit is not applied (a signup is worth more than the limit), and logged."""
import logging
import time

from django.conf import settings

from core.client_ip import client_ip
from core.shared_cache import CacheUnavailable, count

from .pseudonyms import client_address_hash

logger = logging.getLogger(__name__)


def seconds_to_wait(request, scope):
    """Count this submission; None while under the limit, else the seconds until the window ends."""
    window = settings.SIGNUP_RATE_LIMIT_WINDOW
    now = time.time()
    # A keyed hash keeps visitors' addresses out of the cache (a plain one of an IPv4 address is reversed
    # by hashing all of them).
    client = client_address_hash(client_ip(request))
    key = f"rate:{scope}:{int(now // window)}:{client}"
    try:
        submissions = count(key, window)
    except CacheUnavailable:
        logger.warning("Rate limit of %s not applied: the shared cache is unavailable", scope)
        return None
    if submissions <= settings.SIGNUP_RATE_LIMIT:
        return None
    return max(1, int(window - now % window))
