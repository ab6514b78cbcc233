"""Whole-page cache: keyed by language, path, content version and UTC day; ETag and 304; a fresh CSP nonce on
every response; every editor change seen at once, and a new day too."""
import gzip
import json
import re
import urllib.request
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from csp.middleware import CSPMiddleware
from django.db import connection
from django.http import HttpResponse
from django.template import engines
from django.test.utils import CaptureQueriesContext

from caching.pages import cached_page
from catalog.models import GPU
from workloads.models import Workload

from ..deck import squash
from ..html import Page, assert_page_heading
from ..localized_urls import url_in
from ..security_headers import assert_security_headers
from ..servers import gunicorn_server

NONCE_IN_HEADER = re.compile(r"'nonce-([^']+)'")


def training_url(language="es"):
    return Workload.objects.get(key="llm-training").get_absolute_url(language)


def test_second_request_is_served_from_the_cache_with_no_query(client, launch_content):
    url = training_url()
    first = client.get(url)
    with CaptureQueriesContext(connection) as queries:
        second = client.get(url)
    assert second.status_code == 200
    assert len(queries) == 0
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]


def test_languages_and_paths_are_cached_apart(client, launch_content):
    es, de = client.get(training_url("es")), client.get(training_url("de"))
    assert Page(es.content.decode()).lang == "es" and Page(de.content.decode()).lang == "de"
    assert es["ETag"] != de["ETag"]


def test_conditional_request_gets_304(client, launch_content):
    url = training_url()
    etag = client.get(url)["ETag"]
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response.content == b""
    # What a 304 keeps (RFC 9110 15.4.5): a cache revalidating its copy gets the same policy.
    assert response["ETag"] == etag
    assert response["Cache-Control"] == client.get(url)["Cache-Control"]
    assert "Accept-Encoding" in response["Vary"]
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"something-else", W/{etag}').status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200


def test_cache_control_lets_a_cdn_keep_and_revalidate(client, launch_content):
    cache_control = client.get(training_url())["Cache-Control"]
    assert "public" in cache_control
    assert re.search(r"s-maxage=\d+", cache_control)
    assert re.search(r"stale-while-revalidate=\d+", cache_control)


def test_a_price_change_is_seen_at_once_in_every_language(client, launch_content):
    for language in ("es", "de"):
        client.get(training_url(language))
    h100 = GPU.objects.get(slug="h100-sxm")
    h100.price_usd_per_hour = Decimal("2.50")
    h100.save()
    assert "desde2,50US$" in squash(client.get(training_url("es")).content.decode())
    assert "ab2,50$" in squash(client.get(training_url("de")).content.decode())


def test_a_text_change_is_seen_at_once(client, launch_content):
    url = training_url()
    client.get(url)
    workload = Workload.objects.get(key="llm-training")
    workload.intro_es = "Una introducción nueva."
    workload.save()
    assert "Una introducción nueva." in client.get(url).content.decode()


def test_every_response_gets_a_fresh_nonce_even_from_the_cache(client, launch_content, rf):
    """A page whose template uses the nonce, served three times: each response has its own nonce, in the header and
    the body alike (such a page is rendered for each response, never stored)."""
    template = engines["django"].from_string('<script nonce="{{ request.csp_nonce }}">1</script>')

    @cached_page
    def view(request):
        return HttpResponse(template.render({}, request))

    def serve():
        return CSPMiddleware(view)(rf.get("/es/nonce-probe/"))

    nonces = []
    for _ in range(3):
        response = serve()
        header_nonce = NONCE_IN_HEADER.search(response["Content-Security-Policy"]).group(1)
        body_nonce = re.search(r'nonce="([^"]+)"', response.content.decode()).group(1)
        assert header_nonce == body_nonce
        nonces.append(header_nonce)
    assert len(set(nonces)) == 3


def test_cached_pages_are_served_gzip_compressed_to_clients_that_accept_it(client, launch_content):
    url = training_url()
    plain = client.get(url)
    compressed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert compressed["Content-Encoding"] == "gzip"
    assert gzip.decompress(compressed.content) == plain.content
    assert len(compressed.content) < len(plain.content) / 3
    assert compressed["ETag"] != plain["ETag"]
    assert "Accept-Encoding" in compressed["Vary"]
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=compressed["ETag"])
    assert again.status_code == 304


