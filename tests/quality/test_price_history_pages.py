"""The pages price history adds to, with a history to draw (the launch content has one price per GPU, so the
sitemap-wide gates see no chart): a GPU page's step chart, with a withdrawn offer and many steps, and the
catalogue sorted by the 7-day change. axe in light and dark on a phone and a desktop, and the Nu HTML Checker."""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from caching.content_version import content_changed
from catalog.models import GPU, PricePoint

from ..localized_urls import url_in
from ..page_judges import VIEWPORTS, axe_context, axe_problems_in_each_scheme, vnu_errors

pytestmark = [pytest.mark.quality, pytest.mark.browser]


def with_history():
    """H100 SXM: prices over 120 days, an offer withdrawn for five days; B200: a 7-day change. The paths to check."""
    now = timezone.now()
    steps = [(120, "3.10"), (80, "2.95"), (61, "3.05"), (45, None), (40, "2.70"), (25, "2.79"), (10, "2.60"),
             (3, "2.49")]
    for slug, points in (("h100-sxm", steps), ("b200", [(20, "8.20"), (2, "7.99")])):
        gpu = GPU.objects.get(slug=slug)
        PricePoint.objects.filter(gpu=gpu).delete()
        PricePoint.objects.bulk_create(
            PricePoint(gpu=gpu, usd_per_hour=price and Decimal(price), time=now - timedelta(days=days), source="import")
            for days, price in points)
        GPU.objects.filter(pk=gpu.pk).update(price_usd_per_hour=Decimal(points[-1][1]),
                                             price_updated_at=now - timedelta(days=points[-1][0]))
    content_changed()
    gpu_pages = [url_in(language, "catalog:gpu_detail", slug=slug)
                 for language in ("es", "de") for slug in ("h100-sxm", "b200")]
    return gpu_pages + [url_in(language, "catalog:gpu_list", {"sort": "change-7d"}) for language in ("pt", "en")]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_axe_violation_on_pages_with_a_price_history(live_server, live_launch_content, browser, viewport):
    paths = with_history()
    context = axe_context(browser, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    problems, charts = [], 0
    try:
        for path in paths:
            assert page.goto(live_server.url + path).status == 200, path
            # The chart's data is in a closed <details>, which axe skips: open it.
            page.evaluate("() => document.querySelectorAll('details.chart-data').forEach(d => d.open = true)")
            problems += axe_problems_in_each_scheme(page, path)
            charts += page.evaluate("() => document.querySelectorAll('.chart-price-history svg').length")
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
    assert charts == 4  # each GPU page drew its history


def test_pages_with_a_price_history_are_valid_html(client, live_launch_content, tmp_path):
    bodies = {}
    for path in with_history():
        response = client.get(path)
        assert response.status_code == 200, path
        bodies[path] = response.content.decode()
        assert ("chart-step-line" in bodies[path]) == ("sort=" not in path)
    assert vnu_errors(bodies, tmp_path, timeout=300) == []
