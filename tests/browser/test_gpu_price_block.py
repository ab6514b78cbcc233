"""The GPU page's price block is its hero, measured in real Chromium on the live server with the launch
content: at 375×667 and 1280×800, in every language, the price and the signup action (the one primary
label, with the GPU preselected) are inside the first screen; the signup page shows the GPU chosen. The
pages are saved as screenshots under test-results/ (ignored by git), light and dark."""
from pathlib import Path

import pytest

from catalog.models import GPU

from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..page_judges import AXE, axe_context, axe_problems, axe_violations, box_in_first_screen, rules_for

pytestmark = pytest.mark.browser

PROJECT_DIR = Path(__file__).resolve().parent.parent.parent
SCREENSHOTS = PROJECT_DIR / "test-results"
VIEWPORTS = {"phone": {"width": 375, "height": 667}, "desktop": {"width": 1280, "height": 800}}
PRIMARY_LABEL = {"en": "Create your account", "es": "Cree su cuenta", "pt": "Crie a sua conta", "de": "Konto erstellen"}
# The GPU with the longest name: the longest heading, the deepest price block.
SLUGS = ["h100-sxm", "rtx-pro-6000-blackwell"]


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_price_and_the_signup_action_are_in_the_first_screen(live_server, live_launch_content, browser, size):
    viewport = VIEWPORTS[size]
    SCREENSHOTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    problems = []
    try:
        for slug in SLUGS:
            gpu = GPU.objects.get(slug=slug)
            for language in LANGUAGES:
                page.goto(live_server.url + gpu.get_absolute_url(language))
                price = page.locator("section.live-price .price")
                action = page.locator("section.live-price a.signup-action")
                if action.inner_text().strip() != PRIMARY_LABEL[language]:
                    problems.append((slug, language, "label", action.inner_text()))
                expected = f"{url_in(language, 'signups:signup')}?gpu={slug}&via=gpu-page"
                if action.get_attribute("href") != expected:
                    problems.append((slug, language, "href", action.get_attribute("href")))
                for name, locator in (("price", price), ("signup action", action)):
                    inside, box = box_in_first_screen(locator, viewport)
                    if not inside:
                        problems.append((slug, language, name, box))
                if slug == SLUGS[0]:
                    for scheme in ("light", "dark"):
                        page.emulate_media(color_scheme=scheme)
                        page.screenshot(path=str(SCREENSHOTS / f"gpu-page-{language}-{size}-{scheme}.png"))
                    page.emulate_media(color_scheme="light")
        # The action's link lands on the signup form with the GPU shown as chosen.
        page.goto(live_server.url + GPU.objects.get(slug="h100-sxm").get_absolute_url("de"))
        page.locator("section.live-price a.signup-action").click()
        page.wait_for_load_state()
        if "H100 SXM" not in page.locator(".chosen-gpu").inner_text():
            problems.append(("signup", "de", "chosen GPU", page.locator(".chosen-gpu").inner_text()))
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=str(SCREENSHOTS / f"signup-chosen-gpu-de-{size}-{scheme}.png"), full_page=True)
        page.goto(live_server.url + url_in("en", "signups:signup") + "?gpu=h100-sxm&via=calculator&count=8")
        page.evaluate("() => { document.querySelector('form.public-form').noValidate = true; }")
        page.locator("form.public-form button[type=submit]").click()
        page.wait_for_load_state()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=str(SCREENSHOTS / f"signup-errors-en-{size}-{scheme}.png"), full_page=True)
        # Each checkbox keeps its label beside it, errors shown or not.
        for name in ("business", "consent"):
            box = page.locator(f"#id_{name}").bounding_box()
            label = page.locator(f"label[for=id_{name}]").bounding_box()
            if not (label["x"] > box["x"] and abs(label["y"] - box["y"]) < 24):
                problems.append(("signup", "en", f"{name} label apart", box, label))
    finally:
        context.close()
    assert problems == []


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is installed by `make test` (npm ci)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_price_block_and_the_chosen_gpu_pass_axe(live_server, live_launch_content, browser, scheme):
    context = axe_context(browser, color_scheme=scheme, viewport=VIEWPORTS["phone"])
    page = context.new_page()
    problems = []
    try:
        for language in ("de", "en"):
            gpu_path = GPU.objects.get(slug="h100-sxm").get_absolute_url(language)
            signup_path = url_in(language, "signups:signup") + "?gpu=h100-sxm&via=gpu-page&count=8"
            for path in (gpu_path, signup_path):
                page.goto(live_server.url + path)
                problems += axe_problems(path, axe_violations(page, rules=rules_for(scheme)))
            page.evaluate("() => { document.querySelector('form.public-form').noValidate = true; }")
            page.locator("form.public-form button[type=submit]").click()
            page.wait_for_load_state()
            problems += axe_problems(f"{signup_path} (errors)", axe_violations(page, rules=rules_for(scheme)))
    finally:
        context.close()
    assert problems == []
