"""The double opt-in link of a price alert (``optin.confirmation.Link``): it confirms a new alert, or the new
target asked for a confirmed one (``PriceAlert.requested_target_usd_per_hour``); confirming, with every alert
waiting at the address, is in ``price_alerts.py``."""
from django.db.models import Q

from optin.confirmation import Link

from .models import PriceAlert

# What an alert waiting for a click is: never confirmed, or a new target asked for a confirmed one.
AWAITING_CONFIRMATION = Q(confirmed_at__isnull=True) | Q(requested_target_usd_per_hour__isnull=False)

LINK = Link(PriceAlert, "alerts:price_alert_confirm", awaiting=AWAITING_CONFIRMATION, related=("gpu",))
