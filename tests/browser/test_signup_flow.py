"""In real Chromium, in Spanish: from the home page's call to action to the signup form, then the link from
the confirmation mail (sent by the mail worker) and its button; the forms pass axe-core, with and without
errors shown."""

import pytest
from django.core import mail
from django.utils import translation
from django.utils.translation import gettext

from signups.models import Signup
from workloads.models import Workload

from ..localized_urls import url_in
from ..page_judges import AXE, axe_context, axe_violations
from ..signup_helpers import CONFIRM_LINK, run_mail_worker

pytestmark = pytest.mark.browser


@pytest.fixture
def spanish_page(browser):
    context = browser.new_context(locale="es-ES")
    page = context.new_page()
    yield page
    context.close()


def test_sign_up_in_spanish_and_confirm_with_the_link_from_the_mail(
        live_server, live_launch_content, spanish_page, settings):
    settings.SITE_URL = live_server.url
    page = spanish_page
    page.goto(live_server.url + "/")
    assert page.url == live_server.url + "/es/"
    page.locator(f'.cta-launch a[href^="{url_in("es", "signups:signup")}"]').click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.locator("select[name=language]").input_value() == "es"

    training = Workload.objects.get(key="llm-training")
    page.fill("input[name=email]", "lucia@example.com")
    page.check("input[name=currency][value=EUR]")
    page.select_option("select[name=workload]", label=training.title_es)
    page.check("input[name=business]")
    page.check("input[name=consent]")
    page.locator("form.public-form button[type=submit]").click()
    page.wait_for_url(live_server.url + url_in("es", "signups:signup_thanks"))
    with translation.override("es"):
        assert page.locator("h1").inner_text() == gettext("Check your inbox")

    assert mail.outbox == []
    run_mail_worker()
    [message] = mail.outbox
    with translation.override("es"):
        assert message.subject == gettext("Confirm your EverXCloud signup")
    link = CONFIRM_LINK.search(message.body).group(0)
    assert link.startswith(live_server.url + "/es/")
    page.goto(link)
    with translation.override("es"):
        assert page.locator("h1").inner_text() == gettext("Confirm your signup")
        assert Signup.objects.get().confirmed_at is None
        page.get_by_role("button", name=gettext("Confirm my signup")).click()
        page.wait_for_load_state()
        assert page.locator("h1").inner_text() == gettext("Your signup is confirmed")
    assert page.locator("html").get_attribute("lang") == "es"

    signup = Signup.objects.get()
    assert signup.is_subscribed
    assert (signup.email, signup.currency, signup.language) == ("lucia@example.com", "EUR", "es")
    assert signup.workload == training and signup.for_business
    assert (signup.consent_language, signup.source_path) == ("es", "/es/")


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is installed by `make test` (npm ci)")
@pytest.mark.parametrize("view_name", ["signups:signup", "providers:application"])
def test_the_forms_pass_axe_empty_and_with_errors(live_server, live_launch_content, browser, view_name):
    context = axe_context(browser)
    page = context.new_page()
    try:
        page.goto(live_server.url + url_in("es", view_name))
        assert axe_violations(page) == []
        # The server's own errors, as a browser without form validation would get them.
        page.evaluate("() => { document.querySelector('form.public-form').noValidate = true; }")
        page.locator("form.public-form button[type=submit]").click()
        page.wait_for_load_state()
        assert page.locator(".field-error").count() >= 2
        assert axe_violations(page) == []
        # The first invalid field points to its error message.
        described_by = page.locator('input[aria-invalid="true"]').first.get_attribute("aria-describedby")
        assert page.locator(f"#{described_by.split()[-1]}").inner_text()
    finally:
        context.close()
