"""Renders the page cache does not serve are limited per client (issue 48): one client with 8 connections could keep
both cores busy with uncached calculator answers. Past RENDER_RATE_LIMIT in a window, that client's next answer is 429
with Retry-After, in its language; cached pages and presets, and other clients, are served as before."""
import http.client
import urllib.parse

import pytest
from django.test import override_settings

from ..localized_urls import url_in
from ..servers import collect_static, gunicorn_server

LIMIT = 5


def calculator(language="en", query=""):
    return url_in(language, "estimator:calculator") + query


def answer(number):
    return f"?size={number + 1}&method=full_adam"


def get(base_url, path, source, headers=None):
    host = urllib.parse.urlsplit(base_url).netloc
    connection = http.client.HTTPConnection(host, timeout=30, source_address=(source, 0))
    try:
        connection.request("GET", path, headers={"Host": host, **(headers or {})})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        connection.close()


@pytest.mark.multiprocess
def test_the_next_uncached_render_from_one_client_is_refused_while_cached_pages_and_others_are_served(
        live_launch_content):
    collect_static()
    with gunicorn_server(workers=2, RENDER_RATE_LIMIT=str(LIMIT), RENDER_RATE_LIMIT_WINDOW="3600") as url:
        cached = [calculator("en"), calculator("en", "?answer=training"), url_in("en", "catalog:gpu_list")]
        for path in cached:  # stored by another client
            assert get(url, path, "127.0.6.9")[0] == 200
        statuses = [get(url, calculator("en", answer(number)), "127.0.6.1")[0] for number in range(LIMIT)]
        assert statuses == [200] * LIMIT
        status, headers, body = get(url, calculator("es", answer(99)), "127.0.6.1")
        assert status == 429
        assert 0 < int(headers["Retry-After"]) <= 3600
        assert "no-store" in headers["Cache-Control"]
        assert "Demasiadas solicitudes" in body
        # The same client still gets every cached page, the tab presets among them...
        for path in cached:
            assert get(url, path, "127.0.6.1")[0] == 200, path
        # ...and another client its own answers.
        assert get(url, calculator("en", answer(99)), "127.0.6.2")[0] == 200


@override_settings(RENDER_RATE_LIMIT=3, RENDER_RATE_LIMIT_WINDOW=3600)
def test_an_ipv6_client_counts_as_its_64(client, launch_content):
    for number in range(3):
        response = client.get(calculator("en", answer(number)), REMOTE_ADDR=f"2001:db8:7:7::{number + 1}")
        assert response.status_code == 200
    assert client.get(calculator("en", answer(5)), REMOTE_ADDR="2001:db8:7:7:ffff::1").status_code == 429
    assert client.get(calculator("en", answer(5)), REMOTE_ADDR="2001:db8:7:8::1").status_code == 200
    # A page without the visitor's own query is not counted, cached or not.
    assert client.get(calculator("de"), REMOTE_ADDR="2001:db8:7:7::1").status_code == 200
    assert client.get(calculator("de", "?utm_source=x"), REMOTE_ADDR="2001:db8:7:7::1").status_code == 200
