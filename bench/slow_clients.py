"""Slow clients against gunicorn as `make serve` runs it (2 workers × 8 threads, the production settings, the
database cache): 0, 20, 40 and 200 connections from other loopback addresses (127.0.3.x), each sending a request
line and then one byte a second, never ending its headers, and opening a new connection when the server closes
one. Prints p50/p99 of a normal page (the calculator with no query, served from the page cache) from a client on
127.0.0.1, one request after another, while they trickle. Sends nothing beyond 127.0.0.0/8.

Run: make bench-slow-clients"""
import io
import socket
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup

django_setup()

from django.core.management import call_command  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import translation  # noqa: E402

from tests.servers import gunicorn_server  # noqa: E402

COUNTS = (0, 20, 40, 200)
SAMPLE_SECONDS = 12
HEAD = b"GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow-client\r\nAccept: text/html\r\nX-Slow: "


def get(url):
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
    except (urllib.error.URLError, OSError):
        pass
    return (time.perf_counter() - started) * 1000


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def trickle(address, source, stop):
    """One slow client: the request line and a few headers at once, then a byte a second, again on a new connection
    whenever the server closes this one."""
    while not stop.is_set():
        try:
            with socket.create_connection(address, timeout=2, source_address=(source, 0)) as connection:
                connection.sendall(HEAD)
                while not stop.wait(1):
                    connection.sendall(b"x")
        except OSError:
            stop.wait(0.1)


def main():
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", stdout=io.StringIO())
    with translation.override("en"):
        calculator = reverse("estimator:calculator")
    with gunicorn_server(workers=2) as server:
        address = (urlsplit(server).hostname, urlsplit(server).port)
        normal = server + calculator
        get(normal)
        for count in COUNTS:
            stop = threading.Event()
            clients = [threading.Thread(target=trickle, args=(address, f"127.0.3.{n % 250 + 1}", stop), daemon=True)
                       for n in range(count)]
            for client in clients:
                client.start()
            time.sleep(2 if count else 0)  # every slow connection open and its first bytes sent
            deadline = time.monotonic() + SAMPLE_SECONDS
            times = []
            while time.monotonic() < deadline:
                times.append(get(normal))
            stop.set()
            for client in clients:
                client.join(timeout=5)
            print(f"{count:>4} slow clients: normal page p50 {statistics.median(times):,.1f} ms, "
                  f"p99 {percentile(times, 0.99):,.1f} ms, max {max(times):,.1f} ms ({len(times):,} requests in "
                  f"{SAMPLE_SECONDS} s)", flush=True)
            time.sleep(1)


if __name__ == "__main__":
    main()
