"""The price alert on the catalogue's pages (``catalog.gpu_page_panels``): a panel on each GPU's page and a
link in each priced row of the calculator, both leading to the GPU's alert form.

The GPU's page is cached whole and served to every visitor, so its panel carries no CSRF token: it is a GET
form that brings the typed target (and the page it came from) to the alert form, which asks for the
address and consent."""
from django.urls import reverse

from catalog.gpu_page_panels import Fragment
from core.formatting import format_usd

from .amounts import currency_affixes


def price_alert_panel(gpu):
    price = gpu.price_usd_per_hour
    before, after = currency_affixes()
    return Fragment("alerts/includes/price_alert_panel.html", {
        "gpu": gpu.name,
        "action": reverse("alerts:price_alert", kwargs={"slug": gpu.slug}),
        "from_path": gpu.get_absolute_url(),
        "today": None if price is None else format_usd(price),
        "before": before,
        "after": after,
    })


def price_alert_row_link(gpu, usd_per_hour):
    """A priced row's link to the GPU's alert form. It brings no target: today's price would be reached at once
    (the form shows today's price beside the field)."""
    if usd_per_hour is None:
        return None
    return Fragment("alerts/includes/price_alert_row_link.html", {
        "gpu": gpu.name, "url": reverse("alerts:price_alert", kwargs={"slug": gpu.slug}),
    })
