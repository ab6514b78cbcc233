"""Every sitemap page, in every language, with all its assets: at most 40 KB transferred, compressed, from
this host only, as a browser downloads it on a first visit; and every function works without JavaScript
(pages carry no script but JSON-LD data)."""
import re
import time
import urllib.request
from urllib.parse import urljoin, urlsplit

import pytest

from .conftest import assert_sitemap_is_complete, sitemap_paths

pytestmark = [pytest.mark.quality, pytest.mark.browser]
BUDGET_BYTES = 40 * 1024
ACCEPT_ENCODING = "gzip, deflate, br, zstd"  # what Chromium sends


def icon_bytes(url, sizes):
    """Compressed bytes (headers and body) of a favicon, which a browser fetches on a first visit but
    headless Chromium does not: fetched once per URL (``sizes`` keeps them) with the browser's Accept-Encoding."""
    if url not in sizes:
        request = urllib.request.Request(url, headers={"Accept-Encoding": ACCEPT_ENCODING})
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()  # urllib does not decode: the bytes on the wire
            headers = sum(len(f"{name}: {value}\r\n") for name, value in response.getheaders())
        sizes[url] = len(body) + headers + len("HTTP/1.1 200 OK\r\n\r\n")
    return sizes[url]


def test_every_page_weight_and_hosts(production_server, browser, client):
    paths = sitemap_paths(client)
    assert_sitemap_is_complete(paths)
    host = urlsplit(production_server).netloc
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    # A first visit to each page: no HTTP or memory cache carries an asset from one page to the next.
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    finished = []

    def record(request):  # Playwright cannot take a built-in method such as finished.append as a handler
        finished.append(request)

    page.on("requestfinished", record)
    problems, totals, icon_sizes = [], {}, {}
    started = time.monotonic()
    try:
        for path in paths:
            finished.clear()
            url = production_server + path
            response = page.goto(url, wait_until="load")
            assert response.status == 200, path
            # Every resource the page fetched up to its load event has reported its size.
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
            total = totals[path] = sum(transferred.values())
            hosts = {urlsplit(u).netloc for u in transferred}
            if total > BUDGET_BYTES:
                problems.append(f"{path}: {total} bytes > {BUDGET_BYTES}: "
                                + ", ".join(f"{urlsplit(u).path} {size}" for u, size in transferred.items()))
            if hosts != {host}:
                problems.append(f"{path}: assets from {sorted(hosts)}")
            if not any(urlsplit(u).path.endswith(".css") for u in transferred):
                problems.append(f"{path}: no stylesheet downloaded: {sorted(transferred)}")
    finally:
        context.close()
    elapsed = time.monotonic() - started
    heaviest = sorted(totals.items(), key=lambda item: item[1])[-3:]
    print(f"{len(totals)} pages in {elapsed:.0f} s; heaviest: {heaviest}")
    assert len(totals) == len(paths) > 100
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)


def test_no_page_needs_javascript(client, launch_content):
    for path in sitemap_paths(client):
        html = client.get(path).content.decode()
        scripts = re.findall(r"<script\b[^>]*>", html)
        assert all('type="application/ld+json"' in tag for tag in scripts), (path, scripts)
