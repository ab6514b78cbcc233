"""The calculator lands on its answer: after the visitor submits a form (typed as they would, in their language's
number format), the first result row is inside the first screen, at 375×667 and 1280×800, in every language, for
the sizing, training and inference answers; the recommended configuration carries the signup action with its GPU
and GPU count. Screenshots go to test-results/ (ignored by git)."""
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..page_judges import box_in_first_screen

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parent.parent.parent / "test-results"
VIEWPORTS = {"phone": {"width": 375, "height": 667}, "desktop": {"width": 1280, "height": 800}}
# What a visitor types: fifteen thousand billion tokens as the language writes them.
FIFTEEN_THOUSAND = {"es": "15.000", "pt": "15.000", "de": "15.000", "en": "15,000"}
ANSWERS = {
    "fits": ({}, {"size": "70"}, "section.calculator-results table tbody tr th"),
    "training": ({"answer": "training"}, {"size": "70", "tokens": None}, "section.estimate-results table tbody tr th"),
    "inference": ({"answer": "inference"}, {"size": "70"}, "section.estimate-results table tbody tr th"),
}


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_after_submitting_the_first_result_is_in_the_first_screen(live_server, live_launch_content, browser, size):
    viewport = VIEWPORTS[size]
    SCREENSHOTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    problems = []
    try:
        for language in LANGUAGES:
            for answer, (query, typed, first_row) in ANSWERS.items():
                page.goto(live_server.url + url_in(language, "estimator:calculator", query))
                form = page.locator("form.calculator-form")
                for name, value in typed.items():
                    form.locator(f"[name={name}]").fill(value or FIFTEEN_THOUSAND[language])
                form.locator("button[type=submit]").click()
                page.wait_for_load_state()
                inside, box = box_in_first_screen(page.locator(first_row).first, viewport)
                if not inside:
                    problems.append((language, answer, box))
                if answer == "training":
                    # The tokens were read as fifteen thousand billion, whatever the language.
                    query_string = parse_qs(urlsplit(page.url).query)
                    if query_string.get("tokens") != [FIFTEEN_THOUSAND[language]] \
                            or query_string.get("nf") != [language]:
                        problems.append((language, "query", page.url))
                    action = page.locator("div.recommended a.signup-action")
                    href = action.get_attribute("href") or ""
                    inside, box = box_in_first_screen(action, viewport)
                    if "gpu=" not in href or "count=" not in href or not inside:
                        problems.append((language, "recommended action", href, box))
                page.screenshot(path=str(SCREENSHOTS / f"calculator-{answer}-{language}-{size}.png"))
    finally:
        context.close()
    assert problems == []
