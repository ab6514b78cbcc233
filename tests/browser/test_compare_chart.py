"""In real Chromium: a visitor compares three GPUs through the form and sees the charts, each an image with
its accessible name, with no Content Security Policy violation; the page is saved as a screenshot."""
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import expect

from ..localized_urls import url_in

pytestmark = pytest.mark.browser
SCREENSHOT = Path(__file__).resolve().parents[2] / "test-results" / "compare-three-gpus.png"


def test_compare_three_gpus_through_the_form_and_see_the_charts(live_server, live_launch_content, page):
    console_errors = []
    page.on("console", lambda message: console_errors.append(message.text) if message.type == "error" else None)
    compare_path = url_in("en", "catalog:compare")
    page.goto(live_server.url + compare_path)
    for name in ("H200", "H100 SXM", "A100 SXM"):
        page.get_by_role("checkbox", name=name, exact=True).check()
    page.get_by_role("button", name="Compare", exact=True).click()
    page.wait_for_load_state()

    address = urlsplit(page.url)
    assert address.path == compare_path
    assert sorted(value for key, value in parse_qsl(address.query) if key == "gpu") == ["a100-sxm", "h100-sxm", "h200"]
    expect(page.locator("h1")).to_have_text("Compare A100 SXM, H100 SXM and H200")

    for title in ("Price per GPU-hour, US dollars", "Memory per GPU, GB", "Dense BF16 TFLOPS per US dollar per hour",
                  "Largest trainable model, billions of parameters per US dollar per hour"):
        chart = page.get_by_role("img", name=re.compile("^" + re.escape(title)))
        expect(chart).to_be_visible()
        expect(chart).to_have_accessible_name(re.compile(r"A100 SXM: .+; H100 SXM: .+; H200: .+"))
        box = chart.bounding_box()
        assert box["width"] > 200 and box["height"] > 50, box
    price_chart = page.get_by_role("img", name=re.compile("^Price per GPU-hour"))
    assert price_chart.locator("rect").count() == 3
    expect(page.get_by_role("region", name="The charts' figures")).to_be_visible()
    assert console_errors == []

    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)
    assert SCREENSHOT.stat().st_size > 10_000
