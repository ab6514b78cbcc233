"""Production (scripts/start-production.sh, what `make serve` runs) refuses to start while the operator
record is incomplete, naming what is missing; with a complete record (fictional values, loaded from the
file OPERATOR_RECORD_FILE names) it starts, and no page it serves holds a bracketed placeholder, a "not yet
filled" marker or the draft banner."""
import re
import socket
import subprocess
import tempfile
import urllib.request
from urllib.parse import urlsplit

import pytest
from django.utils import translation
from django.utils.translation import gettext

from company.models import OperatorRecord

from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..operator_record import operator_record_toml
from ..servers import (
    PROJECT_DIR,
    collect_static,
    empty_database_cache,
    free_port,
    production_env,
    stop,
    wait_until_healthy,
)
from ..sitemap import parse_sitemap

pytestmark = pytest.mark.multiprocess

START = str(PROJECT_DIR / "scripts" / "start-production.sh")
BRACKETED_PLACEHOLDER = re.compile(r"\[[A-ZÀ-Ý][A-ZÀ-Ý0-9 ,.()§/:'-]+\]")


def get(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read().decode()


def test_production_refuses_to_start_while_the_operator_record_is_incomplete(live_launch_content):
    port = free_port()
    result = subprocess.run([START], check=False, cwd=PROJECT_DIR,
                            env=production_env(HOST="127.0.0.1", PORT=str(port)),
                            capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    for field in ("legal_name", "vat_id", "privacy_email", "backup_retention_days", "recipients:cdn",
                  "recipients:logs"):
        assert f"({field}) is empty" in output, field
    assert "Not starting" in output
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0  # nothing was started


def test_production_starts_with_a_complete_record_and_serves_no_placeholder(live_launch_content, tmp_path):
    collect_static()
    empty_database_cache()
    record_file = tmp_path / "operator-record.toml"
    record_file.write_text(operator_record_toml(), encoding="utf-8")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = production_env(HOST="127.0.0.1", PORT=str(port), OPERATOR_RECORD_FILE=str(record_file))
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen([START], cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            try:
                wait_until_healthy(url, process, seconds=90)
            except RuntimeError:
                log.seek(0)
                raise RuntimeError(log.read().decode(errors="replace")[-3000:]) from None
            assert OperatorRecord.objects.get().legal_name == "Beispiel Rechenzentrum"
            sitemap = parse_sitemap(get(url + "/sitemap.xml")[1])
            paths = {urlsplit(page).path for page in sitemap}
            paths |= {url_in(language, name) for language in LANGUAGES
                      for name in ("company:privacy", "company:legal_notice", "signups:signup",
                                   "providers:application")}
            assert len(paths) > 20
            markers = []
            for language in LANGUAGES:
                with translation.override(language):
                    markers += [gettext("Draft:"), gettext("not yet filled: %(detail)s").split(":")[0]]
            for path in sorted(paths):
                status, body = get(url + path)
                assert status == 200, path
                assert not BRACKETED_PLACEHOLDER.search(body), (path, BRACKETED_PLACEHOLDER.search(body))
                assert not any(marker in body for marker in markers), path
            assert "Beispiel Rechenzentrum GmbH (fictional)" in get(url + url_in("de", "company:legal_notice"))[1]
        finally:
            stop(process)
