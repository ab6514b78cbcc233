"""Issue 24's phone-first prices, footer and home chart, measured in real Chromium on the live server with the
launch content, at 375×667 and 1280×800 in every language:
- on the catalogue and every workload page, at 375 px the first GPU's name and price are both inside the viewport
  without scrolling sideways (read from the cards), the signup action beside the price, the full table folded one
  tap away and the deck's swipe sentence hidden; at 1280 px the table shows whole and the cards do not;
- every page's footer shows at least five links (checked on the walk of tests/quality/test_accessibility.py, in
  the same widths);
- the home page's price ladder draws every label at 11 px or more at 375 px, no two overlapping.

Each test walks its pages, collects every problem with the measured numbers and asserts there is none."""
import pytest

from workloads.models import Workload

from ..localized_urls import url_in
from ..sitemap import languages

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
MIN_LABEL_PX = 11

FIRST_CARD = """() => {
  const box = el => { if (!el) return null; const r = el.getBoundingClientRect();
                      return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; };
  // checkVisibility: a closed <details>'s content is laid out on demand, but skipped (content-visibility).
  const shown = el => !!el && el.checkVisibility({visibilityProperty: true});
  const card = document.querySelector('.gpu-cards .gpu-card');
  const row = document.querySelector('table.gpu-table tbody tr');
  const fold = document.querySelector('details.table-fold');
  const hint = document.querySelector('.swipe-hint');
  const firstScreen = card && box(card.querySelector('.gpu-card-price')).bottom;
  // Pages whose introduction is long put the first card lower: scrolled to it, nothing needs a sideways swipe.
  if (card) card.scrollIntoView({block: 'nearest'});
  return {
    firstScreen,
    scrollWidth: document.documentElement.scrollWidth, scrollX: window.scrollX,
    viewport: {width: window.innerWidth, height: window.innerHeight},
    cardShown: shown(card),
    name: card && card.querySelector('.gpu-card-name').textContent.trim(),
    nameBox: card && box(card.querySelector('.gpu-card-name')),
    price: card && card.querySelector('.gpu-card-price').textContent.trim(),
    priceBox: card && box(card.querySelector('.gpu-card-price')),
    action: card && card.querySelector('a.signup-action') && card.querySelector('a.signup-action').href,
    rowName: row && row.querySelector('th').textContent,
    rowShown: shown(row),
    summaryShown: shown(fold && fold.querySelector('summary')),
    hintShown: shown(hint), hintText: hint && hint.textContent.trim(),
  };
}"""


def table_pages():
    paths = [url_in(code, "catalog:gpu_list") for code in languages()]
    for workload in Workload.objects.filter(is_published=True):
        paths += [workload.get_absolute_url(code) for code in workload.page_languages()]
    return paths


def inside(box, viewport):
    return (box is not None and box["width"] > 0 and box["left"] >= 0 and box["right"] <= viewport["width"]
            and box["top"] >= 0 and box["bottom"] <= viewport["height"])


