"""The cost estimator's answers (the calculator's training and inference tabs, which the sitemap-wide gates do not
reach: a result needs a query string): axe in light and dark on a phone and a desktop with the chart's data
open, the Nu HTML Checker, and the 40 KB budget for each page with its assets, in every language."""
import json
import subprocess
import time
from urllib.parse import urljoin, urlsplit

import pytest

from ..localized_urls import url_in
from .conftest import NODE_MODULES
from .test_page_weight import BUDGET_BYTES, icon_bytes

pytestmark = [pytest.mark.quality, pytest.mark.browser]
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
VNU = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 375, "height": 800}}
LANGUAGES = ["es", "pt", "de", "en"]
# The heaviest answers: every GPU count up to the largest cluster (the most marks and chart rows), a large
# batch; the empty forms; a form with errors.
QUERIES = [
    {"answer": "training", "size": "405", "method": "full_adam", "tokens": "15000", "cluster": "16384"},
    {"answer": "training", "preset": "llama-3-1-8b", "method": "qlora_4bit", "tokens": "1", "mfu": "30",
     "cluster": "8"},
    {"answer": "inference", "size": "70", "method": "weights_8bit", "shape": "llama-3-1-70b", "context": "8192",
     "batch": "16"},
    {"answer": "inference", "size": "8", "method": "weights_16bit", "context": "128", "batch": "1024"},
    {"answer": "training"}, {"answer": "inference"},
    {"answer": "training", "size": "-1", "method": "full_adam", "mfu": "99"},
]


def estimator_paths(languages=LANGUAGES):
    return [url_in(language, "catalog:calculator", query) for language in languages for query in QUERIES]


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_axe_violation_on_the_estimator(live_server, live_launch_content, browser, viewport, color_scheme):
    context = browser.new_context(viewport=VIEWPORTS[viewport], color_scheme=color_scheme, bypass_csp=True)
    page = context.new_page()
    problems, charts = [], 0
    try:
        for path in estimator_paths(["es", "de"]):
            assert page.goto(live_server.url + path).status == 200, path
            # The chart's data is in a closed <details>, which axe skips: open it.
            page.evaluate("() => document.querySelectorAll('details.chart-data').forEach(d => d.open = true)")
            page.add_script_tag(path=str(AXE))
            violations = page.evaluate(
                "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))"
            )
            problems += [f"{path}: {v['id']} ({v['impact']}) at {v['nodes']}" for v in violations]
            charts += page.evaluate("() => document.querySelectorAll('figure.chart svg').length")
            # The tables scroll inside their region; the page itself never scrolls sideways.
            width = page.evaluate("() => document.documentElement.scrollWidth")
            if width > VIEWPORTS[viewport]["width"]:
                problems.append(f"{path}: {width} px wide")
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
    assert charts == 2 * 4  # each language's four results drew their chart


def test_the_estimator_is_valid_html(client, launch_content, tmp_path):
    files = {}
    for number, path in enumerate(estimator_paths()):
        response = client.get(path)
        assert response.status_code == 200, path
        target = tmp_path / f"page-{number:03d}.html"
        target.write_text(response.content.decode(), encoding="utf-8")
        files[target.as_uri()] = path
    result = subprocess.run(
        ["java", "-jar", str(VNU), "--errors-only", "--format", "json", *map(str, sorted(tmp_path.glob("*.html")))],
        check=False, capture_output=True, text=True, timeout=300,
    )
    messages = json.loads(result.stderr or result.stdout)["messages"]
    assert [f"{files.get(m.get('url'), m.get('url'))}: {m.get('message')}" for m in messages] == []


def test_every_estimator_page_stays_within_the_budget(production_server, browser):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    finished, totals, icon_sizes = [], {}, {}

    def record(request):
        finished.append(request)

    page.on("requestfinished", record)
    try:
        for path in estimator_paths():
            finished.clear()
            url = production_server + path
            assert page.goto(url, wait_until="load").status == 200, path
            wanted = set(page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")) | {url}
            deadline = time.monotonic() + 5
            while not wanted <= {request.url for request in finished} and time.monotonic() < deadline:
                page.wait_for_timeout(10)
            transferred = {}
            for request in finished:
                sizes = request.sizes()
                transferred[request.url] = sizes["responseBodySize"] + sizes["responseHeadersSize"]
            for href in page.eval_on_selector_all("link[rel~=icon]", "links => links.map(l => l.href)"):
                transferred.setdefault(urljoin(url, href), icon_bytes(urljoin(url, href), icon_sizes))
            assert {urlsplit(u).netloc for u in transferred} == {urlsplit(production_server).netloc}
            totals[path] = sum(transferred.values())
    finally:
        context.close()
    print("heaviest estimator pages:", sorted(totals.items(), key=lambda item: item[1])[-3:])
    assert len(totals) == len(QUERIES) * len(LANGUAGES)
    assert all(total <= BUDGET_BYTES for total in totals.values()), totals
