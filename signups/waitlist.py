"""The renter waitlist: join (double opt-in), confirm, unsubscribe.

Joining answers the same whether the address is new or known, and keeps one row per address (compared
ignoring case): concurrent requests for one address meet at the unique constraint, and the losers read
the winner's row instead of failing."""
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from . import mails
from .models import Signup
from .tokens import MAX_TOKEN_LENGTH, new_token, token_hash

CONFIRMATION_LINK_VALID_FOR = timedelta(days=7)
# A pending address asked again sooner than this gets no second mail: nobody can flood a mailbox through us.
RESEND_CONFIRMATION_AFTER = timedelta(minutes=15)


@transaction.atomic
def join(*, email, currency, language, workload, consent, now=None):
    """Record a signup and queue its confirmation mail, in one transaction.

    ``consent`` holds the evidence fields (consent text and privacy policy versions, consent language,
    the form's page). A confirmed address is left as it is; a pending or unsubscribed one takes this
    request's answers and consent, with a fresh confirmation link."""
    now = now or timezone.now()
    token = new_token()
    request_fields = {
        "currency": currency, "language": language, "workload": workload, **consent,
        "signed_up_at": now,
        "confirmation_token_hash": token_hash(token),
        "confirmation_expires_at": now + CONFIRMATION_LINK_VALID_FOR,
    }
    signup, created = Signup.objects.get_or_create(
        email__lower=email.lower(), defaults={"email": email, **request_fields},
    )
    if not created:
        signup = Signup.objects.select_for_update().get(pk=signup.pk)
        if signup.is_subscribed or signup.signed_up_at > now - RESEND_CONFIRMATION_AFTER:
            return signup
        for field, value in request_fields.items():
            setattr(signup, field, value)
        signup.email, signup.confirmed_at, signup.unsubscribed_at = email, None, None
        signup.save()
    mails.queue_confirmation(signup, token, CONFIRMATION_LINK_VALID_FOR.days)
    return signup


def confirm(token, now=None):
    """Confirm the signup the token was mailed for; False if the token is unknown, used or expired.

    One conditional UPDATE: of two clicks at the same moment, exactly one confirms."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return False
    now = now or timezone.now()
    return Signup.objects.filter(
        confirmation_token_hash=token_hash(token), confirmation_expires_at__gt=now,
    ).update(confirmed_at=now, confirmation_token_hash=None, confirmation_expires_at=None) == 1


def unsubscribe(key, now=None):
    """Take the address off the list, and void any confirmation link still in a mailbox. Idempotent."""
    now = now or timezone.now()
    Signup.objects.filter(unsubscribe_key=key, unsubscribed_at__isnull=True).update(
        unsubscribed_at=now, confirmation_token_hash=None, confirmation_expires_at=None,
    )
