"""What the Lighthouse gate counts against a page (tests/quality/lighthouse.py, steady_findings), on reports written
here in Lighthouse's shape: a back/forward-cache failure the page causes is a finding, one of the browser's own
state (Lighthouse's "Not actionable", e.g. the cache timing out on a busy host) is not."""
import pytest

from ..quality.first_visit import BUDGET_BYTES
from ..quality.lighthouse import NOT_ACTIONABLE, STEADY_CATEGORIES, back_forward_cache_only, steady_findings

ORIGIN = "http://127.0.0.1:8123"


def report(bf_cache_failures=(), byte_weight=BUDGET_BYTES // 2, other_audits=None):
    """A report of a page with nothing wrong but the given back/forward-cache failures ((reason, type) pairs)."""
    bf_cache = {"score": 1, "scoreDisplayMode": "binary"}
    if bf_cache_failures:
        bf_cache = {"score": 0, "scoreDisplayMode": "binary",
                    "displayValue": f"{len(bf_cache_failures)} failure reasons",
                    "details": {"items": [{"reason": reason, "protocolReason": reason, "failureType": failure_type}
                                          for reason, failure_type in bf_cache_failures]}}
    return {
        "categories": {key: {"score": 1} for key in ("performance", *STEADY_CATEGORIES)},
        "audits": {
            "bf-cache": bf_cache,
            "render-blocking-resources": {"score": 1, "scoreDisplayMode": "metricSavings", "details": {"items": []}},
            "total-byte-weight": {"score": 1, "scoreDisplayMode": "numeric", "numericValue": byte_weight},
            "cumulative-layout-shift": {"score": 1, "scoreDisplayMode": "numeric", "numericValue": 0},
            "network-requests": {"score": None, "scoreDisplayMode": "informative",
                                 "details": {"items": [{"url": ORIGIN + "/es/"}, {"url": "data:image/png,"}]}},
            **(other_audits or {}),
        },
    }


def test_a_page_with_nothing_wrong_has_no_finding():
    assert steady_findings("home", report(), ORIGIN) == []


def test_a_back_forward_cache_failure_of_the_browsers_own_state_is_no_finding():
    circumstantial = [("TimeoutPuttingInCache", NOT_ACTIONABLE), ("CacheLimit", NOT_ACTIONABLE)]
    assert steady_findings("price alert", report(circumstantial), ORIGIN) == []


@pytest.mark.parametrize("failure_type", ["Actionable", "Pending browser support"])
def test_a_back_forward_cache_failure_the_page_causes_is_a_finding_naming_its_reason(failure_type):
    failures = [("MainResourceHasCacheControlNoStore", failure_type), ("TimeoutPuttingInCache", NOT_ACTIONABLE),
                ("UnloadHandlerExistsInMainFrame", failure_type)]
    findings = steady_findings("price alert", report(failures), ORIGIN)
    assert findings == [f"price alert: bf-cache {reason} ({kind})" for reason, kind in failures
                        if kind != NOT_ACTIONABLE]


def test_other_failures_stay_findings_beside_a_back_forward_cache_failure_of_the_browser():
    failed_audit = {"is-crawlable": {"score": 0, "scoreDisplayMode": "binary", "displayValue": ""}}
    page = report([("TimeoutPuttingInCache", NOT_ACTIONABLE)], byte_weight=BUDGET_BYTES + 1, other_audits=failed_audit)
    page["categories"]["seo"]["score"] = 0.92
    page["audits"]["network-requests"]["details"]["items"].append({"url": "https://fonts.example/font.woff2"})
    assert steady_findings("gpu", page, ORIGIN) == [
        "gpu: seo 0.92", "gpu: is-crawlable 0 ",
        f"gpu: {BUDGET_BYTES + 1} bytes, over the budget of {BUDGET_BYTES}",
        "gpu: request to https://fonts.example/font.woff2",
    ]


def blocking_audit(*urls):
    """The render-blocking audit of a report listing ``urls``, each estimated to delay the first paint."""
    return {"render-blocking-resources": {
        "score": 0, "scoreDisplayMode": "metricSavings", "metricSavings": {"FCP": 50, "LCP": 50},
        "details": {"items": [{"url": url, "wastedMs": 154} for url in urls]}}}


def test_a_page_is_run_again_only_when_its_findings_are_all_back_forward_cache_failures():
    cookie = [("CacheControlNoStoreCookieModified", "Actionable")]
    assert back_forward_cache_only("price alert", steady_findings("price alert", report(cookie), ORIGIN))
    assert not back_forward_cache_only("home", steady_findings("home", report(), ORIGIN))
    both = steady_findings("price alert", report(cookie, other_audits=blocking_audit(ORIGIN + "/static/site.css")),
                           ORIGIN)
    assert len(both) == 2 and not back_forward_cache_only("price alert", both)
    heavy = steady_findings("gpu", report(byte_weight=BUDGET_BYTES + 1), ORIGIN)
    assert heavy and not back_forward_cache_only("gpu", heavy)


def test_every_render_blocking_resource_but_the_sites_stylesheet_is_a_finding():
    stylesheet = "/static/css/site.7d716b5c0eac.css"
    assert steady_findings("home", report(other_audits=blocking_audit(ORIGIN + stylesheet)), ORIGIN) == []
    others = [ORIGIN + path for path in ("/static/css/print.7d716b5c0eac.css", "/static/js/menu.0123456789ab.js",
                                         "/static/css/site.css")]
    # Another host's file of the same name is no stylesheet of the site's.
    others.append("https://cdn.example" + stylesheet)
    assert steady_findings("home", report(other_audits=blocking_audit(ORIGIN + stylesheet, *others)), ORIGIN) == [
        f"home: render-blocking {url}" for url in others]


@pytest.mark.parametrize("audit", ["render-blocking-resources", "total-byte-weight", "network-requests", "bf-cache"])
def test_an_audit_the_gate_asserts_that_lighthouse_could_not_run_is_a_finding(audit):
    page = report()
    page["audits"][audit] = {"score": None, "scoreDisplayMode": "error",
                             "errorMessage": "Cannot read properties of undefined (reading 'frame_sequence')"}
    findings = steady_findings("training", page, ORIGIN)
    assert findings == [f"training: {audit} not judged: Cannot read properties of undefined (reading 'frame_sequence')"]


def test_any_layout_shift_is_a_finding():
    shifted = {"cumulative-layout-shift": {"score": 1, "scoreDisplayMode": "numeric", "numericValue": 0.002}}
    assert steady_findings("home", report(other_audits=shifted), ORIGIN) == ["home: layout shift 0.002"]
