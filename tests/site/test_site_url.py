"""One origin: canonical, hreflang, sitemap, robots.txt, social image and JSON-LD URLs are built on SITE_URL,
whatever Host or X-Forwarded-Proto a client sends, so a forged one never reaches the next visitor through
the page cache; and X-Forwarded-Proto is believed only from a configured proxy. Real gunicorn."""
import json

import pytest

from catalog.models import GPU
from workloads.models import Workload

from ..html import Head
from ..http_visitors import Browserless
from ..localized_urls import url_in
from ..servers import SITE_URL, collect_static, gunicorn_server
from ..sitemap import parse_sitemap

pytestmark = pytest.mark.multiprocess

FORGED = {"Host": "127.0.0.1:6666", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "elsewhere.example"}


def json_urls(value):
    if isinstance(value, dict):
        return [url for item in value.values() for url in json_urls(item)]
    if isinstance(value, list):
        return [url for item in value for url in json_urls(item)]
    return [value] if isinstance(value, str) and value.startswith(("http://", "https://")) else []


def absolute_urls(path, body):
    """Every absolute URL of ours a page, the sitemap or robots.txt gives (schema.org's names aside)."""
    if path == "/robots.txt":
        urls = [line.split(": ", 1)[1] for line in body.splitlines() if line.startswith("Sitemap:")]
    elif path == "/sitemap.xml":
        urls = [url for loc, alternates in parse_sitemap(body).items() for url in [loc, *alternates.values()]]
    else:
        head = Head(body)
        urls = [link["href"] for link in head.links if link.get("rel") in ("canonical", "alternate")]
        urls += [head.meta[name] for name in ("og:url", "og:image", "twitter:image") if name in head.meta]
        urls += [url for text in head.json_ld for url in json_urls(json.loads(text))]
    urls = [url for url in urls if not url.startswith("https://schema.org")]
    assert urls, path
    return urls


@pytest.fixture
def server(live_launch_content):
    collect_static()
    with gunicorn_server() as url:
        yield url


def test_a_forged_host_or_scheme_never_reaches_a_page_or_the_next_visitor(server):
    paths = [Workload.objects.get(key="llm-training").get_absolute_url("es"),
             GPU.objects.get(slug="h100-sxm").get_absolute_url("es"), url_in("es", "home"),
             "/sitemap.xml", "/robots.txt"]
    for path in paths:
        # The forged request comes first: were it cached with its origin, the plain one would get it.
        for headers in (FORGED, {}):
            status, _headers, body = Browserless(server).request("GET", path, headers=headers)
            assert status == 200, path
            assert "6666" not in body and "elsewhere.example" not in body, path
            for url in absolute_urls(path, body):
                assert url.startswith(SITE_URL + "/"), (path, url)


def test_x_forwarded_proto_is_believed_only_from_a_configured_proxy(live_launch_content):
    collect_static()
    secure_only = "Strict-Transport-Security"  # sent on a request Django takes for HTTPS
    claim = {"X-Forwarded-Proto": "https"}
    with gunicorn_server() as direct:
        _status, headers, _body = Browserless(direct).request("GET", "/healthz", headers=claim)
        assert secure_only not in headers
    with gunicorn_server(FORWARDED_ALLOW_IPS="127.0.0.1") as behind_a_proxy:
        _status, headers, _body = Browserless(behind_a_proxy).request("GET", "/healthz", headers=claim)
        assert secure_only in headers
