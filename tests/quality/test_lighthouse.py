"""Lighthouse (npm lighthouse@12.2.3, Debian's Chromium), mobile settings, against gunicorn with the
production settings, once per kind of page (a workload page, the home page, a GPU page, a GPU's price alert form,
the calculator showing a result and its training and inference estimates): accessibility, best practices and SEO
at 100, and of performance what does not depend on how busy the host is: no render-blocking resource, the bytes
within the first-visit budget, no request beyond the page's own host. The performance score itself depends on the
host's load (a busy 2-core machine measured 0.95 on a page that scores 1 alone): ``make bench-lighthouse`` prints
it (bench/lighthouse_scores.py)."""
import json
import subprocess
from pathlib import Path

import pytest

from catalog.models import GPU
from workloads.models import Workload

from ..localized_urls import url_in
from ..page_judges import CHROMIUM, NODE_MODULES
from .first_visit import BUDGET_BYTES

pytestmark = [pytest.mark.quality, pytest.mark.browser]
# Debian's Chromium with no background work of its own: no network beyond the page, no extensions.
CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-extensions", "--disable-default-apps", "--mute-audio",
                "--disable-features=Translate,OptimizationHints,MediaRouter"]
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
LIGHTHOUSE_PAGES = Path(__file__).with_name("lighthouse_pages.mjs")
SECONDS_PER_PAGE = 180


def lighthouse_reports(urls, output_dir, runtime_errors_allowed=2):
    """Lighthouse's report of each page ({name: url}), {name: report}: one Chromium and one Node process for
    them all (lighthouse_pages.mjs). A run Lighthouse itself aborts with a runtime error (e.g. NO_NAVSTART: its
    own trace recording failed) is a failure of the tool's run, not a score of the page, and is run again, at
    most ``runtime_errors_allowed`` times a page."""
    outputs = {name: output_dir / f"{name}.json" for name in urls}
    jobs = output_dir / "lighthouse-jobs.json"
    jobs.write_text(json.dumps({
        "chromePath": CHROMIUM, "chromeFlags": CHROME_FLAGS, "categories": CATEGORIES,
        "runtimeErrorsAllowed": runtime_errors_allowed,
        "pages": [{"url": url, "output": str(outputs[name])} for name, url in urls.items()],
    }))
    subprocess.run(["node", str(LIGHTHOUSE_PAGES), str(jobs)], check=True, cwd=NODE_MODULES.parent,
                   timeout=SECONDS_PER_PAGE * len(urls))
    return {name: json.loads(output.read_text()) for name, output in outputs.items()}


# The categories whose score does not depend on the host's speed.
STEADY_CATEGORIES = ("accessibility", "best-practices", "seo")


def steady_findings(name, report, origin):
    """What a page gets wrong that no host load explains: a steady category below 100 (with its failing audits),
    a render-blocking resource, more bytes than the budget, a request to another host."""
    findings = [f"{name}: {key} {report['categories'][key]['score']}" for key in STEADY_CATEGORIES
                if report["categories"][key]["score"] != 1]
    findings += [
        f"{name}: {key} {audit['score']} {audit.get('displayValue', '')}"
        for key, audit in report["audits"].items()
        if audit.get("score") is not None and audit["score"] < 1 and audit.get("scoreDisplayMode") == "binary"
    ]
    blocking = report["audits"]["render-blocking-resources"].get("details", {}).get("items", [])
    findings += [f"{name}: render-blocking {item['url']}" for item in blocking]
    weight = report["audits"]["total-byte-weight"]["numericValue"]
    if weight > BUDGET_BYTES:
        findings.append(f"{name}: {weight:.0f} bytes, over the budget of {BUDGET_BYTES}")
    requests = report["audits"]["network-requests"]["details"]["items"]
    findings += [f"{name}: request to {item['url']}" for item in requests
                 if not item["url"].startswith(origin) and not item["url"].startswith("data:")]
    return findings


@pytest.mark.long
def test_lighthouse_finds_nothing_that_host_load_does_not_explain(production_server, tmp_path):
    gpu = GPU.objects.get(slug="h100-sxm")
    # A 70-billion-parameter model, full training: the results table of every GPU.
    calculator = url_in("en", "estimator:calculator", {"size": "70", "method": "full_adam"})
    pages = {
        "workload": Workload.objects.get(key="llm-training").get_absolute_url("es"),
        "home": "/de/",
        "gpu": gpu.get_absolute_url("pt"),
        "price alert": url_in("de", "alerts:price_alert", slug=gpu.slug),
        "calculator": calculator,
        # The cost estimator's two answers, each with its chart and every GPU's row.
        "training": url_in("de", "estimator:calculator", {"answer": "training", "size": "70", "method": "full_adam",
                                                        "tokens": "15000", "cluster": "4096"}),
        "inference": url_in("es", "estimator:calculator", {"answer": "inference", "size": "70",
                                                         "method": "weights_8bit", "batch": "16"}),
    }
    reports = lighthouse_reports({name: production_server + path for name, path in pages.items()}, tmp_path)
    findings, performance = [], {}
    for name, report in reports.items():
        performance[name] = report["categories"]["performance"]["score"]
        findings += steady_findings(name, report, production_server)
    print("Lighthouse performance (depends on the host's load):", json.dumps(performance))
    assert len(performance) == len(pages)
    assert findings == []
