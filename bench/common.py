"""Shared by the benchmarks: a Django set-up on the throwaway database, gunicorn, and wrk."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))


def django_setup(settings_module="everx.settings.production"):
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    os.environ.setdefault("SECRET_KEY", "benchmark-secret-key-long-enough-for-the-production-settings-0123456789")
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
    os.environ.setdefault("SITE_URL", "https://www.everx.example")
    import django

    django.setup()
    from django.core.management import call_command

    # The production settings' shared cache without REDIS_URL: a table in the throwaway database.
    call_command("createcachetable", verbosity=0)


def wrk(url, seconds=8, connections=16, threads=2):
    """Requests per second and latency percentiles from one wrk run."""
    if shutil.which("wrk") is None:
        subprocess.run([str(PROJECT_DIR / "scripts" / "apt-install.sh"), "wrk"], check=True)
    # A 30 s timeout: a slow page (the catalogue of 1,000 GPUs) is counted, not dropped as a socket error.
    output = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "30s", "--latency", url],
        capture_output=True, text=True, check=True,
    ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    if socket_errors and any(int(count) for count in socket_errors.groups()):
        print(f"wrk {url}: {socket_errors.group(0)}")
    p99 = re.search(r"99%\s+([\d.]+\w+)", output).group(1)
    return {"rps": rate, "p99": p99, "non_2xx": int(errors.group(1)) if errors else 0}


def print_cache_tables(moment):
    """Bytes on disk (table, TOAST and index) and rows of each database cache table, on one line."""
    from django.db import connection

    figures = []
    with connection.cursor() as cursor:
        for table in ("django_cache", "page_cache"):
            cursor.execute(f"SELECT pg_total_relation_size('{table}'), count(*) FROM {table}")
            size, rows = cursor.fetchone()
            figures.append(f"{table} {size / 1e6:.2f} MB, {rows:,} rows")
    print(f"{moment:>16}: " + "; ".join(figures), flush=True)
