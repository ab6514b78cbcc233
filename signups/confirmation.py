"""The double opt-in of the renter waitlist: its link (``optin.confirmation.Link``) confirms a signup not
confirmed yet, and its consent record notes the time."""
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from optin import consent_records
from optin.confirmation import Link, LinkState

from .models import Signup

LINK = Link(Signup, "signups:confirm", awaiting=Q(confirmed_at__isnull=True))


@transaction.atomic
def confirm(token, now=None):
    """Confirm the signup the token was mailed for: CONFIRMED, or the state that prevented it."""
    now = now or timezone.now()
    state = LINK.use(token, now, confirmed_at=now)
    if state is LinkState.CONFIRMED:
        consent_records.confirm(consent_records.records_for(LINK.rows(token)), now)
    return state
