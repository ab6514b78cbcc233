"""The double opt-in link every form shares: its token is made when the mail is sent, so it is never stored;
the mail waits in the outbox with a placeholder (``LINK_PLACEHOLDER``), and the row it confirms keeps only the
token's hash and expiry (``models.ConfirmationToken``).

An app declares each link its mails carry as a ``Link``: the rows it confirms, the page it opens and what
"still waiting for the click" means for them (a signup not confirmed yet; a price alert, or its new target, not
confirmed yet; a reminder's renewal not done yet). The lookup by token, the link's state and the one
conditional UPDATE that uses it are written once, here; what using it does besides is each app's own.

Opening the link (GET, which mail scanners do too) only shows a button (``optin.views.LinkView``); the button's
POST uses it. The hash stays after use, so a link opened again says it was used rather than that it is
unknown."""
import enum
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import BooleanField, ExpressionWrapper, Q
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


def well_formed(token):
    return bool(token) and len(token) <= MAX_TOKEN_LENGTH


@dataclass(frozen=True)
class Link:
    """A link the mails of an app carry: it opens ``view_name`` (with the token) for one row of ``model``, found
    by the token's hash in ``hash_field`` and usable until ``expires_field``, while the row is ``awaiting``
    (a condition on the row; a row no longer awaiting has used its link)."""

    model: type
    view_name: str
    awaiting: Q
    hash_field: str = "confirmation_token_hash"
    expires_field: str = "confirmation_expires_at"
    related: tuple = ()  # what the link's pages show of the row's relations (``select_related``)
    expires: object = None  # when the link of a row expires (``expires(row)``); None: VALID_FOR after it is made

    def issue(self, row, token=None):
        """The link for ``row`` with ``token`` (the mail's: ``outbox.link_token``; a new one if None). Another
        mail's token replaces any earlier link, whose mail may never have arrived; the same mail's, sent again
        (its worker died after the mail server took it and before the send was recorded), finds its hash in
        place and leaves it and its expiry as they are: the link that arrived first keeps working until it
        expires."""
        token = token or new_token()
        hashed = token_hash(token)
        expires_at = self.expires(row) if self.expires else timezone.now() + VALID_FOR
        self.model.objects.filter(pk=row.pk).exclude(**{self.hash_field: hashed}).update(**{
            self.hash_field: hashed, self.expires_field: expires_at})
        return url_in(row.language, self.view_name, token=token)

    def rows(self, token):
        """The row of ``token`` as a queryset (empty for a token that is not ours)."""
        if not well_formed(token):
            return self.model.objects.none()
        return self.model.objects.filter(**{self.hash_field: token_hash(token)})

    def usable(self, token, now):
        """The row ``token`` can still be used for at ``now``: awaiting its click, and not expired."""
        return self.rows(token).filter(self.awaiting, **{f"{self.expires_field}__gt": now})

    def row_for(self, token):
        """The row of ``token`` (None: no such link), with whether it still awaits its click (``state``)."""
        awaits = ExpressionWrapper(self.awaiting, output_field=BooleanField())
        return self.rows(token).select_related(*self.related).annotate(link_awaits=awaits).first()

    def state(self, row, now=None):
        """What the link of ``row`` (from ``row_for``; None: no such link) can still do."""
        if row is None:
            return LinkState.UNKNOWN
        if not row.link_awaits:
            return LinkState.USED
        expires_at = getattr(row, self.expires_field)
        if expires_at is None or expires_at <= (now or timezone.now()):
            return LinkState.EXPIRED
        return LinkState.UNUSED

    def use(self, token, now, **changes):
        """Write ``changes`` to the row of ``token`` if its link is usable at ``now``: CONFIRMED, or the state
        that prevented it. One conditional UPDATE: of two clicks at the same moment, exactly one uses it."""
        if self.usable(token, now).update(**changes) != 1:
            return self.state(self.row_for(token), now)
        return LinkState.CONFIRMED
