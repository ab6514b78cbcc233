"""A flood of distinct query strings cannot fill the shared cache nor push state out of it (issue 26): only
canonical pages are stored, pages live in their own alias bounded in bytes, the state alias (content
version, rate-limit counters) never culls a live key, and a login lockout (counted in the database by
django-axes) holds through it all. With the real database cache and with Redis."""
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.urls import reverse

from caching.content_version import CONTENT_VERSION_KEY
from caching.pages import page_cache_key, page_generation
from catalog.models import GPU
from everx.settings import base as server_settings
from everx.settings.base import next_redis_database

from ..editors import PASSWORD, create_editor
from ..launch_version import forget_the_cache
from ..localized_urls import url_in
from ..servers import DATABASE_CACHES, MEMORY_CACHE, redis_server

# What a flood leaves behind is read exactly: every key of both aliases with the size of its value (none may come, go
# or change size). So a flood need not be long to catch a request that stores a page or a value, even a byte: it is
# long enough to try each kind of query a hundred times over and to go past the 300 rows at which Django's database
# cache (the tests' state alias) starts culling, had each request stored one. `make bench-flood` floods a server
# with 5,000 and prints its cache tables' bytes and rows.
FLOOD = 400
SECOND_FLOOD = 100
# A lockout longer than any flood takes on a busy machine: only the flood may end it, and it must not.
LOCKED_OUT = {"LOGIN_MAX_FAILURES_PER_USER": 3, "AXES_COOLOFF_TIME": timedelta(hours=6)}
# The flood comes at a server, which reads the content version once a second (the tests' own setting reads it at
# every call, as each test changes it).
AS_A_SERVER_READS_THE_VERSION = {"CONTENT_VERSION_MAX_AGE": server_settings.CONTENT_VERSION_MAX_AGE}


def calculator(language="en", query=""):
    return url_in(language, "estimator:calculator") + query


def flood_queries(start, count):
    """Distinct calculator query strings, as a crawler or an attacker writes them: valid inputs on every tab
    (each rendered, none stored) and junk (each refused, none stored)."""
    for number in range(start, start + count):
        kind = number % 4
        if kind == 0:
            yield f"?size={number}&method=full_adam"
        elif kind == 1:
            yield f"?answer=training&size={number % 900 + 1}.{number % 1000:03d}&method=full_adam&tokens=100"
        elif kind == 2:
            yield f"?answer=inference&size=junk-{number}&method=weights_16bit"
        else:
            yield f"?answer={number}&utm_source={number}"


def flood(client, start, count):
    for query in flood_queries(start, count):
        response = client.get(calculator("en", query))
        assert response.status_code == 200, query
        assert response["Cache-Control"].startswith("private"), query


@contextmanager
def database_caches():
    with override_settings(CACHES={**DATABASE_CACHES, "memory": MEMORY_CACHE}):
        call_command("createcachetable", verbosity=0)
        forget_the_cache()

        def stored():
            with connection.cursor() as cursor:
                cursor.execute(" UNION ALL ".join(
                    f"SELECT '{alias}', cache_key, octet_length(value) FROM {cache['LOCATION']}"
                    for alias, cache in DATABASE_CACHES.items()))
                return {(alias, key): size for alias, key, size in cursor.fetchall()}

        yield stored
    forget_the_cache()


@contextmanager
def redis_caches():
    with redis_server() as url:
        options = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}
        backend = "django.core.cache.backends.redis.RedisCache"
        with override_settings(CACHES={"default": {"BACKEND": backend, "LOCATION": url, "OPTIONS": options},
                                       "pages": {"BACKEND": backend, "LOCATION": next_redis_database(url),
                                                 "OPTIONS": options}, "memory": MEMORY_CACHE}):
            forget_the_cache()

            def stored():
                clients = {alias: caches[alias]._cache.get_client() for alias in ("default", "pages")}
                return {(alias, key): len(client.dump(key)) for alias, client in clients.items()
                        for key in client.scan_iter()}

            yield stored
            forget_the_cache()


BACKENDS = {"database": database_caches, "redis": redis_caches}


def pages_in(stored):
    """How many pages the shared page cache holds, of what ``stored`` (a backend's ``stored()``) read."""
    return sum(1 for alias, _key in stored if alias == "pages")


def left_behind(before, after):
    """What came between two readings of the caches (``stored()``): the keys stored, the keys gone, the keys whose
    value changed size."""
    return {"stored": sorted(after.keys() - before.keys()), "gone": sorted(before.keys() - after.keys()),
            "resized": sorted(key for key in before.keys() & after.keys() if before[key] != after[key])}


NOTHING = {"stored": [], "gone": [], "resized": []}


def lock_out(client):
    url = reverse("admin:login")
    statuses = [client.post(url, {"username": "editor", "password": "wrong"}).status_code
                for _attempt in range(LOCKED_OUT["LOGIN_MAX_FAILURES_PER_USER"])]
    assert statuses == [200] * (LOCKED_OUT["LOGIN_MAX_FAILURES_PER_USER"] - 1) + [429]
    assert client.post(url, {"username": "editor", "password": PASSWORD}).status_code == 429


def is_stored(client, path_and_query, language="en"):
    """Whether the shared page cache (not this process's memory) holds the page."""
    request = client.get(path_and_query).wsgi_request
    return caches["pages"].get(page_cache_key(request, language, query=request.GET.keys())) is not None


