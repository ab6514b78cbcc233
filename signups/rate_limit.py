"""Form submissions per client address over a fixed window: ``SIGNUP_RATE_LIMIT`` submissions per
``SIGNUP_RATE_LIMIT_WINDOW`` seconds, counted in the database (``core.models.SubmissionCount``), which every
worker and server shares, with Redis or without.

One statement counts a submission and returns the count (``core.window_counts``): the row is locked inside the
database for that statement only. The shared cache's counter that this replaces took nine round trips in two
transactions and held the row's lock across three of them, so a burst from one address queued on that lock;
django-ratelimit counts the same way (docs/decisions/0012-request-rate-limits.md)."""
from django.conf import settings

from core.client_ip import client_network
from core.models import SubmissionCount
from core.window_counts import count_in_window as count_submission
from core.window_counts import current_window
from optin.pseudonyms import client_address_hash

# How the mail worker's output names the purged counts (``optin.retention`` runs the purge once an hour).
PURGE_LABELS = {"submission_counts": "rate-limit counts of ended windows"}


def seconds_to_wait(request, scope):
    """Count this submission; None while under the limit, else the seconds until the window ends."""
    number, ends_at, wait = current_window(settings.SIGNUP_RATE_LIMIT_WINDOW)
    # A keyed hash keeps visitors' addresses out of the table (a plain one of an IPv4 address is reversed
    # by hashing all of them).
    client = client_address_hash(client_network(request) or "")
    submissions = count_submission(f"{scope}:{number}:{client}", window_ends_at=ends_at)
    return None if submissions <= settings.SIGNUP_RATE_LIMIT else wait


def purge_ended_windows(now):
    """Deletes the counts of windows that have ended (the mail worker's hourly purge, ``optin.retention``): no
    pseudonym outlives its use by more than an hour. Not in the request: a submission that purged would take
    other queries than the next one, and the answer must not vary with anything but the form."""
    deleted, _by_model = SubmissionCount.objects.filter(window_ends_at__lte=now).delete()
    return {"submission_counts": deleted}