def test_query_parameters_a_page_does_not_read_are_served_the_cached_page(client, launch_content):
    # A GPU's page (a render of it makes queries, so none means it came from the cache).
    url = url_in("es", "catalog:gpu_detail", slug="h100-sxm")
    first = client.get(url)
    for query in ("?utm_source=newsletter&utm_campaign=launch", "?cache-buster=83121", "?gpu=h100-sxm"):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url + query)
        assert len(queries) == 0, query
        assert response.content == first.content and response["ETag"] == first["ETag"]


def test_a_pages_own_query_parameters_each_get_their_page(client, launch_content):
    catalogue = url_in("es", "catalog:gpu_list")
    nvidia = client.get(catalogue + "?vendor=NVIDIA")
    amd = client.get(catalogue + "?vendor=AMD")
    assert nvidia.content != amd.content
    with CaptureQueriesContext(connection) as queries:
        tagged = client.get(catalogue + "?utm_source=ad&vendor=NVIDIA")
    assert len(queries) == 0 and tagged.content == nvidia.content
    # The links the site writes to the comparison: a workload's, and a GPU page's (its nearest alternatives).
    compare = url_in("es", "catalog:compare")
    one = client.get(compare + "?workload=llm-training")
    with CaptureQueriesContext(connection) as queries:
        same = client.get(compare + "?utm_source=ad&workload=llm-training")
    assert len(queries) == 0 and same.content == one.content
    link = next(link for link in Page(client.get(url_in("es", "catalog:gpu_detail", slug="h100-sxm")).content).links
                if link.startswith(compare + "?gpu="))
    first = client.get(link)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(link)
    assert len(queries) == 0 and again.content == first.content


PUBLIC_PAGES = [("workload", {"slug": "gpu-entrenamiento-llm"}), ("home", {}), ("catalog:gpu_list", {}),
                ("catalog:gpu_detail", {"slug": "h100-sxm"}), ("company:privacy", {})]


@pytest.mark.parametrize("method", ["put", "patch", "delete", "trace"])
@pytest.mark.parametrize("view_name, kwargs", PUBLIC_PAGES)
def test_a_public_page_refuses_other_methods_with_a_localized_405(client, launch_content, method, view_name,
                                                                  kwargs):
    response = getattr(client, method)(url_in("es", view_name, **kwargs))
    assert response.status_code == 405
    assert set(response["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    assert_page_heading(response, "es", "This page cannot do that")
    assert_security_headers(response)


@pytest.mark.parametrize("view_name, kwargs", PUBLIC_PAGES)
def test_options_says_what_a_public_page_allows_and_sends_no_page(client, launch_content, view_name, kwargs):
    response = client.options(url_in("es", view_name, **kwargs))
    assert response.status_code == 200
    assert set(response["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    assert response.content == b""


# Debian's faketime package (scripts/install-test-system-packages.sh): a server's clock, moved while it runs.
LIBFAKETIME = next(Path("/usr/lib").glob("*/faketime/libfaketime.so.1"), None)


@pytest.mark.multiprocess
def test_a_page_cached_one_day_is_made_again_the_next_with_no_content_change(live_launch_content, tmp_path):
    """gunicorn with the database cache and pages kept ten days: the price history's window (the last 365 days)
    moves a day when the server's clock does, though no content changed; both days' files are served from the
    cache once rendered."""
    assert LIBFAKETIME, "libfaketime is missing: scripts/install-test-system-packages.sh installs it"
    clock = tmp_path / "clock"  # read at every call of the clock
    clock.write_text("+0d\n")
    with gunicorn_server(LD_PRELOAD=str(LIBFAKETIME), FAKETIME_TIMESTAMP_FILE=str(clock), FAKETIME_NO_CACHE="1",
                         PAGE_CACHE_SECONDS=str(10 * 86400)) as server:

        def window_start():
            with urllib.request.urlopen(f"{server}/data/gpus/h100-sxm/prices.json", timeout=30) as response:
                return date.fromisoformat(json.load(response)["window"]["since"][:10]), response.headers["ETag"]

        today, etag = window_start()
        assert window_start() == (today, etag)  # cached
        clock.write_text("+1d\n")
        tomorrow, etag_tomorrow = window_start()
        assert tomorrow == today + timedelta(days=1) and etag_tomorrow != etag
        assert window_start() == (tomorrow, etag_tomorrow)
