"""In real Chromium at a phone's width: the table, opened from its fold, scrolls inside its region, the page
does not, and the language switcher lands on the same page in another language."""
import pytest

from workloads.models import Workload

pytestmark = pytest.mark.browser


@pytest.fixture
def phone_page(browser):
    context = browser.new_context(viewport={"width": 375, "height": 800}, device_scale_factor=1)
    page = context.new_page()
    yield page
    context.close()


def test_table_scrolls_sideways_inside_its_region_and_the_page_does_not(live_server, live_launch_content, phone_page):
    workload = Workload.objects.get(key="llm-training")
    phone_page.goto(live_server.url + workload.get_absolute_url("es"))
    # On a phone the table is folded under the GPU cards, one tap away.
    phone_page.locator("details.table-fold > summary").click()
    region = phone_page.locator(".table-fold .table-scroll")
    sizes = region.evaluate("el => ({scroll: el.scrollWidth, client: el.clientWidth})")
    assert sizes["scroll"] > sizes["client"], sizes
    region.evaluate("el => el.scrollBy(200, 0)")
    assert region.evaluate("el => el.scrollLeft") > 0
    page_width = phone_page.evaluate("() => document.documentElement.scrollWidth")
    assert page_width <= 375
    phone_page.mouse.wheel(400, 0)
    assert phone_page.evaluate("() => window.scrollX") == 0


def test_language_switcher_lands_on_the_same_page_in_portuguese(live_server, live_launch_content, phone_page):
    workload = Workload.objects.get(key="fine-tuning")
    phone_page.goto(live_server.url + workload.get_absolute_url("es"))
    switcher = phone_page.locator("details.language-switcher")
    # The switcher is a closed <details>: its links show once its summary is clicked.
    assert not switcher.get_by_role("link", name="Português").is_visible()
    switcher.locator("summary").click()
    switcher.get_by_role("link", name="Português").click()
    phone_page.wait_for_load_state()
    assert phone_page.url == live_server.url + workload.get_absolute_url("pt")
    assert phone_page.locator("html").get_attribute("lang") == "pt"
    assert phone_page.locator("h1").inner_text() == workload.title_pt
