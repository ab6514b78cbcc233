"""How gunicorn's workers leave (gunicorn.conf.py, ``worker_exit``): on a stop, at once and with their log written
to its end, the master exiting cleanly; a worker that cannot load the site still makes the master give up with
gunicorn's boot-error status, instead of being started again and again."""
import subprocess
import tempfile
import urllib.request

import pytest
from gunicorn.arbiter import Arbiter

from ..localized_urls import url_in
from ..servers import GUNICORN_COMMAND, PROJECT_DIR, collect_static, free_port, production_env, wait_until_healthy

pytestmark = pytest.mark.multiprocess


def test_a_stopped_worker_leaves_with_its_access_log_written_and_the_master_exits_cleanly(live_launch_content):
    collect_static()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = production_env(HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="2", GUNICORN_ACCESS_LOG="-")
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(GUNICORN_COMMAND, cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_until_healthy(url, process)
            path = url_in("de", "catalog:gpu_list")
            with urllib.request.urlopen(url + path, timeout=10) as response:
                assert response.status == 200
        finally:
            process.terminate()
            status = process.wait(timeout=30)
        log.seek(0)
        output = log.read().decode(errors="replace")
    assert status == 0, output
    assert f'"GET {path} HTTP/1.1" 200' in output, output
    assert output.count("Worker exiting") == 2, output
    assert output.rstrip().endswith("Shutting down: Master"), output


def test_a_worker_that_cannot_load_the_site_stops_the_master_with_the_boot_error_status():
    # One worker: with two, the second failing while the master stops makes gunicorn 27.0.1 exit with 1 instead.
    env = production_env(HOST="127.0.0.1", PORT=str(free_port()), WEB_CONCURRENCY="1",
                         DJANGO_SETTINGS_MODULE="everx.settings.absent")
    result = subprocess.run(GUNICORN_COMMAND, check=False, cwd=PROJECT_DIR, env=env, capture_output=True, text=True,
                            timeout=60)
    output = result.stdout + result.stderr
    assert result.returncode == Arbiter.WORKER_BOOT_ERROR, output
    assert "No module named 'everx.settings.absent'" in output
    assert "Worker failed to boot" in output
