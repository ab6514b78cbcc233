"""Clients that send their request headers slowly (a bad connection, or on purpose) do not stop the site:
each holds at most one thread of a worker, and only until the header deadline. Real gunicorn."""
import socket
import threading
import time
import urllib.request
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

from .servers import collect_static, gunicorn_server

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
    """One worker of two threads, both taken by slow clients: they are disconnected at the deadline, and
    the threads serve others again."""
    with gunicorn_server(workers=1, GUNICORN_THREADS="2", GUNICORN_HEADER_TIMEOUT="3") as url, \
            slow_clients(url, 2) as closed_after:
        assert healthz_seconds(url) < 6
        time.sleep(2)
    assert all(seconds is not None and 2.5 < seconds < 6 for seconds in closed_after), closed_after
