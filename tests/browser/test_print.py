"""Printed, a workload page keeps its table whole: on an A4 page's printable width every column fits,
and the navigation and calls to action are left out."""
import pytest

from workloads.loading import workload_keys
from workloads.models import Workload

from ..sitemap import languages

pytestmark = pytest.mark.browser
# A4 (210 mm) less Chromium's default margins of 0.4 in on each side, at 96 CSS pixels per inch.
A4_PRINTABLE_WIDTH_PX = round((210 / 25.4 - 0.8) * 96)


def test_every_workload_table_prints_whole_on_a4(live_server, live_launch_content, browser):
    context = browser.new_context(viewport={"width": A4_PRINTABLE_WIDTH_PX, "height": 1100})
    page = context.new_page()
    page.emulate_media(media="print")
    problems, pages = [], 0
    try:
        for workload in Workload.objects.filter(is_published=True):
            for language in workload.page_languages():
                path = workload.get_absolute_url(language)
                page.goto(live_server.url + path)
                boxes = page.evaluate(
                    "() => [...document.querySelectorAll('.table-scroll')]"
                    ".map(box => [box.scrollWidth, box.clientWidth])"
                )
                pages += 1
                if not boxes:
                    problems.append(f"{path}: no table")
                problems += [f"{path}: table {scroll} px in {client} px" for scroll, client in boxes if scroll > client]
                hidden = page.evaluate(
                    "() => ['.site-nav', '.header-cta', '.cta'].map(s => [...document.querySelectorAll(s)]"
                    ".every(el => getComputedStyle(el).display === 'none'))"
                )
                if not all(hidden):
                    problems.append(f"{path}: navigation or calls to action printed")
    finally:
        context.close()
    # Every workload of the launch content, in each language.
    assert pages == len(workload_keys()) * len(languages())
    assert problems == []
