"""The cost estimator's answers (the calculator's training and inference tabs, which the sitemap-wide gates do not
reach: a result needs a query string): axe in light and dark on a phone and a desktop with the chart's data
open, the Nu HTML Checker, and the 40 KB budget for each page with its assets, in every language."""
from urllib.parse import urlsplit

import pytest

from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..page_judges import VIEWPORTS, axe_context, axe_problems_in_each_scheme, vnu_errors
from .first_visit import first_visits, over_budget

pytestmark = [pytest.mark.quality, pytest.mark.browser]
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
    return [url_in(language, "estimator:calculator", query) for language in languages for query in QUERIES]


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.long
def test_no_axe_violation_on_the_estimator(live_server, live_launch_content, browser, viewport):
    context = axe_context(browser, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    problems, charts = [], 0
    try:
        for path in estimator_paths(["es", "de"]):
            assert page.goto(live_server.url + path).status == 200, path
            # The chart's data is in a closed <details>, which axe skips: open it.
            page.evaluate("() => document.querySelectorAll('details.chart-data').forEach(d => d.open = true)")
            problems += axe_problems_in_each_scheme(page, path)
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
    bodies = {}
    for path in estimator_paths():
        response = client.get(path)
        assert response.status_code == 200, path
        bodies[path] = response.content.decode()
    assert vnu_errors(bodies, tmp_path, timeout=300) == []


def test_every_estimator_page_stays_within_the_budget(production_server, browser):
    totals = {}
    with first_visits(browser) as visit:
        for path in estimator_paths():
            transferred = visit(production_server + path)
            assert {urlsplit(u).netloc for u in transferred} == {urlsplit(production_server).netloc}
            totals[path] = sum(transferred.values())
            assert over_budget(transferred) == [], (path, transferred)
    print("heaviest estimator pages:", sorted(totals.items(), key=lambda item: item[1])[-3:])
    assert len(totals) == len(QUERIES) * len(LANGUAGES)
