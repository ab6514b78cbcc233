"""The provider page in real Chromium with JavaScript off, in every language at 375×667 and 1280×800: a visitor
picks a GPU, types the count, utilization, electricity price and PUE in the language's number format, and the
page answers with the estimate, whose figures equal those worked out here from the catalogue's offer and power;
from it the application, pre-filled, stores structured GPU rows. The founders' demand page shows the GPUs
offered per model and its CSV holds them. Screenshots go to test-results/ (ignored by git)."""
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from catalog.models import GPU
from core.formatting import format_number, format_usd
from providers.applications import apply_requests
from providers.models import ProviderApplication

from .. import factories
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..page_judges import box_in_first_screen

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parent.parent.parent / "test-results"
VIEWPORTS = {"phone": {"width": 375, "height": 667}, "desktop": {"width": 1280, "height": 800}}
# (GPU, count, utilization %, US$ per kWh, PUE) as typed in each language's number format, and as numbers.
TYPED = {"es": ("h100-sxm", "8", "62,5", "0,145", "1,35"), "pt": ("b200", "16", "80", "0,2", "1,2"),
         "de": ("rtx-4090", "1.024", "45,5", "0,31", "1,1"), "en": ("mi300x", "8", "70", "0.12", "1.5")}
NUMBERS = {"es": (8, "0.625", "0.145", "1.35"), "pt": (16, "0.8", "0.2", "1.2"), "de": (1024, "0.455", "0.31", "1.1"),
           "en": (8, "0.7", "0.12", "1.5")}