@pytest.mark.multiprocess
@pytest.mark.long
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_flood_of_distinct_calculator_urls_stores_nothing_and_leaves_state_intact(client, launch_content,
                                                                                    backend):
    create_editor()
    with BACKENDS[backend]() as stored, override_settings(**LOCKED_OUT, **AS_A_SERVER_READS_THE_VERSION):
        lock_out(client)
        normal = calculator("en")
        assert client.get(normal).status_code == 200
        assert client.get(calculator("en", "?answer=training")).status_code == 200
        version = caches["default"].get(CONTENT_VERSION_KEY)
        before = stored()
        assert pages_in(before) == 2

        flood(client, 0, FLOOD)
        after_first = stored()
        assert left_behind(before, after_first) == NOTHING, "no page or value of the flood is stored, none goes"
        flood(client, FLOOD, SECOND_FLOOD)
        assert left_behind(after_first, stored()) == NOTHING, "nor by a second flood"

        assert caches["default"].get(CONTENT_VERSION_KEY) == version
        assert client.post(reverse("admin:login"), {"username": "editor", "password": PASSWORD}).status_code == 429
        caches["memory"].clear()
        with override_settings(PAGE_CACHE_ENABLED=True):
            response = client.get(normal)
        assert response["Cache-Control"].startswith("public")
        # Not even an emptied state cache lifts it: the lockout is counted in the database.
        caches["default"].clear()
        assert client.post(reverse("admin:login"), {"username": "editor", "password": PASSWORD}).status_code == 429


@pytest.mark.multiprocess
@pytest.mark.parametrize("backend", BACKENDS)
def test_the_page_cache_stays_within_its_byte_bound_and_state_survives_it(client, launch_content, backend):
    """Every canonical page in every language against a bound a few pages fill: the pages stored stay within
    it, the rest are served rendered, and the content version and a lockout are untouched."""
    create_editor()
    bound = 300_000
    with BACKENDS[backend]() as stored, override_settings(PAGE_CACHE_MAX_BYTES=bound, **LOCKED_OUT):
        lock_out(client)
        before = stored()
        assert client.get(url_in("en", "home")).status_code == 200
        version = caches["default"].get(CONTENT_VERSION_KEY)
        slugs = list(GPU.objects.values_list("slug", flat=True))
        for language in ("en", "es", "pt", "de"):
            for slug in slugs:
                assert client.get(url_in(language, "catalog:gpu_detail", slug=slug)).status_code == 200
        after = stored()
        assert 0 < pages_in(after) < len(slugs) * 4
        assert caches["default"].get(f"page-bytes:{page_generation()}") <= bound
        # Redis keeps a page's pickle; the database its base64 text: bounded either way.
        assert sum(after.values()) - sum(before.values()) <= bound * 1.5
        assert caches["default"].get(CONTENT_VERSION_KEY) == version
        assert client.post(reverse("admin:login"), {"username": "editor", "password": PASSWORD}).status_code == 429


def test_junk_and_other_inputs_are_served_uncached_and_presets_cached(client, launch_content):
    # The shared cache is asked: a page an earlier test rendered in this process would be served from its memory
    # (under the kept content version) and never stored again.
    caches["memory"].clear()
    for query in ("?size=abc&method=full_adam", "?size=70&method=full_adam", "?answer=nonsense", "?size=",
                  "?answer=training&answer=training"):
        response = client.get(calculator("en", query))
        assert response["Cache-Control"].startswith("private"), query
        assert not is_stored(client, calculator("en", query)), query
    for query in ("", "?answer=training", "?answer=inference"):
        client.get(calculator("en", query))
        assert is_stored(client, calculator("en", query)), query
    catalogue = url_in("en", "catalog:gpu_list")
    for query in ("?vendor=NVIDIA", "?sort=price", "?vendor=AMD&sort=price"):
        client.get(catalogue + query)
        assert is_stored(client, catalogue + query), query
    for query in ("?min_memory=80", "?vendor=Nobody", "?vendor=AMD&vendor=NVIDIA", "?sort=price&nf=en"):
        assert client.get(catalogue + query)["Cache-Control"].startswith("private"), query
        assert not is_stored(client, catalogue + query), query
    compare = url_in("en", "catalog:compare")
    assert client.get(compare + "?gpu=h100-sxm&gpu=b200")["Cache-Control"].startswith("private")
    assert not is_stored(client, compare + "?gpu=h100-sxm&gpu=b200")


def test_the_state_cache_never_culls_a_live_key(db):
    """Past MAX_ENTRIES Django's database cache deletes a third of the keys in key order, and the content
    version and other counters that sort first would go: the state alias deletes expired rows only."""
    state = {"BACKEND": "caching.database.DatabaseCache", "LOCATION": "django_cache",
             "OPTIONS": {"MAX_ENTRIES": 10}}
    with override_settings(CACHES={**DATABASE_CACHES, "default": state, "memory": MEMORY_CACHE}):
        call_command("createcachetable", verbosity=0)
        cache = caches["default"]
        cache.set(CONTENT_VERSION_KEY, 7, timeout=None)
        cache.set("counter:abc", 5, timeout=600)
        for number in range(50):
            cache.set(f"rate:{number}", number, timeout=600)
        cache.set("expired", 1, timeout=-1)
        cache.set("rate:last", 1, timeout=600)
        assert cache.get(CONTENT_VERSION_KEY) == 7 and cache.get("counter:abc") == 5
        assert all(cache.get(f"rate:{number}") == number for number in range(50))
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM django_cache WHERE cache_key LIKE %s", ["%expired"])
            assert cursor.fetchone()[0] == 0
