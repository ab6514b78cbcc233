"""200 signups at once over HTTP against gunicorn (production settings, 2 workers, 127.0.0.1) on
PostgreSQL, 120 new addresses and 80 repeats in another case: requests stored, then the rows the mail
worker's passes make of them, distinct addresses, server errors, latency, and the CPU time the gunicorn
workers spent per submission (which a machine busy with other work changes far less than latency).

Run: scripts/with-throwaway-postgres.sh .venv/bin/python bench/signup_concurrency.py"""
import http.client
import io
import math
import os
import re
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup

django_setup()

from django.core.management import call_command  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import translation  # noqa: E402

from signups.models import Signup, WaitlistRequest  # noqa: E402
from signups.waitlist import apply_requests  # noqa: E402
from tests.servers import collect_static, gunicorn_server  # noqa: E402

SUBMISSIONS = 200
DISTINCT = 120


def addresses():
    distinct = [f"renter{number}@example.com" for number in range(DISTINCT)]
    repeats = [address.upper() for address in distinct[:SUBMISSIONS - DISTINCT]]
    # Interleaved, so a repeat usually races its first submission.
    interleaved = [address for pair in zip(distinct, repeats, strict=False) for address in pair]
    return interleaved + distinct[len(repeats):]


def csrf_pair(host, port, path):
    """The CSRF cookie (name and value) and the form's token: both valid for every post."""
    connection = http.client.HTTPConnection(host, port, timeout=30)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read().decode()
    connection.close()
    name, value = re.search(r"((?:__Host-)?csrftoken)=([^;]+)", response.getheader("Set-Cookie")).groups()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    return f"{name}={value}", token


def server_cpu_seconds(port):
    """The CPU time (user and system) of the gunicorn processes listening on ``port``, read from /proc."""
    seconds = 0.0
    for process in Path("/proc").iterdir():
        try:
            if (b"gunicorn" in (process / "cmdline").read_bytes()
                    and f"PORT={port}".encode() in (process / "environ").read_bytes().split(b"\0")):
                fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
                seconds += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:  # not ours, or gone
            continue
    return seconds


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def main():
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", stdout=io.StringIO())
    collect_static()
    with translation.override("es"):
        path = reverse("signups:signup")
    with gunicorn_server(workers=2, SIGNUP_RATE_LIMIT="1000000",
                         EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend") as url:
        host, port = urlsplit(url).hostname, urlsplit(url).port
        cookie, token = csrf_pair(host, port, path)
        start = threading.Barrier(SUBMISSIONS)

        def submit(address):
            body = urlencode({"email": address, "currency": "EUR", "language": "es", "business": "on",
                              "consent": "on", "csrfmiddlewaretoken": token})
            connection = http.client.HTTPConnection(host, port, timeout=120)
            start.wait()
            began = time.perf_counter()
            try:
                connection.request("POST", path, body, {
                    "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
                response = connection.getresponse()
                response.read()
                status = response.status
            except OSError as error:
                status = f"connection error: {error}"
            finally:
                connection.close()
            return status, time.perf_counter() - began

        emails = addresses()
        cpu_before = server_cpu_seconds(port)
        began = time.perf_counter()
        with ThreadPoolExecutor(max_workers=SUBMISSIONS) as pool:
            results = list(pool.map(submit, emails))
        wall = time.perf_counter() - began
        server_cpu = server_cpu_seconds(port) - cpu_before

    requests_stored = WaitlistRequest.objects.count()
    while apply_requests():  # the mail worker's passes
        pass
    statuses = Counter(status for status, _seconds in results)
    latencies = [seconds * 1000 for _status, seconds in results]
    server_errors = sum(count for status, count in statuses.items()
                        if isinstance(status, int) and status >= 500)
    print(f"submissions: {SUBMISSIONS} concurrent (gunicorn, 2 workers, PostgreSQL)")
    print(f"responses: {dict(statuses)}")
    print(f"requests stored: {requests_stored}; rows after the mail worker: {Signup.objects.count()}")
    print(f"distinct emails: {len({address.lower() for address in emails})}")
    print(f"5xx: {server_errors}")
    print(f"latency ms: p50 {percentile(latencies, 0.5):.0f}, p99 {percentile(latencies, 0.99):.0f}, "
          f"max {max(latencies):.0f}; all done in {wall:.2f} s")
    print(f"gunicorn workers' CPU: {server_cpu * 1000 / SUBMISSIONS:.1f} ms per submission; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if set(statuses) != {303}:
        # A form error (400) is answered faster or slower than a signup: these figures would time something else.
        sys.exit(f"not every submission was accepted: {dict(statuses)}")


if __name__ == "__main__":
    main()
