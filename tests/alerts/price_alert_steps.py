"""The steps of a price alert's way that the alert tests share: the form's data, asking for an alert (the stored
request applied), one price through the price import, the confirm link of a mail, an alert asked for and confirmed,
a price change as the catalogue announces it; the GPU they use by default and the links the alert mails carry."""
from datetime import UTC, datetime

from django.utils import timezone

from alerts import price_alerts
from alerts.amounts import amount_text
from alerts.models import PriceAlert
from catalog.price_events import CurrentPriceChange
from prices.price_import import import_prices

from ..localized_urls import url_in
from ..signup_helpers import SAMPLE_UUID, link_pattern, path_of, run_mail_worker

SLUG = "h100-sxm"
CONFIRM_LINK = link_pattern("alerts:price_alert_confirm", "token", "sample-token")
DELETE_LINK = link_pattern("alerts:price_alert_delete", "key", SAMPLE_UUID)


def alert_data(language="es", **overrides):
    data = {"email": "ana@example.com", "target": amount_text("2.50", language), "consent": "on"}
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def ask(client, language="es", slug=SLUG, **data):
    """Post the form; the request it stored is then applied, as the mail worker's first chore does."""
    response = client.post(url_in(language, "alerts:price_alert", slug=slug), alert_data(language, **data))
    price_alerts.apply_requests()
    return response


def import_price(slug, price):
    """One row through the price import, as the admin's upload or `manage.py import_prices` runs it."""
    report = import_prices(f"gpu,usd_per_hour,time\n{slug},{price},{datetime.now(UTC).isoformat()}\n", "prices.csv")
    assert report.applied and not report.refused, report.refused
    return report


def confirm_link_of(body):
    return path_of(CONFIRM_LINK.search(body).group(0))


def confirmed_alert(client, language="es", slug=SLUG, **data):
    """An alert asked for through the form and confirmed through its mailed link (Django's test mailbox)."""
    from django.core import mail

    assert ask(client, language, slug, **data).status_code == 303
    run_mail_worker()
    assert client.post(confirm_link_of(mail.outbox[-1].body)).status_code == 200
    alert = PriceAlert.objects.get(gpu__slug=slug, email=data.get("email", "ana@example.com"))
    assert alert.confirmed_at is not None
    return alert


def change(gpu, new, old=None):
    return CurrentPriceChange(gpu, old, new, timezone.now(), "import")
