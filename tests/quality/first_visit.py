"""What a browser downloads on a first visit to a page: every resource, compressed, headers and body, as headless
Chromium reports them, plus the favicon it does not fetch. The page-weight gates measure with this."""
import time
import urllib.request
from contextlib import contextmanager
from urllib.parse import urljoin, urlsplit

# A first visit: at most 40 KB for the page and its assets, plus at most 60 KB for the brand font (issue 44).
PAGE_BUDGET_BYTES = 40 * 1024
FONT_BUDGET_BYTES = 60 * 1024
BUDGET_BYTES = PAGE_BUDGET_BYTES + FONT_BUDGET_BYTES
ACCEPT_ENCODING = "gzip, deflate, br, zstd"  # what Chromium sends


def icon_bytes(url, sizes):
    """Compressed bytes (headers and body) of a favicon, which a browser fetches on a first visit but
    headless Chromium does not: fetched once per URL (``sizes`` keeps them) with the browser's Accept-Encoding."""
    if url not in sizes:
        request = urllib.request.Request(url, headers={"Accept-Encoding": ACCEPT_ENCODING})
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()  # urllib does not decode: the bytes on the wire
            headers = sum(len(f"{name}: {value}\r\n") for name, value in response.getheaders())
        sizes[url] = len(body) + headers + len("HTTP/1.1 200 OK\r\n\r\n")
    return sizes[url]


def is_font(url):
    return url.split("?")[0].endswith(".woff2")


def over_budget(transferred):
    """What of a first visit ({URL: bytes}) exceeds a budget: the fonts, the rest, the whole; [] when nothing."""
    fonts = sum(size for url, size in transferred.items() if is_font(url))
    rest = sum(size for url, size in transferred.items() if not is_font(url))
    return [f"{name} {total} bytes > {budget}" for name, total, budget in (
        ("font", fonts, FONT_BUDGET_BYTES), ("page without the font", rest, PAGE_BUDGET_BYTES),
        ("whole visit", fonts + rest, BUDGET_BYTES)) if total > budget]


@contextmanager
def first_visits(browser):
    """A function of a URL that loads it as a first visit (no HTTP or memory cache carries an asset from one page
    to the next) on a phone and returns {resource URL: bytes transferred}; it asserts the page answered 200."""
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    finished, icon_sizes = [], {}

    def record(request):  # Playwright cannot take a built-in method such as finished.append as a handler
        finished.append(request)

    page.on("requestfinished", record)

    def visit(url):
        finished.clear()
        assert page.goto(url, wait_until="load").status == 200, url
        # Every resource the page fetched up to its load event has reported its size.
        wanted = set(page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")) | {url}
        deadline = time.monotonic() + 5
        while not wanted <= {request.url for request in finished} and time.monotonic() < deadline:
            page.wait_for_timeout(10)
        transferred = {}
        for request in finished:
            sizes = request.sizes()
            transferred[request.url] = sizes["responseBodySize"] + sizes["responseHeadersSize"]
        for href in page.eval_on_selector_all("link[rel~=icon]", "links => links.map(l => l.href)"):
            transferred.setdefault(urljoin(url, href), icon_bytes(urljoin(url, href), icon_sizes))
        return transferred

    try:
        yield visit
    finally:
        context.close()


def first_visits_of(browser, server, paths):
    """{path: {resource URL: bytes}} of a first visit of each path on ``server``, each asserted to fetch from that
    host only."""
    visits = {}
    with first_visits(browser) as visit:
        for path in paths:
            visits[path] = visit(server + path)
            assert {urlsplit(u).netloc for u in visits[path]} == {urlsplit(server).netloc}, path
    return visits
