"""The cost estimator's answers (the calculator's training and inference tabs, which the sitemap-wide gates do not
reach: a result needs a query string): axe in light and dark on a phone and a desktop with the chart's data
open, the Nu HTML Checker, and the 40 KB budget for each page with its assets, in every language."""
import pytest

from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..page_judges import VIEWPORTS, axe_walk, bodies_of, vnu_errors
from .first_visit import first_visits_of, over_budget

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
    charts = []

    def open_the_chart_data(page):
        # The chart's data is in a closed <details>, which axe skips: open it.
        page.evaluate("() => document.querySelectorAll('details.chart-data').forEach(d => d.open = true)")
        charts.append(page.evaluate("() => document.querySelectorAll('figure.chart svg').length"))

    problems = axe_walk(browser, live_server.url, estimator_paths(["es", "de"]), viewport, open_the_chart_data)
    assert problems == [], "\n".join(problems)
    assert sum(charts) == 2 * 4  # each language's four results drew their chart


def test_the_estimator_is_valid_html(client, launch_content, tmp_path):
    assert vnu_errors(bodies_of(client, estimator_paths()), tmp_path, timeout=300) == []


def test_every_estimator_page_stays_within_the_budget(production_server, browser):
    visits = first_visits_of(browser, production_server, estimator_paths())
    assert {path: over_budget(transferred) for path, transferred in visits.items() if over_budget(transferred)} == {}
    totals = {path: sum(transferred.values()) for path, transferred in visits.items()}
    print("heaviest estimator pages:", sorted(totals.items(), key=lambda item: item[1])[-3:])
    assert len(totals) == len(QUERIES) * len(LANGUAGES)
