"""Lighthouse (npm lighthouse@12.8.2) in Debian's Chromium, mobile settings: the reports of a set of pages from one
Chromium and one Node process, and what a report finds that no host load explains. The quality gate
(test_lighthouse.py) asserts those findings; ``make bench-lighthouse`` prints the performance score."""
import json
import re
import subprocess
from pathlib import Path

from ..page_judges import CHROMIUM, NODE_MODULES
from .first_visit import BUDGET_BYTES

# Debian's Chromium with no background work of its own: no network beyond the page, no extensions.
CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-extensions", "--disable-default-apps", "--mute-audio",
                "--disable-features=Translate,OptimizationHints,MediaRouter"]
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
LIGHTHOUSE_PAGES = Path(__file__).with_name("lighthouse_pages.mjs")
SECONDS_PER_PAGE = 180


def lighthouse_reports(urls, output_dir, runtime_errors_allowed=2, categories=CATEGORIES, audits=None):
    """Lighthouse's report of each page ({name: url}), {name: report}: one Chromium and one Node process for
    them all (lighthouse_pages.mjs). The report holds ``categories`` and, beside their audits, ``audits`` (ids).
    A run Lighthouse itself aborts with a runtime error (e.g. NO_NAVSTART: its own trace recording failed) is a
    failure of the tool's run, not a score of the page, and is run again, at most ``runtime_errors_allowed``
    times a page."""
    outputs = {name: output_dir / f"{name}.json" for name in urls}
    jobs = output_dir / "lighthouse-jobs.json"
    jobs.write_text(json.dumps({
        "chromePath": CHROMIUM, "chromeFlags": CHROME_FLAGS, "categories": categories, "audits": audits,
        "runtimeErrorsAllowed": runtime_errors_allowed,
        "pages": [{"url": url, "output": str(outputs[name])} for name, url in urls.items()],
    }))
    subprocess.run(["node", str(LIGHTHOUSE_PAGES), str(jobs)], check=True, cwd=NODE_MODULES.parent,
                   timeout=SECONDS_PER_PAGE * len(urls))
    return {name: json.loads(output.read_text()) for name, output in outputs.items()}


# The categories whose score does not depend on the host's speed.
STEADY_CATEGORIES = ("accessibility", "best-practices", "seo")
# Of the performance category, what the gate asserts: no render-blocking resource, the bytes, the hosts asked,
# and its one pass/fail audit (the back/forward cache). The gate asks for these alone, not for the category: its
# timings, their simulations and the filmstrip are the benchmark's (bench/lighthouse_scores.py).
GATE_PERFORMANCE_AUDITS = ("render-blocking-resources", "total-byte-weight", "network-requests", "bf-cache",
                           "cumulative-layout-shift")


# The site's one stylesheet (the base template's <link rel="stylesheet">, whitenoise's hashed name): render-blocking
# by nature, as any stylesheet in the head is, and kept so on purpose (docs/decisions/0016). Any other
# render-blocking resource is a finding.
SITE_STYLESHEET = re.compile(r"/static/css/site\.[0-9a-f]{12}\.css$")


def render_blocking_resources(report, origin):
    """The render-blocking resources Lighthouse lists, the site's own stylesheet aside."""
    items = report["audits"]["render-blocking-resources"].get("details", {}).get("items", [])
    return [item["url"] for item in items
            if not (item["url"].startswith(origin) and SITE_STYLESHEET.search(item["url"]))]


# Lighthouse's failure type of a back/forward-cache failure that is no doing of the page (Chromium's
# "Circumstantial" reasons: the browser's own state, e.g. the page kept too long in the cache on a busy host).
# "Actionable" failures and those "Pending browser support" are the page's: they hold on any host.
NOT_ACTIONABLE = "Not actionable"


def back_forward_cache_finding(name):
    """How each back/forward-cache finding of a page begins."""
    return f"{name}: bf-cache "


def failed_binary_audits(name, key, audit):
    """A failed pass/fail audit's findings: one line, or for the back/forward cache one per failure the page
    causes (its protocol reason), none for a failure no page causes."""
    if key != "bf-cache":
        return [f"{name}: {key} {audit['score']} {audit.get('displayValue', '')}"]
    return [f"{back_forward_cache_finding(name)}{item['protocolReason']} ({item['failureType']})"
            for item in audit.get("details", {}).get("items", []) if item["failureType"] != NOT_ACTIONABLE]


def steady_findings(name, report, origin):
    """What a page gets wrong that no host load explains: a steady category below 100 (with its failing audits),
    a failed pass/fail audit, a render-blocking resource but the site's stylesheet, more bytes than the budget, a
    request to another host; and any of those audits Lighthouse failed to run (its error is no pass)."""
    findings = [f"{name}: {key} {report['categories'][key]['score']}" for key in STEADY_CATEGORIES
                if report["categories"][key]["score"] != 1]
    findings += [f"{name}: {key} not judged: {report['audits'][key].get('errorMessage', '')}"
                 for key in GATE_PERFORMANCE_AUDITS if report["audits"][key].get("scoreDisplayMode") == "error"]
    for key, audit in report["audits"].items():
        if audit.get("score") is not None and audit["score"] < 1 and audit.get("scoreDisplayMode") == "binary":
            findings += failed_binary_audits(name, key, audit)
    findings += [f"{name}: render-blocking {url}" for url in render_blocking_resources(report, origin)]
    weight = report["audits"]["total-byte-weight"].get("numericValue")  # none when not judged
    if weight is not None and weight > BUDGET_BYTES:
        findings.append(f"{name}: {weight:.0f} bytes, over the budget of {BUDGET_BYTES}")
    # The brand font swaps in for a fallback of its metrics: nothing moves (issue 44).
    shift = report["audits"]["cumulative-layout-shift"].get("numericValue")
    if shift:
        findings.append(f"{name}: layout shift {shift}")
    requests = report["audits"]["network-requests"].get("details", {}).get("items", [])
    findings += [f"{name}: request to {item['url']}" for item in requests
                 if not item["url"].startswith(origin) and not item["url"].startswith("data:")]
    return findings


def back_forward_cache_only(name, findings):
    """Whether a page's findings are all back/forward-cache failures: the one kind whose outcome depends on the
    browser's timing (whether a cookie change reaches the page before or after it is put in the cache, on a busy
    host), so the gate runs such a page once more and judges the second run."""
    return bool(findings) and all(finding.startswith(back_forward_cache_finding(name)) for finding in findings)

