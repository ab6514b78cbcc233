"""axe-core, injected by Playwright into real Chromium, reports no violation on any sitemap page in any
language, on a desktop and on a 375 px wide phone."""
import pytest

from workloads.models import Workload

from .conftest import NODE_MODULES, sitemap_paths

pytestmark = [pytest.mark.quality, pytest.mark.browser]
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 375, "height": 800}}


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_axe_violation_on_any_page(live_server, live_launch_content, browser, client, viewport):
    paths = sitemap_paths(client)
    # The page's CSP would block the injected script; the policy itself is tested elsewhere.
    context = browser.new_context(viewport=VIEWPORTS[viewport], bypass_csp=True)
    page = context.new_page()
    problems = []
    try:
        for path in paths:
            page.goto(live_server.url + path)
            page.add_script_tag(path=str(AXE))
            violations = page.evaluate(
                "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))"
            )
            problems += [f"{path}: {v['id']} ({v['impact']}) at {v['nodes']}" for v in violations]
    finally:
        context.close()
    assert problems == []
    assert len(paths) >= 28


def test_keyboard_users_reach_the_content_and_every_link(live_server, live_launch_content, page):
    page.goto(live_server.url + Workload.objects.get(key="llm-training").get_absolute_url("es"))
    page.keyboard.press("Tab")
    skip = page.evaluate("() => ({text: document.activeElement.textContent, href: document.activeElement.getAttribute('href')})")
    assert skip["href"] == "#main"
    assert page.evaluate("() => getComputedStyle(document.activeElement).left") == "0px"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "main"
    # Every link and control can be reached with Tab, and shows where the focus is.
    focusable = page.evaluate("() => document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]:not([tabindex=\"-1\"])').length")
    reached = set()
    for _ in range(focusable):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("() => document.activeElement.outerHTML.slice(0, 80)"))
        style = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert style != "none", "focus is not visible"
    assert len(reached) >= focusable - 1
