"""Social images come from a finite set (issue 48): one per page title and path, never per query string, kept in
the pages' space of the shared cache (bounded in bytes), and drawn only when that space has room to keep them.
Real gunicorn with the production settings, with the database cache and with Redis (where images kept in the state
database, which logins and the content version need, could fill its memory), its pages' bound set to about ten
images."""
import urllib.request
from contextlib import contextmanager

import pytest
import redis
from django.db import connection

from catalog.models import GPU
from everx.settings.base import next_redis_database

from ..html import Head
from ..localized_urls import url_in
from ..servers import collect_static, gunicorn_server, redis_server

pytestmark = pytest.mark.multiprocess

# About ten images as the database cache stores them (a PNG, a third more in base64; sizes in docs/benchmarks.md).
PAGES_BOUND = 10 * 55 * 1024


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers, response.read()


def table_bytes():
    """The bytes of the values in each cache table, state and pages (what the bound counts, not the table's pages on
    disk)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT (SELECT coalesce(sum(octet_length(value)), 0) FROM django_cache),"
                       " (SELECT coalesce(sum(octet_length(value)), 0) FROM page_cache)")
        return cursor.fetchone()


def redis_bytes(url):
    """The bytes of the values in Redis's state and pages databases."""
    figures = []
    for database_url in (url, next_redis_database(url)):
        client = redis.Redis.from_url(database_url)
        figures.append(sum(client.strlen(key) for key in client.scan_iter()))
        client.close()
    return tuple(figures)


@contextmanager
def database_server():
    with gunicorn_server(workers=2, PAGE_CACHE_MAX_BYTES=str(PAGES_BOUND)) as url:
        yield url, table_bytes


@contextmanager
def redis_backed_server():
    with redis_server() as redis_url, \
            gunicorn_server(workers=2, REDIS_URL=redis_url, PAGE_CACHE_MAX_BYTES=str(PAGES_BOUND)) as url:
        yield url, lambda: redis_bytes(redis_url)


def image_path(page_html):
    return "/" + Head(page_html).meta["og:image"].split("/", 3)[3]


@pytest.fixture
def static_files(live_launch_content):
    collect_static()


@pytest.mark.parametrize("server", [database_server, redis_backed_server], ids=["database", "redis"])
def test_fifty_calculator_urls_and_their_images_grow_no_cache_beyond_its_bound(static_files, server):
    calculator = url_in("en", "estimator:calculator")
    gpu_pages = [gpu.get_absolute_url(language)
                 for gpu in GPU.objects.order_by("slug")[:10] for language in ("en", "de")]
    assert len(gpu_pages) == 20
    with server() as (url, cache_bytes):
        state_before, _pages = cache_bytes()
        images = set()
        for number in range(50):
            query = (f"?size={number + 1}&method=full_adam" if number % 2 else
                     f"?answer=training&size={number + 1}.5&method=full_adam&tokens=100")
            status, _headers, page = get(url + calculator + query)
            assert status == 200
            path = image_path(page.decode())
            images.add(path)
            status, headers, png = get(url + path)
            assert status == 200 and headers["Content-Type"] == "image/png" and png[:4] == b"\x89PNG"
        # Twenty pages of their own titles, more than the bound keeps: each still gets an image.
        for page_path in gpu_pages:
            status, _headers, page = get(url + page_path)
            status, headers, png = get(url + image_path(page.decode()))
            assert status == 200 and png[:4] == b"\x89PNG"
        state_after, pages_after = cache_bytes()
    assert state_after - state_before < 64 * 1024, (state_before, state_after)
    assert pages_after <= PAGES_BOUND, pages_after
    # Two tabs were asked for (the fit and training): two titles on one path, two images.
    assert len(images) == 2, images
