"""Counts per key over fixed windows of time, in the database (``SubmissionCount``), which every worker and
server shares, with Redis or without: the forms' limit (``signups.rate_limit``) and the limit on renders the page
cache does not serve (``core.render_limit``).

One statement counts and returns the count (``INSERT … ON CONFLICT DO UPDATE … RETURNING``, in PostgreSQL and
SQLite): the row is locked inside the database for that statement only (docs/decisions/0012-request-rate-limits.md).
The mail worker's hourly purge deletes the rows of ended windows."""
import time
from datetime import UTC, datetime

from django.db import connections, router

from .models import SubmissionCount


def current_window(seconds):
    """The window of ``seconds`` that holds now: its number, its end, and the whole seconds until that end."""
    now = time.time()
    number = int(now // seconds)
    return number, datetime.fromtimestamp((number + 1) * seconds, UTC), max(1, int(seconds - now % seconds))


def count_in_window(key, window_ends_at):
    """Adds one to the count at ``key`` (a new key counts one) and returns the new count, in one statement."""
    connection = connections[router.db_for_write(SubmissionCount)]
    table, key_column, count, ends_at = (connection.ops.quote_name(name) for name in (
        SubmissionCount._meta.db_table, "key", "count", "window_ends_at"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({key_column}, {count}, {ends_at}) VALUES (%s, 1, %s) "
            f"ON CONFLICT ({key_column}) DO UPDATE SET {count} = {table}.{count} + 1 RETURNING {count}",
            [key, connection.ops.adapt_datetimefield_value(window_ends_at)])
        return cursor.fetchone()[0]
