"""Renders the page cache does not serve, per client (issue 48): ``RENDER_RATE_LIMIT`` per
``RENDER_RATE_LIMIT_WINDOW`` seconds for one client, an IPv6 client by its /64 (``core.client_ip.client_network``).

What it counts: a request for a page whose query names one of the page's own parameters (a calculator's inputs,
the catalogue's filters, a comparison's GPUs, the open data feed's queries) that the page cache did not answer:
each such answer is rendered for that visitor alone (tens of milliseconds of processor time), and one client
with 8 connections kept both cores busy with them (203 a second). Pages without such a query, cached or not
(they are a finite set, each stored once rendered), and any page the cache serves, are never counted nor
refused. Past the limit the answer is 429 with Retry-After (the end of the window), in the visitor's language.

Counted in the database as the forms' limit is (``signups/rate_limit.py``, docs/decisions/0012-request-rate-limits.md):
one ``INSERT … ON CONFLICT DO UPDATE … RETURNING`` per counted request, in ``core.models.SubmissionCount``, under
a keyed hash of the client's network; the mail worker's hourly purge deletes the rows of ended windows."""
import time
from datetime import UTC, datetime

from django.conf import settings
from django.db import connections, router
from django.utils.crypto import salted_hmac

from .client_ip import client_network
from .models import SubmissionCount

SCOPE = "render"


def seconds_to_wait(request):
    """Count this render; None while under the limit (or with no limit), else the seconds until the window ends."""
    limit = settings.RENDER_RATE_LIMIT
    if not limit:
        return None
    window = settings.RENDER_RATE_LIMIT_WINDOW
    now = time.time()
    number = int(now // window)
    client = salted_hmac("render-limit", client_network(request) or "").hexdigest()[:32]
    renders = count(f"{SCOPE}:{number}:{client}", datetime.fromtimestamp((number + 1) * window, UTC))
    if renders <= limit:
        return None
    return max(1, int(window - now % window))


def count(key, window_ends_at):
    """Adds one to the count at ``key`` (a new key counts one) and returns the new count, in one statement."""
    connection = connections[router.db_for_write(SubmissionCount)]
    table, key_column, number, ends_at = (connection.ops.quote_name(name) for name in (
        SubmissionCount._meta.db_table, "key", "count", "window_ends_at"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({key_column}, {number}, {ends_at}) VALUES (%s, 1, %s) "
            f"ON CONFLICT ({key_column}) DO UPDATE SET {number} = {table}.{number} + 1 RETURNING {number}",
            [key, connection.ops.adapt_datetimefield_value(window_ends_at)])
        return cursor.fetchone()[0]
