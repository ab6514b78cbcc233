"""The double opt-in link of a price alert (``optin.confirmation``): its token is made when the mail is sent
and only its hash is kept. A link confirms a new alert, or the new target asked
for a confirmed one (``PriceAlert.requested_target_usd_per_hour``); confirming is in ``price_alerts.py``."""
from django.utils import timezone

from optin.confirmation import LinkState, issue_link_for, well_formed
from optin.tokens import token_hash

from .models import PriceAlert


def issue_link(alert, token=None):
    return issue_link_for(alert, "alerts:price_alert_confirm", token)


def alert_for(token):
    if not well_formed(token):
        return None
    return PriceAlert.objects.select_related("gpu").filter(confirmation_token_hash=token_hash(token)).first()


def awaits_confirmation(alert):
    return alert.confirmed_at is None or alert.requested_target_usd_per_hour is not None


def link_state(alert):
    """What the link of ``alert`` (None: no such link) can still do."""
    if alert is None:
        return LinkState.UNKNOWN
    if not awaits_confirmation(alert):
        return LinkState.USED
    if alert.confirmation_expires_at is None or alert.confirmation_expires_at <= timezone.now():
        return LinkState.EXPIRED
    return LinkState.UNUSED
