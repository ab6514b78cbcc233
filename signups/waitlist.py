"""The renter waitlist: join (double opt-in) and unsubscribe; confirming is in ``confirmation.py``.

Joining answers the same whether the address is new or known, and keeps one row per address (compared
ignoring case): concurrent requests for one address meet at the unique constraint, and the losers read
the winner's row instead of failing."""
from datetime import timedelta

from django.db import transaction
from django.db.models import Value
from django.db.models.functions import Lower
from django.utils import timezone

from . import mails
from .models import Signup

# A pending address asked again sooner than this gets no second mail: nobody can flood a mailbox through us.
RESEND_CONFIRMATION_AFTER = timedelta(minutes=15)


@transaction.atomic
def join(*, email, currency, language, workload, consent):
    """Record a signup and queue its confirmation mail, in one transaction.

    ``consent`` holds the evidence fields (consent text and privacy policy versions, consent language,
    the form's page). A confirmed address is left as it is; a pending or unsubscribed one takes this
    request's answers and consent, and a new confirmation mail."""
    now = timezone.now()
    request_fields = {"currency": currency, "language": language, "workload": workload, **consent,
                      "signed_up_at": now}
    # Lowercased by the database on both sides, exactly as the unique constraint compares them.
    signup, created = Signup.objects.get_or_create(
        email__lower=Lower(Value(email)), defaults={"email": email, **request_fields},
    )
    if not created:
        signup = Signup.objects.select_for_update().get(pk=signup.pk)
        pending = signup.unsubscribed_at is None
        if signup.is_subscribed or (pending and signup.signed_up_at > now - RESEND_CONFIRMATION_AFTER):
            return signup
        for field, value in request_fields.items():
            setattr(signup, field, value)
        signup.email, signup.confirmed_at, signup.unsubscribed_at = email, None, None
        signup.save()
    mails.queue_confirmation(signup)
    return signup


def unsubscribe(key):
    """Take the address off the list, and void any confirmation link still in a mailbox. Idempotent."""
    Signup.objects.filter(unsubscribe_key=key, unsubscribed_at__isnull=True).update(
        unsubscribed_at=timezone.now(), confirmation_token_hash=None, confirmation_expires_at=None,
    )
