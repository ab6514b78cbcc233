"""Form submissions per client address over a fixed window: ``SIGNUP_RATE_LIMIT`` submissions per
``SIGNUP_RATE_LIMIT_WINDOW`` seconds, counted in the database (``core.models.SubmissionCount``), which every
worker and server shares, with Redis or without.

One statement counts a submission and returns the count (``INSERT … ON CONFLICT DO UPDATE … RETURNING``,
in PostgreSQL and SQLite): the row is locked inside the database for that statement only. The shared
cache's counter that this replaces took nine round trips in two transactions and held the row's lock
across three of them, so a burst from one address queued on that lock; django-ratelimit counts the same
way (docs/decisions/0012-request-rate-limits.md)."""
import time
from datetime import UTC, datetime

from django.conf import settings
from django.db import connections, router

from core.client_ip import client_network
from core.models import SubmissionCount
from optin.pseudonyms import client_address_hash

# How the mail worker's output names the purged counts (``optin.retention`` runs the purge once an hour).
PURGE_LABELS = {"submission_counts": "rate-limit counts of ended windows"}


def seconds_to_wait(request, scope):
    """Count this submission; None while under the limit, else the seconds until the window ends."""
    window = settings.SIGNUP_RATE_LIMIT_WINDOW
    now = time.time()
    number = int(now // window)
    # A keyed hash keeps visitors' addresses out of the table (a plain one of an IPv4 address is reversed
    # by hashing all of them).
    client = client_address_hash(client_network(request) or "")
    submissions = count_submission(f"{scope}:{number}:{client}",
                                   window_ends_at=datetime.fromtimestamp((number + 1) * window, UTC))
    if submissions <= settings.SIGNUP_RATE_LIMIT:
        return None
    return max(1, int(window - now % window))


def count_submission(key, window_ends_at):
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


def purge_ended_windows(now):
    """Deletes the counts of windows that have ended (the mail worker's hourly purge, ``optin.retention``): no
    pseudonym outlives its use by more than an hour. Not in the request: a submission that purged would take
    other queries than the next one, and the answer must not vary with anything but the form."""
    deleted, _by_model = SubmissionCount.objects.filter(window_ends_at__lte=now).delete()
    return {"submission_counts": deleted}
