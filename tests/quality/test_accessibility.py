"""axe-core, injected by Playwright into real Chromium, reports no violation on any sitemap page in any
language, on a desktop and on a 375 px wide phone, in the light and the dark colour scheme (both judged on each page
as loaded, switching the scheme the page is shown in). On the same walk, in both widths, every page's footer shows
at least five links, among them the catalogue, the calculator, the comparison and the two legal pages (issue 24):
one page load serves both."""
import pytest

from workloads.models import Workload

from ..localized_urls import url_in
from ..page_judges import COLOR_SCHEMES, VIEWPORTS, axe_context, axe_problems_in_each_scheme
from ..sitemap import judged_paths
from .conftest import assert_sitemap_is_complete, sitemap_paths

pytestmark = [pytest.mark.quality, pytest.mark.browser]


FOOTER_LINKS = """() => [...document.querySelectorAll('footer.site-footer a[href]')]
  .filter(a => a.getClientRects().length > 0).map(a => a.getAttribute('href'))"""
FOOTER_VIEWS = ("catalog:gpu_list", "estimator:calculator", "catalog:compare", "company:privacy",
                "company:legal_notice")


def footer_problems(page, path):
    """What the footer of the page shown lacks: a link it must show, or five links in all."""
    links = page.evaluate(FOOTER_LINKS)
    language = path.split("/")[1]
    problems = [f"{path}: the footer does not link {view_name}" for view_name in FOOTER_VIEWS
                if url_in(language, view_name) not in links]
    if len(links) < 5:
        problems.append(f"{path}: {len(links)} footer links: {links}")
    return problems


@pytest.mark.long
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_axe_violation_and_a_full_footer_on_any_page(live_server, live_launch_content, browser, client,
                                                        sitemap_pages, viewport):
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
            problems += footer_problems(page, path)
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
    schemes = " and ".join(COLOR_SCHEMES)
    print(f"axe and footers, {viewport}, {schemes}: {checked} pages checked, {len(problems)} problems")
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