def worked_out(gpu, count, utilization, usd_per_kwh, pue):
    """The month's figures from the catalogue's row alone: 730 h, the offer, the maximum power."""
    utilization, usd_per_kwh, pue = Decimal(utilization), Decimal(usd_per_kwh), Decimal(pue)
    hours = 730 * count * utilization
    gross = (gpu.price_usd_per_hour * hours).quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    kwh = gpu.max_power_w * count * pue * 730 * utilization / 1000
    cost = (kwh * usd_per_kwh).quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    return [format_number(hours), format_usd(gross), f"{format_number(kwh.quantize(Decimal(1)))}\u00a0kWh",
            format_usd(cost), format_usd(gross - cost), gettext("Announced before launch.")]


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_estimate_answers_without_javascript_and_the_application_stores_gpu_rows(
        live_server, live_launch_content, browser, size):
    viewport = VIEWPORTS[size]
    SCREENSHOTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport=viewport, device_scale_factor=1, java_script_enabled=False)
    page = context.new_page()
    try:
        for language in LANGUAGES:
            slug, count, utilization, electricity, pue = TYPED[language]
            gpu = GPU.objects.get(slug=slug)
            page.goto(live_server.url + url_in(language, "providers:page"))
            form = page.locator("form.provider-estimate-form")
            form.locator("select[name=gpu]").select_option(slug)
            for name, value in (("count", count), ("utilization", utilization), ("electricity", electricity),
                                ("pue", pue)):
                form.locator(f"input[name={name}]").fill(value)
            form.locator("button[type=submit]").click()
            page.wait_for_load_state()
            figures = page.locator("#estimate dl dd").all_inner_texts()
            with translation.override(language):
                assert [text.strip() for text in figures] == worked_out(gpu, *NUMBERS[language]), language
            # The answer lands in view: the form's address ends in #estimate.
            inside, box = box_in_first_screen(page.locator("#estimate .estimate-total"), viewport)
            assert inside, (language, box)
            page.screenshot(path=str(SCREENSHOTS / f"provider-estimate-{language}-{size}.png"))
            page.screenshot(path=str(SCREENSHOTS / f"provider-estimate-{language}-{size}-full.png"), full_page=True)

            if size != "phone":
                continue
            page.locator("#estimate a.cta-button").click()
            page.wait_for_load_state()
            assert page.locator("select[name=gpu_1]").input_value() == slug
            assert page.locator("input[name=count_1]").input_value() == count
            page.screenshot(path=str(SCREENSHOTS / f"provider-application-{language}-{size}.png"), full_page=True)
            with translation.override(language):
                assert page.locator("a.header-cta").inner_text().strip() == gettext("Apply to join the network")
            page.fill("input[name=company]", f"Rechenzentrum {language}")
            page.fill("input[name=contact_name]", "Eva")
            page.fill("input[name=email]", f"eva-{language}@example.com")
            page.select_option("select[name=country]", "DE")
            page.fill("input[name=location_1]", "Frankfurt am Main")
            page.select_option("select[name=gpu_2]", "other")
            page.fill("input[name=name_2]", "MI250X")
            page.fill("input[name=count_2]", "4")
            page.fill("input[name=location_2]", "Berlin")
            page.check("input[name=consent]")
            page.locator("form.public-form button[type=submit]").click()
            page.wait_for_load_state()
            assert page.url == live_server.url + url_in(language, "providers:thanks")
            apply_requests()  # the mail worker's chore: the stored request becomes the application
            application = ProviderApplication.objects.get(company=f"Rechenzentrum {language}")
            assert [(row.gpu_id, row.name, row.count, row.location) for row in application.offered_gpus.all()] == [
                (gpu.pk, gpu.name, NUMBERS[language][0], "Frankfurt am Main"), (None, "MI250X", 4, "Berlin")]
            assert (application.language, application.gpus) == (language, "")
    finally:
        context.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_demand_page_shows_offered_gpus_per_model_and_its_csv_holds_them(
        live_server, live_launch_content, browser, size):
    h100, b200 = GPU.objects.get(slug="h100-sxm"), GPU.objects.get(slug="b200")
    for status, rows in [("new", [(h100, 16), (None, 8)]), ("accepted", [(h100, 8), (b200, 4)])]:
        application = factories.provider_application(status=status)
        for order, (gpu, count) in enumerate(rows):
            factories.offered_gpu(application=application, order=order, gpu=gpu, count=count)
    factories.provider_application(gpus="32 × A100", server_locations="Oslo")
    # Demand beside it: renters who chose the H100, an alert on the B200.
    for confirmed in [True, False, True]:
        factories.signup(gpu=h100, gpu_count=8, confirmed_at=timezone.now() if confirmed else None)
    factories.price_alert(gpu=b200, target_usd_per_hour=Decimal("6.50"), confirmed_at=timezone.now())
    founder = Client()
    founder.force_login(get_user_model().objects.create_superuser("founder", "f@example.com", "a-long-pass-1"))
    context = browser.new_context(viewport=VIEWPORTS[size], device_scale_factor=1)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                          "value": founder.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    try:
        page.goto(live_server.url + reverse("admin:signups_demand"))
        rows = page.locator("div[aria-labelledby=demand-supply] tbody tr")
        cells = {rows.nth(index).locator("th").inner_text().strip(): rows.nth(index).locator("td").all_inner_texts()
                 for index in range(rows.count())}
        assert cells["H100 SXM"] == ["24 (8)", "2", "2 / 3", "0"]
        assert cells["B200"] == ["4 (4)", "1", "0 / 0", "1"]
        assert cells["other: MI250X"][:2] == ["8 (0)", "1"]
        page.locator("#demand-supply").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"demand-supply-{size}.png"))
        page.screenshot(path=str(SCREENSHOTS / f"demand-supply-{size}-full.png"), full_page=True)
        csv_text = page.request.get(live_server.url + reverse("admin:signups_demand_csv")).text()
        assert "supply_by_gpu,total,h100-sxm,gpus_offered,24" in csv_text
        assert "supply_by_gpu,total,other=MI250X,gpus_offered,8" in csv_text
        assert "supply_by_gpu,total,unstructured,applications,1" in csv_text
    finally:
        context.close()
