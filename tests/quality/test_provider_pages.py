"""The provider page's answers and the application form (which the sitemap-wide gates do not reach: an estimate
needs a query string, the form is no sitemap page): axe in light and dark on a phone and a desktop, the Nu HTML
Checker, and the 40 KB budget for each page with its assets, in every language."""
from urllib.parse import urlsplit

import pytest

from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..page_judges import VIEWPORTS, axe_context, axe_problems_in_each_scheme, vnu_errors
from .first_visit import BUDGET_BYTES, first_visits

pytestmark = [pytest.mark.quality, pytest.mark.browser]
# The fullest estimate (every figure, a four-digit count), a preset, a GPU whose power is not asked, a form with
# errors; and the application, empty and pre-filled from an estimate.
ESTIMATES = [
    {"gpu": "b300", "count": "4096", "utilization": "65", "electricity": "0.25", "pue": "1.4"},
    {"gpu": "h100-sxm", "count": "8"},
    {"gpu": "rtx-4090", "count": "2", "utilization": "30"},
    {"gpu": "h100-sxm", "count": "0", "utilization": "150", "pue": "abc"},
]
APPLICATIONS = [None, {"gpu": "h100-sxm", "count": "8"}]


def provider_paths(languages=LANGUAGES):
    return ([url_in(language, "providers:page", query) for language in languages for query in ESTIMATES]
            + [url_in(language, "providers:application", query) for language in languages for query in APPLICATIONS])


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_axe_violation_on_the_provider_pages(live_server, live_launch_content, browser, viewport):
    context = axe_context(browser, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    problems = []
    try:
        for path in provider_paths(["es", "de"]):
            assert page.goto(live_server.url + path).status == 200, path
            problems += axe_problems_in_each_scheme(page, path)
            # The offers' table scrolls inside its region; the page itself never scrolls sideways.
            width = page.evaluate("() => document.documentElement.scrollWidth")
            if width > VIEWPORTS[viewport]["width"]:
                problems.append(f"{path}: {width} px wide")
    finally:
        context.close()
    assert problems == [], "\n".join(problems)


def test_the_provider_pages_are_valid_html(client, launch_content, tmp_path):
    bodies = {}
    for path in provider_paths():
        response = client.get(path)
        assert response.status_code == 200, path
        bodies[path] = response.content.decode()
    assert vnu_errors(bodies, tmp_path, timeout=300) == []


def test_every_provider_page_stays_within_the_budget(production_server, browser):
    totals = {}
    with first_visits(browser) as visit:
        for path in provider_paths():
            transferred = visit(production_server + path)
            assert {urlsplit(u).netloc for u in transferred} == {urlsplit(production_server).netloc}
            totals[path] = sum(transferred.values())
    print("heaviest provider pages:", sorted(totals.items(), key=lambda item: item[1])[-3:])
    assert len(totals) == (len(ESTIMATES) + len(APPLICATIONS)) * len(LANGUAGES)
    assert all(total <= BUDGET_BYTES for total in totals.values()), totals
