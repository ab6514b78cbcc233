"""How long unconfirmed signups are kept (``optin.retention``, which runs this purge with the other forms'):
SIGNUP_UNCONFIRMED_RETENTION_DAYS after their confirmation was asked for, then they are deleted with their
mails, as are waiting requests that old.

A confirmed signup is never deleted here (an unsubscribe deletes it at once: ``unsubscribe.py``; the evidence
of a consent and of its withdrawal is its consent record). Neither is a signup whose confirmation link still
works or whose mail is still being tried (a staff member's "send again" can give an old signup a fresh link):
its visitor may yet confirm. A purged signup's record ends as never confirmed (``optin.retention.purge``)."""
from optin.retention import cutoff, lapsed, purge

from .models import Signup, WaitlistRequest

# How the worker's output (in English, for the operator's log) names each count.
LABELS = {"signups": "signups", "mails": "mails", "requests": "waiting requests"}


def lapsed_signups(now):
    return lapsed(Signup.objects.filter(signed_up_at__lt=cutoff(now)), now)


def purge_unconfirmed_signups(now):
    signups, mails = purge(lapsed_signups(now), now)
    requests, _deleted = WaitlistRequest.objects.filter(received_at__lt=cutoff(now)).delete()
    return {"signups": signups, "mails": mails, "requests": requests}