def test_on_a_phone_the_first_gpu_and_its_price_are_in_view_and_the_table_is_one_tap_away(
        live_server, live_launch_content, browser):
    paths = table_pages()
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    problems, lowest_price = [], []
    try:
        for path in paths:
            assert page.goto(live_server.url + path).status == 200, path
            seen = page.evaluate(FIRST_CARD)
            if not seen["cardShown"]:
                problems.append(f"{path}: no GPU card shows at 375 px")
                continue
            if seen["scrollWidth"] > PHONE["width"] or seen["scrollX"]:
                problems.append(f"{path}: the page scrolls sideways ({seen['scrollWidth']} px)")
            for what in ("name", "price"):
                if not inside(seen[f"{what}Box"], seen["viewport"]):
                    problems.append(f"{path}: the first card's {what} “{seen[what]}” is outside the "
                                    f"{PHONE['width']}×{PHONE['height']} viewport: {seen[f'{what}Box']}")
            if seen["nameBox"] and seen["priceBox"] and seen["priceBox"]["top"] >= seen["nameBox"]["bottom"]:
                problems.append(f"{path}: the first price is below its GPU's name, not beside it")
            if not seen["rowName"] or not seen["rowName"].strip().startswith(seen["name"]):
                problems.append(f"{path}: the first card names {seen['name']!r}, the table's first row "
                                f"{seen['rowName']!r}")
            if not seen["action"] or "gpu=" not in seen["action"]:
                problems.append(f"{path}: no signup action with the GPU in the first card ({seen['action']})")
            if seen["rowShown"] or not seen["summaryShown"]:
                problems.append(f"{path}: the table is not folded under a summary (row shown {seen['rowShown']}, "
                                f"summary shown {seen['summaryShown']})")
            if seen["hintShown"]:
                problems.append(f"{path}: the swipe sentence “{seen['hintText']}” shows beside the cards")
            lowest_price.append((seen["firstScreen"], path))
            # One tap opens the full table, whose first row is the first card's GPU.
            page.locator("details.table-fold > summary").click()
            if not page.locator("table.gpu-table tbody tr").first.is_visible():
                problems.append(f"{path}: a tap on the summary does not show the table")
    finally:
        context.close()
    within = sum(bottom <= PHONE["height"] for bottom, _path in lowest_price)
    print(f"{len(paths)} pages; the first price ends in the first screen on {within}; the lowest at "
          f"{max(lowest_price)[0]:.0f} px ({max(lowest_price)[1]})")
    assert len(paths) == 4 + 6 * 4
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)
    assert within == len(paths), sorted(lowest_price)[-5:]  # every first price in the first screen


def test_on_a_desktop_the_table_shows_whole_and_the_cards_do_not(live_server, live_launch_content, browser):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    problems = []
    try:
        for path in table_pages():
            assert page.goto(live_server.url + path).status == 200, path
            seen = page.evaluate(FIRST_CARD)
            if seen["cardShown"] or seen["summaryShown"] or not seen["rowShown"]:
                problems.append(f"{path}: cards shown {seen['cardShown']}, summary shown {seen['summaryShown']}, "
                                f"table row shown {seen['rowShown']}")
            if seen["name"] and page.locator(".swipe-hint").count() and seen["hintShown"]:
                problems.append(f"{path}: the swipe sentence shows at 1280 px")
    finally:
        context.close()
    assert problems == [], "\n".join(problems)


LADDER_LABELS = """() => {
  const svg = document.querySelector('.chart-price-ladder svg');
  if (!svg) return null;
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].map(text => {
    const r = text.getBoundingClientRect();
    return {text: text.textContent, px: parseFloat(getComputedStyle(text).fontSize) * scale,
            left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  });
}"""


def overlapping(labels):
    return [(a["text"], b["text"]) for i, a in enumerate(labels) for b in labels[i + 1:]
            if a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_home_price_ladder_labels_are_legible_and_apart_on_a_phone(
        live_server, live_launch_content, browser, scheme):
    from catalog.models import GPU

    priced = GPU.objects.exclude(price_usd_per_hour=None).count()
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    problems = []
    try:
        for language in languages():
            path = url_in(language, "home")
            page.goto(live_server.url + path)
            labels = page.evaluate(LADDER_LABELS)
            if labels is None:
                problems.append(f"{path}: no price ladder")
                continue
            if len(labels) != 2 * priced:
                problems.append(f"{path}: {len(labels)} labels for {priced} priced GPUs")
            small = [(label["text"], round(label["px"], 2)) for label in labels if label["px"] < MIN_LABEL_PX]
            if small:
                problems.append(f"{path}: labels under {MIN_LABEL_PX} px: {small[:5]}")
            cut = [label["text"] for label in labels if label["left"] < 0 or label["right"] > PHONE["width"]]
            if cut:
                problems.append(f"{path}: labels past the screen's edges: {cut[:5]}")
            if pairs := overlapping(labels):
                problems.append(f"{path}: overlapping labels: {pairs[:5]}")
            # The figures are text too: each price is in the chart's accessible description.
            description = page.locator(".chart-price-ladder desc").text_content()
            for label in labels[1::2]:
                if label["text"] not in description:
                    problems.append(f"{path}: {label['text']!r} is not in the chart's description")
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
