"""The double opt-in link. Its token is made when the mail is sent, so it is never stored: the mail
waits in the outbox with a placeholder, and the signup keeps only the token's hash and expiry."""
from datetime import timedelta

from django.utils import timezone

from .links import url_in
from .models import Signup
from .tokens import MAX_TOKEN_LENGTH, new_token, token_hash

LINK_PLACEHOLDER = "[[confirmation-link]]"
VALID_FOR = timedelta(days=7)


def issue_link(signup):
    """A fresh link for ``signup``; it replaces any earlier one, whose mail may never have arrived."""
    token = new_token()
    Signup.objects.filter(pk=signup.pk).update(
        confirmation_token_hash=token_hash(token), confirmation_expires_at=timezone.now() + VALID_FOR,
    )
    return url_in(signup.language, "signups:confirm", token=token)


def confirm(token):
    """Confirm the signup the token was mailed for; False if the token is unknown, used or expired.

    One conditional UPDATE: of two clicks at the same moment, exactly one confirms."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return False
    now = timezone.now()
    return Signup.objects.filter(
        confirmation_token_hash=token_hash(token), confirmation_expires_at__gt=now,
    ).update(confirmed_at=now, confirmation_token_hash=None, confirmation_expires_at=None) == 1
