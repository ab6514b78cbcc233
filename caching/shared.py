"""The shared cache (Redis, or the database) as the site calls it: an outage is an answer (``CacheUnavailable``),
not a 500. After a failure this process leaves the cache alone for a second: a server that is down, or does not
answer within the client's timeouts, costs one request a second, not every request."""
import logging
import time

from django.core.cache import caches
from django.db import DatabaseError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)
RETRY_AFTER_FAILURE_SECONDS = 1.0
_unavailable_until = 0.0


class CacheUnavailable(Exception):
    """The shared cache did not answer, now or less than a second ago."""


def shared_cache(operation, *args, cache_alias="default", **kwargs):
    """``caches[cache_alias].<operation>(*args, **kwargs)``; CacheUnavailable when the cache server fails (other
    errors, such as ValueError from ``incr`` of a missing key, are the caller's)."""
    global _unavailable_until
    if time.monotonic() < _unavailable_until:
        raise CacheUnavailable
    try:
        return getattr(caches[cache_alias], operation)(*args, **kwargs)
    except (RedisError, DatabaseError, OSError) as error:
        _unavailable_until = time.monotonic() + RETRY_AFTER_FAILURE_SECONDS
        logger.warning("Shared cache unavailable (%s): %s", operation, error)
        raise CacheUnavailable from error


def forget_outage():
    global _unavailable_until
    _unavailable_until = 0.0
