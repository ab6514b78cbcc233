"""The double opt-in link. Its token is made when the mail is sent, so it is never stored: the mail
waits in the outbox with a placeholder, and the signup keeps only the token's hash and expiry.

Opening the link (GET, which mail scanners do too) only shows a button; the button's POST confirms. The
hash stays after use, so a link opened again says it was used rather than that it is unknown."""
import enum
from datetime import timedelta

from django.utils import timezone

from .links import url_in
from .models import Signup
from .tokens import MAX_TOKEN_LENGTH, new_token, token_hash

LINK_PLACEHOLDER = "[[confirmation-link]]"
VALID_FOR = timedelta(days=7)


class LinkState(enum.Enum):
    CONFIRMED = "confirmed"  # confirmed by this request
    UNUSED = "unused"  # valid: the page offers the button
    USED = "used"  # the signup is confirmed already
    EXPIRED = "expired"  # too old, or voided by an unsubscribe
    UNKNOWN = "unknown"  # no such link, or replaced by a newer one


def issue_link_for(row, view_name):
    """A fresh link to ``view_name`` for ``row`` (a signup or a price alert: a row with a language and a
    confirmation token's hash and expiry); it replaces any earlier one, whose mail may never have arrived."""
    token = new_token()
    type(row).objects.filter(pk=row.pk).update(
        confirmation_token_hash=token_hash(token), confirmation_expires_at=timezone.now() + VALID_FOR,
    )
    return url_in(row.language, view_name, token=token)


def issue_link(signup):
    return issue_link_for(signup, "signups:confirm")


def well_formed(token):
    return bool(token) and len(token) <= MAX_TOKEN_LENGTH


def signup_for(token):
    if not well_formed(token):
        return None
    return Signup.objects.filter(confirmation_token_hash=token_hash(token)).first()


def link_state(token):
    signup = signup_for(token)
    if signup is None:
        return LinkState.UNKNOWN
    if signup.unsubscribed_at is not None:
        return LinkState.EXPIRED
    if signup.confirmed_at is not None:
        return LinkState.USED
    if signup.confirmation_expires_at is None or signup.confirmation_expires_at <= timezone.now():
        return LinkState.EXPIRED
    return LinkState.UNUSED


def confirm(token):
    """Confirm the signup the token was mailed for: CONFIRMED, or the state that prevented it.

    One conditional UPDATE: of two clicks at the same moment, exactly one confirms."""
    if not well_formed(token):
        return LinkState.UNKNOWN
    now = timezone.now()
    confirmed = Signup.objects.filter(
        confirmation_token_hash=token_hash(token), confirmation_expires_at__gt=now, confirmed_at__isnull=True,
        unsubscribed_at__isnull=True,
    ).update(confirmed_at=now)
    return LinkState.CONFIRMED if confirmed == 1 else link_state(token)
