"""A workload page with all its assets: at most 40 KB transferred, compressed, from this host only, and
every function works without JavaScript (pages carry no script but JSON-LD data)."""
import re
from urllib.parse import urlsplit

import pytest

from workloads.models import Workload

from .conftest import sitemap_paths

pytestmark = [pytest.mark.quality, pytest.mark.browser]
BUDGET_BYTES = 40 * 1024


def test_workload_page_weight_and_hosts(production_server, browser):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    responses = []
    page.on("requestfinished", lambda request: responses.append(request))
    url = production_server + Workload.objects.get(key="llm-training").get_absolute_url("es")
    page.goto(url, wait_until="networkidle")
    transferred = {}
    for request in responses:
        sizes = request.sizes()
        transferred[request.url] = sizes["responseBodySize"] + sizes["responseHeadersSize"]
    context.close()
    total = sum(transferred.values())
    print(f"workload page: {total} bytes in {len(transferred)} requests: {transferred}")
    assert {urlsplit(u).netloc for u in transferred} == {urlsplit(production_server).netloc}
    assert total <= BUDGET_BYTES
    assert any(u.endswith(".css") for u in transferred)


def test_no_page_needs_javascript(client, launch_content):
    for path in sitemap_paths(client):
        html = client.get(path).content.decode()
        scripts = re.findall(r"<script\b[^>]*>", html)
        assert all('type="application/ld+json"' in tag for tag in scripts), (path, scripts)
