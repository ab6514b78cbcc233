"""The backup and restore of docs/operations.md, performed: a database holding signups, price alerts and
provider applications is dumped with pg_dump (custom format), restored with pg_restore into a fresh
database, and a production server on the restored copy serves the same pages, byte for byte once the
per-response nonces and form tokens are masked, and keeps every signup."""
import re
import secrets
import subprocess
import tempfile
import urllib.request
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from alerts.models import PriceAlert
from catalog.models import GPU
from providers.models import ProviderApplication
from signups.models import Signup

from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..operator_record import fill_operator_record
from ..servers import PROJECT_DIR, collect_static, empty_database_cache, gunicorn_server, production_env
from ..signup_helpers import provider_data, run_mail_worker, signup_data

pytestmark = pytest.mark.multiprocess

POSTGRES_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda path: int(path.parent.name))
# What differs between two responses of the same page by design: CSP nonces and CSRF tokens.
PER_RESPONSE = [(re.compile(r'nonce="[^"]*"'), 'nonce=""'),
                (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), 'name="csrfmiddlewaretoken" value=""')]


def masked(body):
    for pattern, replacement in PER_RESPONSE:
        body = pattern.sub(replacement, body)
    return body


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200, url
        return response.read().decode()


def connection_options():
    """pg_dump/pg_restore options for the test database's server (a unix socket, see
    scripts/with-throwaway-postgres.sh)."""
    settings = connection.settings_dict
    options = ["-h", settings["HOST"] or "localhost", "-U", settings["USER"]]
    return options + (["-p", str(settings["PORT"])] if settings["PORT"] else [])


def run(*command):
    result = subprocess.run([str(command[0]), *map(str, command[1:])], check=False, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def fill_the_database(client):
    fill_operator_record()
    for number, language in enumerate(LANGUAGES):
        client.post(url_in(language, "signups:signup"), signup_data(email=f"person{number}@example.com",
                                                                    language=language))
    run_mail_worker()  # waiting signups join the waitlist
    for number in range(2):
        client.post(url_in("es", "providers:application"),
                    provider_data(email=f"provider{number}@example.com"))
    for slug, email in (("h100-sxm", "alert0@example.com"), ("b200", "alert1@example.com")):
        client.post(url_in("en", "alerts:price_alert", slug=slug),
                    {"email": email, "target": "2.50", "consent": "on"})
    run_mail_worker()  # waiting price alert requests are applied
    assert Signup.objects.count() == 4 and ProviderApplication.objects.count() == 2
    assert PriceAlert.objects.count() == 2


def signups_in(database_name):
    """Every signup row, every column, in the database named."""
    settings = connection.settings_dict
    with psycopg.connect(host=settings["HOST"], port=settings["PORT"] or None, user=settings["USER"],
                         dbname=database_name) as restored, restored.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {Signup._meta.db_table} ORDER BY id")
        return cursor.fetchall()


def test_a_dump_restored_into_a_fresh_database_serves_the_same_site(client, live_launch_content):
    fill_the_database(client)
    empty_database_cache()
    pages = [url_in("es", "home"), GPU.objects.order_by("pk").first().get_absolute_url("de"),
             url_in("pt", "catalog:gpu_list"), url_in("de", "company:privacy"), url_in("en", "company:legal_notice"),
             url_in("es", "signups:signup"), "/sitemap.xml"]
    restored_name = f"restored_{secrets.token_hex(4)}"
    with tempfile.TemporaryDirectory() as folder:
        backup = Path(folder) / "everx.dump"
        run(POSTGRES_BIN / "pg_dump", "--format=custom", "--no-owner", *connection_options(),
            "--dbname", connection.settings_dict["NAME"], "--file", backup)
        run(POSTGRES_BIN / "createdb", *connection_options(), restored_name)
        try:
            run(POSTGRES_BIN / "pg_restore", "--no-owner", "--exit-on-error", *connection_options(),
                "--dbname", restored_name, backup)
            restored_url = production_env()["DATABASE_URL"].rsplit("/", 1)[0] + "/" + restored_name
            restored_env = production_env(DATABASE_URL=restored_url)
            # As docs/operations.md says after a restore: nothing to migrate, the shared cache emptied.
            for command in (["migrate", "--check"], ["createcachetable"], ["bump_content_version"]):
                result = subprocess.run([str(Path(PROJECT_DIR) / ".venv/bin/python"), "manage.py", *command],
                                        cwd=PROJECT_DIR, env=restored_env, capture_output=True, text=True,
                                        check=False, timeout=120)
                assert result.returncode == 0, (command, result.stdout + result.stderr)

            assert signups_in(restored_name) == signups_in(connection.settings_dict["NAME"])
            assert len(signups_in(restored_name)) == 4

            collect_static()
            with gunicorn_server() as original:
                served = {path: masked(fetch(original + path)) for path in pages}
            with gunicorn_server(DATABASE_URL=restored_url) as restored:
                for path in pages:
                    assert masked(fetch(restored + path)) == served[path], path
        finally:
            run(POSTGRES_BIN / "dropdb", *connection_options(), "--force", restored_name)
