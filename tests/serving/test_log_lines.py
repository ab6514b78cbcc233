"""What the logs keep (issue 48): no full IP or mail address in any line Django or the mail worker logs (the
access log's redaction: the network, the domain), and a request with a bad Host header is one line, not a
traceback; gunicorn serves the real requests."""
import logging
import os
import socket
import tempfile
import time
import urllib.error
import urllib.request

import pytest

from providers.models import ApplicationRequest
from serving.log_text import RedactingFilter, redacted_text

from ..localized_urls import url_in
from ..servers import collect_static, gunicorn_server, mail_worker_process
from ..signup_helpers import provider_data, smtp_server


@pytest.mark.parametrize("text, expected", [
    ("mail to Ana.B+x@gmail.com failed", "mail to …@gmail.com failed"),
    ("""refused: {'"a b"@example.com': (550, b'no')}""", "refused: {'…@example.com': (550, b'no')}"),
    ("from 203.0.113.45 via 198.51.100.7", "from 203.0.113.0/… via 198.51.100.0/…"),
    ("from 2001:db8:1234:5678::1, [::ffff:203.0.113.9]", "from 2001:db8:1234::/…, [203.0.113.0/…]"),
    ("at 12:30:45, version 1.2.3, ratio 1:2", "at 12:30:45, version 1.2.3, ratio 1:2"),
    ("Not Found: /es/gpus/h100-sxm/", "Not Found: /es/gpus/h100-sxm/"),
])
def test_addresses_are_redacted(text, expected):
    assert redacted_text(text) == expected


def record(name, message, args=(), exc_info=None):
    return logging.LogRecord(name, logging.ERROR, __file__, 1, message, args, exc_info)


def test_a_traceback_is_redacted_and_a_security_record_is_one_line():
    try:
        raise ValueError("no mailbox ana@example.com at 203.0.113.45")
    except ValueError as error:
        exc_info = (type(error), error, error.__traceback__)
    crash = record("optin.worker", "Pass failed for %s", ("ana@example.com",), exc_info)
    RedactingFilter().filter(crash)
    text = logging.Formatter().format(crash)
    assert "Traceback" in text and "ana@example.com" not in text and "203.0.113.45" not in text
    bad_host = record("django.security.DisallowedHost", "Invalid HTTP_HOST header: %r.\nAdd it.", ("x\ny",),
                      exc_info)
    RedactingFilter().filter(bad_host)
    assert "\n" not in logging.Formatter().format(bad_host)


def get(url, path, **headers):
    try:
        return urllib.request.urlopen(urllib.request.Request(url + path, headers=headers), timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.multiprocess
def test_gunicorns_log_has_one_line_per_bad_host_and_no_full_address(live_launch_content):
    collect_static()
    with tempfile.TemporaryFile() as log:
        with gunicorn_server(log=log) as url:
            for number in range(3):
                assert get(url, "/es/", Host=f"evil{number}.example") == 400
            assert get(url, "/es/no-such-page/ana.b+x@gmail.com/203.0.113.45/") == 404
        log.seek(0)
        output = log.read().decode()
    assert "Traceback" not in output, output
    bad_host_lines = [line for line in output.splitlines() if "Invalid HTTP_HOST header" in line]
    assert len(bad_host_lines) == 3, output
    assert "Not Found: /es/no-such-page/…@gmail.com/203.0.113.0/…/" in output, output
    assert "ana.b+x@gmail.com" not in output and "203.0.113.45" not in output


def send_raw(url, data, source="127.0.0.5"):
    """``data`` as it is, from the loopback address ``source``; gunicorn's answer."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0)) as connection:
        connection.sendall(data)
        return connection.recv(1024)


@pytest.mark.multiprocess
def test_gunicorns_own_error_log_has_no_full_address(live_launch_content):
    """What gunicorn logs itself, before Django sees the request ("Invalid request from ip=…"), passes the same
    redaction as the site's log lines."""
    collect_static()
    with tempfile.TemporaryFile() as log:
        with gunicorn_server(log=log) as url:
            assert send_raw(url, b"NOT-HTTP ana.b+x@gmail.com 198.51.100.7\r\n\r\n").startswith(b"HTTP/1.1 400")
        log.seek(0)
        output = log.read().decode()
    assert "Invalid request from ip=127.0.0.0/…" in output, output
    assert "…@gmail.com" in output and "198.51.100.0/…" in output, output
    assert "127.0.0.5" not in output and "ana.b+x@gmail.com" not in output and "198.51.100.7" not in output, output


@pytest.mark.multiprocess
def test_the_mail_workers_log_has_no_full_address_when_a_chore_fails(client, live_launch_content):
    """The real worker applies a stored application whose GPU row cannot be stored, the error naming an address (a
    count that is not a number, as a request stored by a bug might hold): the chore's failure and its traceback
    are logged, redacted."""
    address = "ana.b+x@gmail.com"
    client.post(url_in("es", "providers:application"), provider_data(email=address))
    ApplicationRequest.objects.update(offered=[{"gpu": None, "name": "H100", "count": f"{address} 203.0.113.45",
                                                "location": "Madrid"}])
    with tempfile.TemporaryFile() as log, smtp_server() as (port, _mailbox), mail_worker_process(port, log):
        deadline = time.monotonic() + 30
        output = ""
        while "trying again next pass" not in output and time.monotonic() < deadline:
            time.sleep(0.2)
            output = os.pread(log.fileno(), 1 << 20, 0).decode(errors="replace")  # the worker's offset kept
    assert "Mail worker: Provider applications failed" in output and "Traceback" in output, output
    assert "…@gmail.com 203.0.113.0/…" in output, output
    assert address not in output and "203.0.113.45" not in output, output
