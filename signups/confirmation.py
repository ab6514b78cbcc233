"""The double opt-in of the renter waitlist: the link (``optin.confirmation``) confirms a signup, and its
consent record notes the time. Its token is made when the mail is sent, and the signup keeps only the token's
hash and expiry."""
from django.db import transaction
from django.utils import timezone

from optin import consent_records
from optin.confirmation import VALID_FOR, LinkState, issue_link_for, well_formed
from optin.tokens import token_hash

from .models import Signup

__all__ = ["VALID_FOR", "LinkState", "confirm", "issue_link", "link_state"]


def issue_link(signup, token=None):
    return issue_link_for(signup, "signups:confirm", token)


def signup_for(token):
    if not well_formed(token):
        return None
    return Signup.objects.filter(confirmation_token_hash=token_hash(token)).first()


def link_state(token):
    signup = signup_for(token)
    if signup is None:
        return LinkState.UNKNOWN
    if signup.confirmed_at is not None:
        return LinkState.USED
    if signup.confirmation_expires_at is None or signup.confirmation_expires_at <= timezone.now():
        return LinkState.EXPIRED
    return LinkState.UNUSED


@transaction.atomic
def confirm(token, now=None):
    """Confirm the signup the token was mailed for: CONFIRMED, or the state that prevented it.

    One conditional UPDATE: of two clicks at the same moment, exactly one confirms."""
    if not well_formed(token):
        return LinkState.UNKNOWN
    now = now or timezone.now()
    signups = Signup.objects.filter(confirmation_token_hash=token_hash(token))
    confirmed = signups.filter(
        confirmation_expires_at__gt=now, confirmed_at__isnull=True,
    ).update(confirmed_at=now)
    if confirmed != 1:
        return link_state(token)
    consent_records.confirm(consent_records.records_for(signups), now)
    return LinkState.CONFIRMED
