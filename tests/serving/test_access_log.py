"""Logs never hold a confirmation link's token, an unsubscribe link's key or a full client address: gunicorn's
access log shortens the address to its network and replaces the secret path segment, and Django's request
log ("Not Found: <path>") replaces it too."""
import logging
import tempfile
import urllib.error
import urllib.request
import uuid

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from optin.tokens import new_token
from serving.access_log import redacted_atoms, redacted_path, shortened_address
from signups.log_redaction import secret_path_prefixes

from ..localized_urls import url_in
from ..servers import collect_static, gunicorn_server

TOKEN = new_token()
KEY = uuid.uuid4()


@pytest.mark.parametrize("address, shortened", [
    ("203.0.113.45", "203.0.113.0"),
    ("198.51.100.255", "198.51.100.0"),
    ("2001:db8:1234:5678:9abc::1", "2001:db8:1234::"),
    ("::ffff:203.0.113.45", "203.0.113.0"),
    ("", "-"),
    ("/run/gunicorn.sock", "-"),
])
def test_addresses_are_shortened_to_their_network(address, shortened):
    assert shortened_address(address) == shortened


def secret_paths(language):
    with translation.override(language):
        return (reverse("signups:confirm", kwargs={"token": TOKEN}),
                reverse("signups:unsubscribe", kwargs={"key": KEY}))


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_secret_of_each_link_is_replaced_in_every_language(language):
    confirm, unsubscribe = secret_paths(language)
    prefixes = secret_path_prefixes()
    assert redacted_path(confirm, prefixes) == confirm.replace(TOKEN, "…")
    assert redacted_path(unsubscribe, prefixes) == unsubscribe.replace(str(KEY), "…")
    # A link cut short, run on, or with a doubled slash holds (part of) the secret too.
    assert TOKEN[:20] not in redacted_path(confirm[:-25], prefixes)
    assert TOKEN not in redacted_path(confirm + "more/", prefixes)
    assert TOKEN not in redacted_path(confirm.replace("/", "//", 2), prefixes)


def test_other_paths_are_logged_as_they_are():
    prefixes = secret_path_prefixes()
    for path in ("/es/", url_in("es", "signups:signup"), "/de/gpus/nvidia-h100-sxm/", "/static/site.css"):
        assert redacted_path(path, prefixes) == path


def gunicorn_atoms(path, query="", raw_uri=None):
    """What ``gunicorn.glogging.Logger.atoms`` gives for a request (a few of its header atoms)."""
    raw_uri = raw_uri or (f"{path}?{query}" if query else path)
    return {
        "h": "203.0.113.45", "l": "-", "u": "ana", "t": "[01/Dec/2025:10:00:00 +0000]",
        "r": f"GET {raw_uri} HTTP/1.1", "s": "200", "m": "GET", "U": path, "q": query, "H": "HTTP/1.1",
        "b": "1234", "B": 1234, "f": f"https://www.everx.example{path}", "a": "Mozilla/5.0",
        "T": 0, "D": 1500, "M": 1, "L": "0.001500", "p": "<42>",
        "{referer}i": f"https://www.everx.example{path}", "{x-forwarded-for}i": "198.51.100.7",
        "{raw_uri}e": raw_uri, "{query_string}e": query, "{remote_addr}e": "203.0.113.45",
    }


def test_the_access_log_line_holds_no_secret_query_referer_or_full_address():
    confirm, _unsubscribe = secret_paths("es")
    atoms = redacted_atoms(gunicorn_atoms(confirm, query="email=ana%40example.com"), secret_path_prefixes())
    assert atoms["h"] == "203.0.113.0"
    assert atoms["r"] == f"GET {confirm.replace(TOKEN, '…')} HTTP/1.1"
    assert atoms["U"] == confirm.replace(TOKEN, "…") and atoms["q"] == "" and atoms["f"] == "-"
    assert atoms["u"] == "-"
    logged = " ".join(str(value) for value in atoms.values())
    for secret in (TOKEN, "ana", "203.0.113.45", "198.51.100.7", "everx.example"):
        assert secret not in logged
    assert (atoms["s"], atoms["b"], atoms["a"], atoms["m"]) == ("200", "1234", "Mozilla/5.0", "GET")


def test_a_secret_path_spelt_with_percent_escapes_is_redacted_too():
    confirm, _unsubscribe = secret_paths("es")
    escaped = confirm.replace("confirmar", "confirm%61r")
    atoms = redacted_atoms(gunicorn_atoms(confirm, raw_uri=escaped), secret_path_prefixes())
    assert TOKEN not in atoms["r"]


def test_an_ordinary_request_line_keeps_its_raw_path_without_the_query():
    atoms = redacted_atoms(gunicorn_atoms("/es/gpus/café/", query="q=1", raw_uri="/es/gpus/caf%C3%A9/?q=1"),
                           secret_path_prefixes())
    assert atoms["r"] == "GET /es/gpus/caf%C3%A9/ HTTP/1.1"


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_djangos_not_found_log_holds_no_token_or_key(client, launch_content, caplog, language):
    confirm, unsubscribe = secret_paths(language)
    malformed_unsubscribe = unsubscribe.replace(str(KEY), TOKEN)  # no UUID: no URL pattern matches
    with caplog.at_level(logging.WARNING, logger="django.request"):
        for path in (confirm, malformed_unsubscribe):
            assert client.get(path).status_code == 404
    messages = [record.getMessage() for record in caplog.records if record.name == "django.request"]
    assert messages == [f"Not Found: {confirm.replace(TOKEN, '…')}",
                        f"Not Found: {malformed_unsubscribe.replace(TOKEN, '…')}"]


@pytest.mark.multiprocess
def test_gunicorns_access_log_holds_no_token_or_full_address(live_launch_content):
    collect_static()
    confirm, unsubscribe = secret_paths("es")
    with tempfile.TemporaryFile() as log:
        with gunicorn_server(log=log, GUNICORN_ACCESS_LOG="-") as url:
            # An unknown confirmation token is not found; an unknown unsubscribe key says the address is not on the
            # list (an unsubscribe deletes the signup, so a used key and an unknown one are the same).
            for path, status in ((confirm + "?from=mail", 404), (unsubscribe, 200)):
                request = urllib.request.Request(url + path, headers={"Referer": url + confirm})
                try:
                    answered = urllib.request.urlopen(request, timeout=10).status
                except urllib.error.HTTPError as error:
                    answered = error.code
                assert answered == status, path
        log.seek(0)
        output = log.read().decode()
    access_lines = [line for line in output.splitlines() if '"GET /es/' in line]
    assert len(access_lines) == 2, output
    assert all(line.startswith("127.0.0.0 ") for line in access_lines), access_lines
    assert f'"GET {confirm.replace(TOKEN, "…")} HTTP/1.1" 404' in access_lines[0]
    assert "Not Found: " + confirm.replace(TOKEN, "…") in output  # Django's own log line, redacted too
    for secret in (TOKEN, str(KEY), "127.0.0.1", "from=mail"):
        assert secret not in output
