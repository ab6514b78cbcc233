"""Clients that send their request headers slowly (a bad connection, or on purpose) do not stop the site:
each holds at most one thread of a worker, and only until the header deadline. Real gunicorn."""
import socket
import ssl
import subprocess
import threading
import time
import urllib.request
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

from ..servers import collect_static, gunicorn_server

pytestmark = pytest.mark.multiprocess

HEADERS = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: a-very-slow-client\r\nAccept: */*\r\n\r\n"


@contextmanager
def slow_clients(url, count, seconds_per_byte=0.5):
    """``count`` connections sending request headers a byte at a time; yields a list that tells, per
    connection, the seconds after which the server closed it (None while open)."""
    address = urlsplit(url)
    closed_after = [None] * count
    stop = threading.Event()

    def trickle(number):
        started = time.monotonic()
        with socket.create_connection((address.hostname, address.port)) as connection:
            for byte in HEADERS[:-2]:  # never the final empty line: the headers never end
                if stop.is_set():
                    return
                try:
                    connection.sendall(bytes([byte]))
                    connection.settimeout(seconds_per_byte)
                    if connection.recv(1) == b"":
                        closed_after[number] = time.monotonic() - started
                        return
                except TimeoutError:
                    continue
                except OSError:
                    closed_after[number] = time.monotonic() - started
                    return

    threads = [threading.Thread(target=trickle, args=(n,), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    time.sleep(1)  # every slow connection accepted and its first bytes read
    try:
        yield closed_after
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=5)


def healthz_seconds(url):
    started = time.monotonic()
    with urllib.request.urlopen(url + "/healthz", timeout=10) as response:
        assert response.status == 200
    return time.monotonic() - started


@pytest.fixture
def static_files(live_launch_content):
    collect_static()


def test_four_slow_clients_leave_the_health_check_answering_at_once(static_files):
    with gunicorn_server(workers=2) as url, slow_clients(url, 4):
        timings = [healthz_seconds(url) for _ in range(10)]
    assert max(timings) < 2, timings


def test_a_slow_client_is_cut_off_at_the_header_deadline(static_files):
    """One worker of two threads and two slow clients: they are disconnected at the deadline, and others are served
    meanwhile. The worker reads requests whole in its loop, so the health check does not wait for the deadline: the
    test waits for the disconnections."""
    with gunicorn_server(workers=1, GUNICORN_THREADS="2", GUNICORN_HEADER_TIMEOUT="3") as url, \
            slow_clients(url, 2) as closed_after:
        assert healthz_seconds(url) < 6
        waited_until = time.monotonic() + 6
        while None in closed_after and time.monotonic() < waited_until:
            time.sleep(0.1)
    assert all(seconds is not None and 2.5 < seconds < 6 for seconds in closed_after), closed_after


def test_with_200_slow_clients_open_a_normal_request_is_answered_before_any_of_them_ends(static_files):
    """Issue 48: sockets that send a header line and then a byte a second must not hold the 16 threads until the
    header deadline. The main loop reads each request whole before a thread takes it: the slow sockets wait there,
    costing no thread (docs/decisions/0019). From 50 other loopback addresses, 4 each."""
    with gunicorn_server(workers=2) as url:
        address = urlsplit(url)
        sockets = []
        try:
            for number in range(200):
                connection = socket.create_connection((address.hostname, address.port),
                                                      source_address=(f"127.0.4.{number // 4 + 1}", 0))
                connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                sockets.append(connection)
            time.sleep(1)
            for connection in sockets:
                connection.sendall(b"X")  # a byte of a header, as a slow client sends it
            started = time.monotonic()
            assert healthz_seconds(url) < 2
            normal = urllib.request.urlopen(url + "/en/", timeout=10)
            assert normal.status == 200
            elapsed = time.monotonic() - started
            # Not one slow socket was closed meanwhile: the page did not wait for the header deadline.
            for connection in sockets:
                connection.setblocking(False)
                with pytest.raises(BlockingIOError):
                    connection.recv(1)
        finally:
            for connection in sockets:
                connection.close()
    assert elapsed < 5, elapsed


def test_a_request_sent_whole_but_in_pieces_is_answered(static_files):
    """The main loop puts the bytes it read back in front of gunicorn's parser: a head sent in pieces reaches the
    view whole, and a kept-alive connection's next requests too; a body that never comes ends at the deadline."""
    with gunicorn_server(workers=1) as url:
        address = urlsplit(url)
        with socket.create_connection((address.hostname, address.port)) as connection:
            request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            for piece in (request[:7], request[7:30], request[30:]):
                connection.sendall(piece)
                time.sleep(0.2)
            connection.settimeout(10)
            first = connection.recv(65536)
            assert first.startswith(b"HTTP/1.1 200"), first[:100]
            connection.sendall(request + request)  # two pipelined
            received = b""
            while received.count(b"HTTP/1.1 200") < 2:
                chunk = connection.recv(65536)
                assert chunk, received
                received += chunk
        # A body sent slowly holds no thread either: its request is cut off at the deadline, unanswered by a view.
        with socket.create_connection((address.hostname, address.port)) as connection:
            connection.sendall(b"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n")
            connection.settimeout(15)
            started = time.monotonic()
            assert connection.recv(65536).startswith(b"HTTP/1.1 408")
            assert time.monotonic() - started < 12


def test_over_tls_slow_handshakes_and_slow_headers_hold_no_thread(static_files, tmp_path):
    """The same over TLS (TLS_CERTFILE, TLS_KEYFILE): the handshake is done in the main loop too, so 40 connections
    that never finish it, and 40 that finish it and then trickle their headers, leave every thread free."""
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-keyout", str(key), "-out", str(certificate)], check=True, capture_output=True)
    context = ssl.create_default_context(cafile=str(certificate))
    context.check_hostname = False
    with gunicorn_server(workers=1, TLS_CERTFILE=str(certificate), TLS_KEYFILE=str(key)) as url:
        address = urlsplit(url)
        sockets = []
        try:
            for number in range(80):
                raw = socket.create_connection((address.hostname, address.port),
                                               source_address=(f"127.0.5.{number // 4 + 1}", 0))
                if number % 2:
                    raw = context.wrap_socket(raw)
                    raw.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                else:
                    raw.sendall(b"\x16\x03\x01")  # the start of a ClientHello, and nothing more
                sockets.append(raw)
            time.sleep(1)
            started = time.monotonic()
            with urllib.request.urlopen(url + "/healthz", timeout=10, context=context) as response:
                assert response.status == 200
            assert time.monotonic() - started < 3
        finally:
            for connection in sockets:
                connection.close()
