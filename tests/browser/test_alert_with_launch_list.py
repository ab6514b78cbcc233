"""In real Chromium (issue 44, item 3): from a GPU's page to its alert page, whose optional launch-list box is
ticked; the mail worker sends ONE confirmation mail, and its link's button confirms both the alert and the
launch-list signup. In the four languages, on a phone (375×667) and a desktop (1280×800)."""
import pytest
from django.core import mail
from django.utils import translation
from django.utils.translation import gettext

from alerts.amounts import amount_text
from alerts.models import PriceAlert
from catalog.models import GPU
from optin.models import ConsentRecord
from signups.forms import default_currency
from signups.models import Signup

from ..alerts.price_alert_steps import CONFIRM_LINK
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..signup_helpers import run_mail_worker

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": {"width": 375, "height": 667}, "desktop": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_alert_page_with_the_launch_list_sends_one_mail_that_confirms_both(
        live_server, live_launch_content, browser, settings, language, viewport):
    settings.SITE_URL = live_server.url
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    gpu = GPU.objects.get(slug="h100-sxm")
    email = f"{language}-{viewport}@example.com"
    try:
        with translation.override(language):
            page.goto(live_server.url + gpu.get_absolute_url(language))
            page.fill("#price-alert-target", amount_text("2.50", language))
            page.locator(".price-alert-form button[type=submit]").click()
            page.wait_for_url(f"**{url_in(language, 'alerts:price_alert', slug=gpu.slug)}?**")
            assert page.locator(".eyebrow").inner_text() == gettext("Price alert, step 2 of 2")
            # The currency the page's language proposes is chosen already.
            assert page.locator("input[name=launch_list_currency]:checked").input_value() == default_currency(
                language)
            page.fill("input[name=email]", email)
            page.check("input[name=consent]")
            page.check("input[name=launch_list]")
            page.check("input[name=launch_list_business]")
            assert page.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"]
            page.locator("form.public-form button[type=submit]").click()
            page.wait_for_url(live_server.url + url_in(language, "alerts:price_alert_thanks", slug=gpu.slug))

            assert mail.outbox == []
            run_mail_worker()
            [message] = mail.outbox
            assert message.to == [email]
            assert gettext("Leave the launch list at any time:") in message.body
            page.goto(CONFIRM_LINK.search(message.body).group(0))
            assert gettext("The same button also puts this address on the launch list: we email you when the spot "
                           "market opens.") in page.locator("main").inner_text()
            page.get_by_role("button", name=gettext("Confirm the alert")).click()
            page.wait_for_load_state()
            assert page.locator("h1").inner_text() == gettext("Your price alert is on")
            assert gettext("This address is on the launch list now: we email you when the spot market opens. Every "
                           "email about the launch has a link to unsubscribe.") in page.locator("main").inner_text()
            assert page.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"]
    finally:
        context.close()
    alert, signup = PriceAlert.objects.get(email=email), Signup.objects.get(email=email)
    assert alert.confirmed_at is not None and signup.confirmed_at == alert.confirmed_at
    assert (signup.currency, signup.language, signup.for_business) == (default_currency(language), language, True)
    assert sorted(ConsentRecord.objects.filter(confirmed_at=alert.confirmed_at).values_list("purpose", flat=True)) == [
        "price_alert", "waitlist"]
    assert len(mail.outbox) == 1
