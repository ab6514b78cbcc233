"""The security headers the site sets on its responses, asserted on one response: a Content-Security-Policy that
allows nothing by default, no inline code or eval, no plugins and no other base URI; no framing (frame-ancestors and
X-Frame-Options), no MIME sniffing, and the referrer and cross-origin resource policies."""


def assert_security_headers(response):
    csp = response["Content-Security-Policy"]
    directives = dict(([*part.strip().split(" ", 1), ""])[:2] for part in csp.split(";"))
    assert directives["default-src"] == "'none'"
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'none'"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert response["Cross-Origin-Resource-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
