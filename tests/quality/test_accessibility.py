"""axe-core, injected by Playwright into real Chromium, reports no violation on any sitemap page in any
language, on a desktop and on a 375 px wide phone, in the light and the dark colour scheme (both judged on each page
as loaded, switching the scheme the page is shown in)."""
import pytest

from workloads.models import Workload

from ..page_judges import COLOR_SCHEMES, VIEWPORTS, axe_context, axe_problems_in_each_scheme
from ..sitemap import judged_paths
from .conftest import assert_sitemap_is_complete, sitemap_paths

pytestmark = [pytest.mark.quality, pytest.mark.browser]


@pytest.mark.long
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_axe_violation_on_any_page(live_server, live_launch_content, browser, client, sitemap_pages,
                                     viewport):
    paths = sitemap_paths(client)
    # Every page type (each workload, the GPU pages, the fixed and legal pages) in every language.
    assert_sitemap_is_complete(paths)
    paths = judged_paths(sitemap_pages, paths)
    # The page's CSP would block the injected script; the policy itself is tested elsewhere.
    context = axe_context(browser, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    problems, checked, headers_opened = [], 0, set()
    try:
        for path in paths:
            response = page.goto(live_server.url + path)
            if response.status != 200:
                problems.append(f"{path}: status {response.status}")
                continue
            checked += 1
            problems += axe_problems_in_each_scheme(page, path)
            language = path.split("/")[1]
            if language not in headers_opened:
                # The header's menus are closed <details>, which axe skips: once per language, open them
                # and check the header alone (open panels may cover the page, hiding its colours from axe).
                headers_opened.add(language)
                page.evaluate("() => document.querySelectorAll('header details').forEach(d => d.open = true)")
                problems += axe_problems_in_each_scheme(page, f"{path}, menus open", "header")
    finally:
        context.close()
    print(f"axe, {viewport}, {' and '.join(COLOR_SCHEMES)}: {checked} pages checked, {len(problems)} problems")
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)
    assert checked == len(paths) and len(headers_opened) == 4


def test_the_skip_link_is_first_visible_on_focus_and_moves_to_the_content(live_server, live_launch_content, page):
    page.goto(live_server.url + Workload.objects.get(key="llm-training").get_absolute_url("es"))
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.getAttribute('href')") == "#main"
    assert page.evaluate("() => getComputedStyle(document.activeElement).left") == "0px"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "main"


@pytest.mark.parametrize("workload_key", ["llm-training", "fine-tuning"])
def test_keyboard_reaches_every_control_with_a_visible_focus(live_server, live_launch_content, page, workload_key):
    page.goto(live_server.url + Workload.objects.get(key=workload_key).get_absolute_url("de"))
    # The controls a visitor can see: a closed <details> menu's summary, not its links (checkVisibility is
    # false inside a closed <details>, whose content Chromium lays out but skips).
    page.evaluate(
        "() => window.stops = [...document.querySelectorAll("
        "'a[href], button, input, select, textarea, summary, [tabindex]')]"
        ".filter(el => el.tabIndex >= 0 && el.getClientRects().length && el.checkVisibility())"
    )
    focusable = page.evaluate("() => window.stops.length")
    reached = set()
    for _ in range(focusable):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "() => ({index: window.stops.indexOf(document.activeElement),"
            " html: document.activeElement.outerHTML.slice(0, 120),"
            " outline: getComputedStyle(document.activeElement).outlineStyle})"
        )
        assert focused["index"] >= 0, f"focus left the controls after {len(reached)} of {focusable} stops"
        assert focused["outline"] != "none", f"focus is not visible on {focused['html']}"
        reached.add(focused["index"])
    assert reached == set(range(focusable))
