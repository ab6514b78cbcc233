"""/healthz: is this app server able to serve? Checks the database and the cache, outside any cache."""
import uuid

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache


def database_ok():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:  # noqa: BLE001 - any failure means unhealthy, and is reported as such
        return False


def cache_ok():
    key, value = f"healthz:{uuid.uuid4().hex}", uuid.uuid4().hex
    try:
        cache.set(key, value, timeout=10)
        ok = cache.get(key) == value
        cache.delete(key)
        return ok
    except Exception:  # noqa: BLE001
        return False


@never_cache
def healthz(request):
    checks = {"database": database_ok(), "cache": cache_ok()}
    healthy = all(checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **{name: "ok" if ok else "failing" for name, ok in checks.items()}},
        status=200 if healthy else 503,
    )
