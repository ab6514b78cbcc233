"""HTTP details of the production server (gunicorn, production settings): HEAD answers as GET does without
the body, a wrong method on a page is a 405 (not the CSRF page), only fingerprinted static files are
cached for long, and social images are drawn once."""
import re

import pytest
from django.db import connection

from workloads.models import Workload

from ..html import Head
from ..http_visitors import Browserless
from ..localized_urls import url_in
from ..servers import collect_static, shared_gunicorn_server

pytestmark = pytest.mark.multiprocess


@pytest.fixture(scope="module")
def module_server(django_db_setup, django_db_blocker):
    collect_static()
    with shared_gunicorn_server(django_db_blocker) as url:
        yield url


@pytest.fixture
def server(module_server, live_launch_content):
    """One server for the module's tests, which read pages and change no content (each asks for pages or files
    no other asks for: a first request here is the server's first for it)."""
    return module_server


def test_head_carries_the_length_of_the_get(server):
    page = Workload.objects.get(key="llm-training").get_absolute_url("es")
    for path in (page, "/de/"):
        for encoding in ("identity", "gzip"):
            headers = {"Accept-Encoding": encoding}
            # HEAD first (the page rendered for it), then GET, then HEAD again (served from the cache).
            head_before = Browserless(server).request("HEAD", path, headers=headers)
            get = Browserless(server).request("GET", path, headers=headers)
            head_after = Browserless(server).request("HEAD", path, headers=headers)
            length = int(get[1]["Content-Length"])
            assert length > 1000
            for status, response_headers, body in (head_before, head_after):
                assert status == 200 and body == ""
                assert int(response_headers["Content-Length"]) == length, (path, encoding)
                assert response_headers["ETag"] == get[1]["ETag"]


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_a_wrong_method_gets_the_405_not_the_csrf_page(server, method):
    page = Workload.objects.get(key="llm-training").get_absolute_url("de")
    for path, allowed in (
        (page, {"GET", "HEAD", "OPTIONS"}), (url_in("de", "signups:signup"), {"GET", "HEAD", "POST"}),
    ):
        status, headers, body = Browserless(server).request(method, path)
        assert status == 405, (method, path)
        assert set(headers["Allow"].replace(" ", "").split(",")) == allowed
        assert '<html lang="de"' in body


def test_only_fingerprinted_static_files_are_cached_for_long(server):
    page = Browserless(server).request("GET", "/es/")[2]
    fingerprinted = re.search(r'/static/css/site\.[0-9a-f]{12}\.css', page).group(0)
    for path in (fingerprinted, "/static/css/site.css", "/favicon.ico", "/static/icons/favicon.svg"):
        status, headers, _body = Browserless(server).request("GET", path)
        assert status == 200, path
        max_age = int(re.search(r"max-age=(\d+)", headers["Cache-Control"]).group(1))
        if path == fingerprinted:
            assert max_age >= 365 * 24 * 3600 and "immutable" in headers["Cache-Control"]
        else:
            assert max_age <= 24 * 3600 and "immutable" not in headers["Cache-Control"], path


def test_a_social_image_is_drawn_once_and_then_served_from_the_pages_cache(server):
    page = Browserless(server).request("GET", "/pt/")[2]
    image_path = "/" + Head(page).meta["og:image"].split("/", 3)[3]

    def cached_images():
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM page_cache WHERE cache_key LIKE %s", ["%social-image:%"])
            return cursor.fetchone()[0]

    assert cached_images() == 0
    first = Browserless(server).request("GET", image_path)
    assert first[0] == 200 and first[1]["Content-Type"] == "image/png"
    assert cached_images() == 1
    again = Browserless(server).request("GET", image_path)
    assert again[2] == first[2] and cached_images() == 1
