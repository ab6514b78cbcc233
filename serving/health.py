"""/healthz: is this app server able to serve? Checks the database and the shared cache, outside any cache.

The database down: 503 (pages cannot be served). The shared cache down: 200 with "status": "degraded"
and "cache": "failing": pages are still served, rendered from the database, so a load balancer should
keep sending visitors; the admin login is refused and form rate limits are not applied meanwhile.

Apps above core add checks of their own (``register_check``, from their ``AppConfig.ready()``): a failing
one also makes the status "degraded", never "unavailable". optin adds "mail_queue": failing while the
oldest mail waiting to be sent is older than MAIL_QUEUE_STALL_SECONDS (the mail worker stopped, or every
attempt failing)."""
import uuid

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

# {name: check}: each check() returns True when that part works. Filled by the apps, in registration order.
_checks = {}


def register_check(name, check):
    _checks[name] = check


def check_ok(check):
    try:
        return bool(check())
    except Exception:
        return False


def database_ok():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        return False


def cache_ok():
    """Asks the cache itself (not through caching.shared, which skips it for a second after a failure)."""
    key, value = f"healthz:{uuid.uuid4().hex}", uuid.uuid4().hex
    try:
        cache.set(key, value, timeout=10)
        ok = cache.get(key) == value
        cache.delete(key)
        return ok
    except Exception:
        return False


@never_cache
def healthz(request):
    checks = {"database": database_ok(), "cache": cache_ok()}
    if checks["database"]:
        checks.update({name: check_ok(check) for name, check in _checks.items()})
    status = "ok" if all(checks.values()) else "degraded" if checks["database"] else "unavailable"
    return JsonResponse(
        {"status": status, **{name: "ok" if ok else "failing" for name, ok in checks.items()}},
        status=503 if status == "unavailable" else 200,
    )
