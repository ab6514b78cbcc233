"""Renders the page cache does not serve, per client (issue 48): ``RENDER_RATE_LIMIT`` per
``RENDER_RATE_LIMIT_WINDOW`` seconds for one client, an IPv6 client by its /64 (``core.client_ip.client_network``).

What it counts: a request for a page whose query names one of the page's own parameters (a calculator's inputs,
the catalogue's filters, a comparison's GPUs, the open data feed's queries) that the page cache did not answer:
each such answer is rendered for that visitor alone (tens of milliseconds of processor time), and one client
with 8 connections kept both cores busy with them (203 a second). Pages without such a query, cached or not
(they are a finite set, each stored once rendered), and any page the cache serves, are never counted nor
refused. Past the limit the answer is 429 with Retry-After (the end of the window), in the visitor's language.

Counted in the database as the forms' limit is (``core.window_counts``), one statement per counted request, under a
keyed hash of the client's network."""
from django.conf import settings
from django.utils.crypto import salted_hmac

from .client_ip import client_network
from .errors import too_many_renders
from .window_counts import count_in_window, current_window

SCOPE = "render"


def seconds_to_wait(request):
    """Count this render; None while under the limit (or with no limit), else the seconds until the window ends."""
    limit = settings.RENDER_RATE_LIMIT
    if not limit:
        return None
    number, ends_at, wait = current_window(settings.RENDER_RATE_LIMIT_WINDOW)
    client = salted_hmac("render-limit", client_network(request) or "").hexdigest()[:32]
    return None if count_in_window(f"{SCOPE}:{number}:{client}", ends_at) <= limit else wait


def refusal(request):
    """The 429 answer for a client past its limit (else None, the render counted): ``PAGE_RENDER_REFUSAL``, asked by
    the page cache (``caching.pages``) before it renders a visitor's own query."""
    seconds = seconds_to_wait(request)
    return too_many_renders(request, seconds) if seconds else None
