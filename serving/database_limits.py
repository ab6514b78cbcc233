"""The web server's bounds on the database (decision 30): a database that hangs costs a request seconds and the 503
page (``core.middleware.DatabaseUnavailableMiddleware``), never a thread held for ever, and the worker's other threads
go on serving.

Every process connects within DATABASE_CONNECT_TIMEOUT (everx/settings/base.py). The web server alone
(``limit_web_queries``, called by everx/wsgi.py: no management command, migration, import, mail worker or test
client) also bounds each query:

- its connections start with ``statement_timeout`` and ``lock_timeout`` (libpq's ``options``: no round trip): the
  server cancels a statement that runs, or waits for a lock, longer (QueryCanceled, LockNotAvailable, both an
  OperationalError), and the connection stays usable;
- a server that does not answer at all (its processes frozen, its host gone: nothing there cancels anything) is waited
  for DATABASE_STATEMENT_TIMEOUT + DATABASE_NO_ANSWER_GRACE per round trip (a kept connection's health check and a
  commit included), then the connection is closed and the query fails as an OperationalError;
- after a connection attempt that timed out, the process's new connections fail at once for a second, and then one
  attempt at a time tries again (``connect``): a request waits for one connect timeout at most, not one
  per query, and the other threads answer at once instead of all waiting on the same dead server;
- a verified staff member's admin requests (the price import, the demand CSV) get DATABASE_STAFF_STATEMENT_TIMEOUT and
  no lock timeout for the request (``staff_query_limits``), which are put back after it."""
import logging
import threading
import time
from contextlib import contextmanager

import psycopg
from django.conf import settings
from django.db import DatabaseError, connection

logger = logging.getLogger(__name__)
_request = threading.local()  # statement_timeout: this thread's request's own, while a staff request lifts it
_limited = False  # whether this process is the web server (limit_web_queries)
RETRY_AFTER_TIMEOUT_SECONDS = 1.0
_connecting = threading.Lock()
_unreachable_until = 0.0  # time.monotonic() before which no new connection is attempted; 0: none failed


def milliseconds(seconds):
    return max(0, round(seconds * 1000))


def statement_timeout():
    """Seconds the server lets a statement of this thread's request run; 0: no bound."""
    return getattr(_request, "statement_timeout", settings.DATABASE_STATEMENT_TIMEOUT)


def answer_seconds():
    """Seconds a round trip of this thread's may wait for the server's answer; None: for ever."""
    seconds = statement_timeout()
    return seconds + settings.DATABASE_NO_ANSWER_GRACE if seconds > 0 else None


def bound_waits(database):
    """``database``'s own ``wait`` (psycopg's, through which every round trip of a query, a commit or a health check
    waits for the server), given ``answer_seconds()``: past it the connection is closed, and the query fails."""
    wait = database.wait

    def bounded_wait(gen, *args, timeout=None, **kwargs):
        if timeout is not None or (seconds := answer_seconds()) is None:
            return wait(gen, *args, timeout=timeout, **kwargs)
        try:
            return wait(gen, *args, timeout=seconds, **kwargs)
        except psycopg.errors._WaitTimeout:  # psycopg's wait functions' own, an OperationalError
            logger.error("The database did not answer within %g s: connection closed", seconds)
            database.close()
            raise psycopg.OperationalError(f"the database did not answer within {seconds:g} s") from None

    database.wait = bounded_wait
    return database


def connect(get_new_connection):
    """``get_new_connection()`` (``serving.postgresql``'s), in the web server bounded: failing at once for
    RETRY_AFTER_TIMEOUT_SECONDS after an attempt that timed out, and then while one attempt tries again (a refused
    connection, the server down, fails fast by itself and is not counted); its waits bounded (``bound_waits``)."""
    global _unreachable_until
    if not _limited:
        return get_new_connection()
    with _connecting:
        now = time.monotonic()
        if now < _unreachable_until:
            raise psycopg.OperationalError("the database timed out a connection attempt just now")
        if _unreachable_until:  # this attempt tries again, alone
            _unreachable_until = now + settings.DATABASE_CONNECT_TIMEOUT + RETRY_AFTER_TIMEOUT_SECONDS
    try:
        database = get_new_connection()
    except psycopg.errors.ConnectionTimeout:
        _unreachable_until = time.monotonic() + RETRY_AFTER_TIMEOUT_SECONDS
        raise
    except psycopg.Error:
        _unreachable_until = 0.0
        raise
    _unreachable_until = 0.0
    return bound_waits(database)


def with_web_limits(conn_params):
    """``conn_params`` (``serving.postgresql``'s), in the web server with its statement and lock timeouts (libpq's
    ``options``: set as the session starts, no round trip)."""
    if not _limited:
        return conn_params
    limits = (f"-c statement_timeout={milliseconds(settings.DATABASE_STATEMENT_TIMEOUT)} "
              f"-c lock_timeout={milliseconds(settings.DATABASE_LOCK_TIMEOUT)}")
    return {**conn_params, "options": f"{conn_params.get('options', '')} {limits}".strip()}


def limit_web_queries():
    """Called by everx/wsgi.py, before the web server's first connection: its connections get the limits above."""
    global _limited
    _limited = True


def web_server():
    """Whether this process is the web server, whose queries are bounded (``limit_web_queries``)."""
    return _limited


def set_timeouts(statement, lock):
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('statement_timeout', %s, false), set_config('lock_timeout', %s, false)",
                       [str(milliseconds(statement)), str(milliseconds(lock))])


@contextmanager
def staff_query_limits():
    """A verified staff member's admin request (the price import, the demand CSV: long, and rare) under
    DATABASE_STAFF_STATEMENT_TIMEOUT and no lock timeout, in the web server; its connection gets the web's limits
    back after it (or is closed). ``staff.admin_site`` enters it around each admin view its user may see."""
    set_timeouts(settings.DATABASE_STAFF_STATEMENT_TIMEOUT, 0)
    _request.statement_timeout = settings.DATABASE_STAFF_STATEMENT_TIMEOUT
    try:
        yield
    finally:
        del _request.statement_timeout
        try:
            set_timeouts(settings.DATABASE_STATEMENT_TIMEOUT, settings.DATABASE_LOCK_TIMEOUT)
        except DatabaseError:
            connection.close()  # a connection that keeps the staff's limits never serves a visitor
