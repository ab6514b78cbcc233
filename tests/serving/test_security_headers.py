"""Security headers on a page, a 404 and a redirect; production settings pass Django's deploy checks."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workloads.models import Workload

from ..operator_record import operator_record_toml
from ..security_headers import assert_security_headers

PROJECT_DIR = Path(__file__).resolve().parents[2]


def test_headers_on_a_page(client, launch_content):
    response = client.get(Workload.objects.get(key="llm-training").get_absolute_url("es"))
    assert response.status_code == 200
    assert_security_headers(response)


def test_headers_on_a_404(client, launch_content):
    response = client.get("/es/no-such-page/")
    assert response.status_code == 404
    assert_security_headers(response)


def test_headers_on_the_health_check(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok", "mail_queue": "ok"}
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert_security_headers(response)


@pytest.mark.multiprocess
@pytest.mark.parametrize("extra_env", [{}, {"REDIS_URL": "redis://127.0.0.1:6390/0"}])
def test_production_settings_pass_the_deploy_checks(extra_env, tmp_path, migrated_sqlite_url):
    """With a complete operator record (fictional, in a migrated database of its own): the deploy checks read it."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {
        **env, "DJANGO_SETTINGS_MODULE": "everx.settings.production",
        "SECRET_KEY": "a-production-like-secret-key-that-is-long-and-random-0123456789abcdefghijkl",
        "DATABASE_URL": migrated_sqlite_url, "ALLOWED_HOSTS": "everxcloud.example",
        "SITE_URL": "https://everxcloud.example", **extra_env,
    }
    (tmp_path / "operator-record.toml").write_text(operator_record_toml(), encoding="utf-8")
    for command in (["load_operator_record", str(tmp_path / "operator-record.toml")],
                    ["check", "--deploy", "--fail-level", "WARNING"]):
        result = subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=PROJECT_DIR, env=env, check=False, capture_output=True, text=True, timeout=120,
        )
        assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.multiprocess
def test_production_settings_refuse_to_start_without_a_secret_key():
    env = {key: value for key, value in os.environ.items() if key != "SECRET_KEY"}
    env.update({"DJANGO_SETTINGS_MODULE": "everx.settings.production", "DATABASE_URL": "sqlite:///unused.sqlite3"})
    result = subprocess.run([sys.executable, "manage.py", "check"], check=False, cwd=PROJECT_DIR, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


@pytest.mark.multiprocess
@pytest.mark.parametrize("site_url", [None, "everxcloud.example"])
def test_production_settings_refuse_to_start_without_the_sites_address(site_url):
    """Absolute URLs (canonical, sitemap, mail links) come from SITE_URL, never from a request's Host."""
    env = {key: value for key, value in os.environ.items() if key != "SITE_URL"}
    env.update({"DJANGO_SETTINGS_MODULE": "everx.settings.production", "SECRET_KEY": "x" * 60,
                "DATABASE_URL": "sqlite:///unused.sqlite3", **({"SITE_URL": site_url} if site_url else {})})
    result = subprocess.run([sys.executable, "manage.py", "check"], check=False, cwd=PROJECT_DIR, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "SITE_URL" in result.stderr
