"""Price alerts never confirmed are deleted on the same terms as signups (``optin.retention``, which runs this
purge with the other forms'): SIGNUP_UNCONFIRMED_RETENTION_DAYS after they were asked for, once their link no
longer works and their mail is not still being tried, with their mails."""
from optin.retention import cutoff, lapsed, purge

from .models import PriceAlert

# How the worker's output (in English, for the operator's log) names each count.
LABELS = {"mails": "mails", "alerts": "price alerts"}


def lapsed_alerts(now):
    return lapsed(PriceAlert.objects.filter(created_at__lt=cutoff(now)), now)


def purge_unconfirmed_alerts(now):
    alerts, mails = purge(lapsed_alerts(now), now)
    return {"mails": mails, "alerts": alerts}
