"""The double opt-in link every form shares: its token is made when the mail is sent, so it is never stored;
the mail waits in the outbox with a placeholder (``LINK_PLACEHOLDER``), and the row it confirms (a signup, a
price alert: a row with a language and a confirmation token's hash and expiry) keeps only the token's hash
and expiry.

Opening the link (GET, which mail scanners do too) only shows a button; the button's POST confirms. The
hash stays after use, so a link opened again says it was used rather than that it is unknown. What a
confirmation does is each form's own (``signups.confirmation``, ``alerts.price_alerts``)."""
import enum
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .links import url_in
from .tokens import MAX_TOKEN_LENGTH, new_token, token_hash

LINK_PLACEHOLDER = "[[confirmation-link]]"
VALID_FOR = timedelta(days=settings.CONFIRMATION_LINK_VALID_DAYS)


class LinkState(enum.Enum):
    CONFIRMED = "confirmed"  # confirmed by this request
    UNUSED = "unused"  # valid: the page offers the button
    USED = "used"  # confirmed already
    EXPIRED = "expired"  # too old, or voided (an unsubscribe, no room left)
    UNKNOWN = "unknown"  # no such link, or replaced by a newer one


def issue_link_for(row, view_name, token=None):
    """The link to ``view_name`` for ``row`` with ``token`` (the mail's: ``outbox.link_token``; a new one if
    None). Another mail's token replaces any earlier link, whose mail may never have arrived; the same mail's,
    sent again (its worker died after the mail server took it and before the send was recorded), finds its hash
    in place and leaves it and its expiry as they are: the link that arrived first keeps working until it
    expires."""
    token = token or new_token()
    hashed = token_hash(token)
    type(row).objects.filter(pk=row.pk).exclude(confirmation_token_hash=hashed).update(
        confirmation_token_hash=hashed, confirmation_expires_at=timezone.now() + VALID_FOR,
    )
    return url_in(row.language, view_name, token=token)


def well_formed(token):
    return bool(token) and len(token) <= MAX_TOKEN_LENGTH
