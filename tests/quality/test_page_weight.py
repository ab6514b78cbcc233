"""Every page type in every language (its largest page: ``judged_paths``), with all its assets: at most 40 KB
transferred, compressed, plus at most 60 KB for the brand font (100 KB in all), from this host only, as a browser
downloads it on a first visit; and every function
works without JavaScript on every page (pages carry no script but JSON-LD data)."""
import re
import time
from urllib.parse import urlsplit

import pytest

from ..sitemap import judged_paths
from .conftest import assert_sitemap_is_complete, sitemap_paths
from .first_visit import first_visits, is_font, over_budget

pytestmark = [pytest.mark.quality, pytest.mark.browser]


def test_every_page_weight_and_hosts(production_server, browser, client, sitemap_pages):
    paths = sitemap_paths(client)
    assert_sitemap_is_complete(paths)
    paths = judged_paths(sitemap_pages, paths)
    host = urlsplit(production_server).netloc
    problems, totals = [], {}
    started = time.monotonic()
    with first_visits(browser) as visit:
        for path in paths:
            transferred = visit(production_server + path)
            totals[path] = sum(transferred.values())
            hosts = {urlsplit(u).netloc for u in transferred}
            if over_budget(transferred):
                problems.append(f"{path}: {over_budget(transferred)}: "
                                + ", ".join(f"{urlsplit(u).path} {size}" for u, size in transferred.items()))
            # Latin Extended is declared for the rare character, never needed by a page in these languages.
            if [u for u in transferred if is_font(u) and "latin-ext" in u]:
                problems.append(f"{path}: downloads the Latin Extended font")
            if hosts != {host}:
                problems.append(f"{path}: assets from {sorted(hosts)}")
            if not any(urlsplit(u).path.endswith(".css") for u in transferred):
                problems.append(f"{path}: no stylesheet downloaded: {sorted(transferred)}")
    elapsed = time.monotonic() - started
    heaviest = sorted(totals.items(), key=lambda item: item[1])[-3:]
    print(f"{len(totals)} pages in {elapsed:.0f} s; heaviest: {heaviest}")
    assert len(totals) == len(paths)
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)


def test_no_page_needs_javascript(client, launch_content):
    for path in sitemap_paths(client):
        html = client.get(path).content.decode()
        scripts = re.findall(r"<script\b[^>]*>", html)
        assert all('type="application/ld+json"' in tag for tag in scripts), (path, scripts)
