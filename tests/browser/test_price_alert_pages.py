"""In real Chromium: from a GPU's page, its price alert panel (a GET form) leads to the alert form with the
typed target; the form and its errors pass axe-core on a phone and a desktop, light and dark."""
import pytest
from django.utils import translation
from django.utils.translation import gettext

from alerts.amounts import amount_text
from alerts.models import PriceAlert
from catalog.models import GPU

from ..localized_urls import url_in
from ..page_judges import AXE, VIEWPORTS, axe_context, axe_violations, rules_for
from ..signup_helpers import run_mail_worker

pytestmark = pytest.mark.browser


def test_from_the_gpu_page_to_the_thank_you_page_in_german(live_server, live_launch_content, page):
    gpu = GPU.objects.get(slug="h100-sxm")
    page.goto(live_server.url + gpu.get_absolute_url("de"))
    typed = amount_text("2.50", "de")
    page.fill("#price-alert-target", typed)
    page.locator(".price-alert-form button[type=submit]").click()
    page.wait_for_url(f"**{url_in('de', 'alerts:price_alert', slug=gpu.slug)}?**")
    assert page.input_value("input[name=target]") == typed
    page.fill("input[name=email]", "jonas@example.com")
    page.check("input[name=consent]")
    page.locator("form.public-form button[type=submit]").click()
    page.wait_for_url(live_server.url + url_in("de", "alerts:price_alert_thanks", slug=gpu.slug))
    with translation.override("de"):
        assert page.locator("h1").inner_text() == gettext("Check your inbox")
    # The form stored the request; the mail worker applies it (issue 48).
    run_mail_worker()
    alert = PriceAlert.objects.get()
    assert (alert.email, str(alert.target_usd_per_hour), alert.language) == ("jonas@example.com", "2.50", "de")
    assert alert.source_path == gpu.get_absolute_url("de")


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is installed by `make test` (npm ci)")
@pytest.mark.parametrize("color_scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_alert_form_passes_axe_empty_and_with_errors(live_server, live_launch_content, browser, viewport,
                                                          color_scheme):
    context = axe_context(browser, viewport=VIEWPORTS[viewport], color_scheme=color_scheme)
    page = context.new_page()
    try:
        page.goto(live_server.url + url_in("es", "alerts:price_alert", slug="h100-sxm"))
        assert axe_violations(page, rules=rules_for(color_scheme)) == []
        # The server's own errors, as a browser without form validation would get them.
        page.evaluate("() => { document.querySelector('form.public-form').noValidate = true; }")
        page.fill("input[name=target]", "8.50")
        page.locator("form.public-form button[type=submit]").click()
        page.wait_for_load_state()
        assert page.locator(".field-error").count() >= 3
        assert axe_violations(page, rules=rules_for(color_scheme)) == []
        # Nothing sticks out of a phone's screen.
        assert page.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"]
    finally:
        context.close()
