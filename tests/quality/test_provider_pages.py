"""The provider page's answers and the application form (which the sitemap-wide gates do not reach: an estimate
needs a query string, the form is no sitemap page): axe in light and dark on a phone and a desktop, the Nu HTML
Checker, and the 40 KB budget for each page with its assets, in every language."""
import pytest

from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..page_judges import VIEWPORTS, axe_walk, bodies_of, vnu_errors
from .first_visit import BUDGET_BYTES, first_visits_of

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
    problems = axe_walk(browser, live_server.url, provider_paths(["es", "de"]), viewport)
    assert problems == [], "\n".join(problems)


def test_the_provider_pages_are_valid_html(client, launch_content, tmp_path):
    assert vnu_errors(bodies_of(client, provider_paths()), tmp_path, timeout=300) == []


def test_every_provider_page_stays_within_the_budget(production_server, browser):
    totals = {path: sum(transferred.values())
              for path, transferred in first_visits_of(browser, production_server, provider_paths()).items()}
    print("heaviest provider pages:", sorted(totals.items(), key=lambda item: item[1])[-3:])
    assert len(totals) == (len(ESTIMATES) + len(APPLICATIONS)) * len(LANGUAGES)
    assert all(total <= BUDGET_BYTES for total in totals.values()), totals
