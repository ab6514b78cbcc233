"""Lighthouse (npm lighthouse@12.2.3, Debian's Chromium), mobile settings, against gunicorn with the
production settings: performance, accessibility, best practices and SEO at 100 on a workload page,
the home page and a GPU page."""
import json
import os
import subprocess

import pytest

from catalog.models import GPU
from workloads.models import Workload

from .conftest import NODE_MODULES

pytestmark = [pytest.mark.quality, pytest.mark.browser]
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run")


def lighthouse(url, output):
    subprocess.run(
        [str(NODE_MODULES / ".bin" / "lighthouse"), url, "--quiet", "--output=json", f"--output-path={output}",
         f"--chrome-flags={CHROME_FLAGS}", "--only-categories=performance,accessibility,best-practices,seo"],
        env={**os.environ, "CHROME_PATH": "/usr/bin/chromium"}, check=True, timeout=180,
    )
    return json.loads(output.read_text())


def test_lighthouse_scores_100_on_three_kinds_of_page(production_server, tmp_path):
    gpu = GPU.objects.get(slug="h100-sxm")
    pages = {
        "workload": Workload.objects.get(key="llm-training").get_absolute_url("es"),
        "home": "/de/",
        "gpu": gpu.get_absolute_url("pt"),
    }
    scores, failing = {}, []
    for name, path in pages.items():
        report = lighthouse(production_server + path, tmp_path / f"{name}.json")
        scores[name] = {key: category["score"] for key, category in report["categories"].items()}
        failing += [
            f"{name}: {key} {audit['score']} {audit.get('displayValue', '')}"
            for key, audit in report["audits"].items()
            if audit.get("score") is not None and audit["score"] < 1
            and audit.get("scoreDisplayMode") in ("binary", "numeric")
        ]
    print("Lighthouse scores:", json.dumps(scores))
    assert all(score == 1 for page in scores.values() for score in page.values()), (scores, failing)
