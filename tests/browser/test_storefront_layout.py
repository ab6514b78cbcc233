"""Issue 12's layout, measured in real Chromium on the live server with the launch content: on a desktop
every column of every table shows without scrolling sideways; on a phone the heading is in the first
screen, the page never scrolls sideways and a wide table scrolls inside its box with its GPU column
pinned; the header's menus work without JavaScript; the dark colour scheme keeps the text readable.

Each test uses one browser context and walks its pages, collects every problem with the measured
numbers and asserts there is none, so one run shows everything that is wrong."""
import struct
import subprocess
from pathlib import Path

import pytest

from workloads.models import Workload

from ..localized_urls import url_in
from ..sitemap import assert_sitemap_is_complete, judged_paths, languages, sitemap_paths

pytestmark = pytest.mark.browser

PROJECT_DIR = Path(__file__).resolve().parent.parent.parent
SCREENSHOTS = PROJECT_DIR / "test-results"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 667}
H1_TOP_MAX_PX = 240
# A 70-billion-parameter model, full training: the calculator's results table lists every GPU.
CALCULATOR_QUERY = {"size": "70", "method": "full_adam"}
# Three GPUs, the longest name among them, with a workload's sizing rows: the fullest comparison.
COMPARED_GPUS = ["h100-sxm", "mi300x", "rtx-pro-6000-blackwell"]
COMPARE_QUERY = [("gpu", slug) for slug in COMPARED_GPUS] + [("workload", "llm-training")]
MENU = "header.site-header details.nav-menu"
MIN_CONTRAST = 4.5


def workload_paths():
    return [workload.get_absolute_url(code)
            for workload in Workload.objects.filter(is_published=True) for code in workload.page_languages()]


def wait_for_fonts(page):
    page.evaluate("() => document.fonts.ready.then(() => true)")


# Elements reaching past the right edge of the page outside any box of their own that scrolls or clips:
# content the page cuts off, which the body's `overflow-x: hidden` would keep out of scrollWidth. A
# statement to start a function body with.
CUT_OFF = r"""
  const cutOff = () => {
    const width = document.documentElement.clientWidth, found = [];
    for (const el of document.body.querySelectorAll('*')) {
      const rect = el.getBoundingClientRect();
      if (!rect.width || !rect.height || rect.right <= width + 1) continue;
      let inBox = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') { inBox = true; break; }
      }
      if (inBox || found.some(f => f.el.contains(el))) continue;
      found.push({el, text: `${el.tagName.toLowerCase()}${[...el.classList].map(c => '.' + c).join('')}`
                            + ` “${el.textContent.replace(/\s+/g, ' ').trim().slice(0, 30)}”`
                            + ` right edge at ${Math.round(rect.right)} px`});
    }
    return found.map(f => f.text);
  };
"""
# A table's name in messages: the heading that labels its scroll box, or its position and classes.
TABLE_NAME = """
  const tableName = (table, box, index) => {
    const label = box.getAttribute('aria-labelledby')
      && document.getElementById(box.getAttribute('aria-labelledby'));
    return (label ? label.textContent.trim().slice(0, 40) : '')
      || `table ${index + 1}.${[...table.classList].join('.')}`;
  };
"""
# Every table of the page, measured against its scroll box (the .table-scroll around it, or its parent).
MEASURE_TABLES = "() => {" + CUT_OFF + TABLE_NAME + """
  return {
    cutOff: cutOff(),
    docScrollWidth: document.documentElement.scrollWidth,
    docClientWidth: document.documentElement.clientWidth,
    tables: [...document.querySelectorAll('table')].map((table, index) => {
      const box = table.closest('.table-scroll') || table.parentElement;
      return {name: tableName(table, box, index), table: table.getBoundingClientRect().width, box: box.clientWidth};
    }),
  };
}"""


def test_every_table_shows_all_its_columns_on_a_desktop(live_server, live_launch_content, browser):
    """1280×800: workload pages, the catalogue, the calculator's results and a three-GPU comparison, in
    every language: no table is wider than its scroll box and the page does not scroll sideways."""
    paths = workload_paths()
    for code in languages():
        paths += [url_in(code, "catalog:gpu_list"), url_in(code, "estimator:calculator", CALCULATOR_QUERY),
                  url_in(code, "catalog:compare", COMPARE_QUERY)]
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    problems, tables_measured, widest = [], 0, []
    try:
        for path in paths:
            response = page.goto(live_server.url + path)
            assert response.status == 200, path
            wait_for_fonts(page)
            measured = page.evaluate(MEASURE_TABLES)
            if not measured["tables"]:
                problems.append(f"{path}: no table found")
            for table in measured["tables"]:
                tables_measured += 1
                widest.append((table["table"] - table["box"], path, table["name"]))
                if table["table"] > table["box"] + 0.5:
                    problems.append(f"{path}: “{table['name']}” is {table['table']:.1f} px wide in a "
                                    f"{table['box']} px box ({table['table'] - table['box']:.1f} px hidden)")
            if measured["docScrollWidth"] > measured["docClientWidth"]:
                problems.append(f"{path}: the page scrolls sideways, {measured['docScrollWidth']} px in "
                                f"{measured['docClientWidth']} px")
            if measured["cutOff"]:
                problems.append(f"{path}: cut off at the right edge: {measured['cutOff'][:3]}")
    finally:
        context.close()
    print(f"{len(paths)} pages, {tables_measured} tables; the five widest against their box (table − box px): "
          + ", ".join(f"{excess:+.1f} {path} “{name}”" for excess, path, name in sorted(widest)[-5:]))
    assert len(paths) == 6 * 4 + 3 * 4 and tables_measured >= len(paths)
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)


PHONE_LAYOUT = "() => {" + CUT_OFF + TABLE_NAME + """
  window.scrollTo(0, 0);
  // On a phone a GPU table is folded under its cards: measured as a visitor sees it once opened.
  document.querySelectorAll('details.table-fold').forEach(fold => { fold.open = true; });
  const result = {
    h1: [...document.querySelectorAll('h1')].map(h => h.getBoundingClientRect().top),
    docScrollWidth: document.documentElement.scrollWidth,
    cutOff: cutOff(),
    tables: [],
  };
  document.querySelectorAll('table').forEach((table, index) => {
    const box = table.closest('.table-scroll') || table.parentElement;
    const entry = {
      name: tableName(table, box, index), table: table.getBoundingClientRect().width, box: box.clientWidth,
      overflowX: getComputedStyle(box).overflowX, gpuTable: table.matches('.gpu-table'),
    };
    entry.wide = entry.table > entry.box + 0.5;
    if (entry.wide) {
      box.scrollLeft = 200;
      entry.scrollLeft = box.scrollLeft;
      // Sticky offsets count from the box's padding edge: its border-box left plus its left border.
      const boxLeft = box.getBoundingClientRect().left + box.clientLeft;
      entry.firstCells = entry.gpuTable ? [...table.querySelectorAll('tbody tr')].map(row => {
        const cell = row.cells[0];
        const style = getComputedStyle(cell);
        return {text: cell.textContent.trim().slice(0, 30), offset: cell.getBoundingClientRect().left - boxLeft,
                position: style.position, background: style.backgroundColor, tag: cell.tagName};
      }) : [];
      box.scrollLeft = 0;
    }
    result.tables.push(entry);
  });
  return result;
}"""


def opaque(css_color):
    """A computed background colour that hides what scrolls beneath it: no alpha below 1."""
    return css_color.startswith("rgb(") or (css_color.startswith("rgba(") and css_color.endswith(", 1)"))


def test_phone_heading_in_first_screen_and_tables_scroll_in_their_box(
        live_server, live_launch_content, browser, client, sitemap_pages):
    """375×667, every page type in every language (``judged_paths``): the h1's top is at most 240 px down; the
    page is at most 375 px wide; a table wider than its box scrolls inside the box, and its first column (the GPU
    name of a .gpu-table row) stays at the box's left edge when the box is scrolled 200 px sideways."""
    paths = sitemap_paths(client)
    assert_sitemap_is_complete(paths)
    paths = judged_paths(sitemap_pages, paths)
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    problems, h1_tops, wide_tables, pinned_cells, pages_with_wide_tables = [], [], 0, 0, set()
    try:
        for path in paths:
            response = page.goto(live_server.url + path)
            assert response.status == 200, path
            wait_for_fonts(page)
            measured = page.evaluate(PHONE_LAYOUT)
            if len(measured["h1"]) != 1:
                problems.append(f"{path}: {len(measured['h1'])} h1 elements")
            elif measured["h1"][0] > H1_TOP_MAX_PX:
                problems.append(f"{path}: h1 at {measured['h1'][0]:.0f} px (at most {H1_TOP_MAX_PX})")
            h1_tops += [(top, path) for top in measured["h1"][:1]]
            if measured["docScrollWidth"] > PHONE["width"]:
                problems.append(f"{path}: the page is {measured['docScrollWidth']} px wide, "
                                f"wider than {PHONE['width']}")
            if measured["cutOff"]:
                problems.append(f"{path}: cut off at the right edge: {measured['cutOff'][:3]}")
            for table in measured["tables"]:
                if not table["wide"]:
                    continue
                wide_tables += 1
                pages_with_wide_tables.add(path)
                where = f"{path}: “{table['name']}” ({table['table']:.0f} px in a {table['box']} px box)"
                if table["overflowX"] not in ("auto", "scroll") or not table["scrollLeft"]:
                    problems.append(f"{where} does not scroll in its box (overflow-x {table['overflowX']}, "
                                    f"scrollLeft {table['scrollLeft']} after setting 200)")
                    continue
                for cell in table["firstCells"]:
                    pinned_cells += 1
                    if abs(cell["offset"]) > 1:
                        problems.append(f"{where}: first cell “{cell['text']}” is {cell['offset']:.1f} px from "
                                        f"the box's left after scrolling {table['scrollLeft']} px "
                                        f"(position {cell['position']})")
                        break
                    if not opaque(cell["background"]):
                        problems.append(f"{where}: pinned cell “{cell['text']}” has background "
                                        f"{cell['background']}: the scrolled cells show through it")
                        break
    finally:
        context.close()
    h1_tops.sort()
    print(f"{len(paths)} pages; h1 top from {h1_tops[0][0]:.0f} px ({h1_tops[0][1]}) to {h1_tops[-1][0]:.0f} px "
          f"({h1_tops[-1][1]}); {wide_tables} tables wider than their box, {pinned_cells} first cells checked")
    missing = sorted(set(workload_paths()) - pages_with_wide_tables)
    assert not missing, f"workload pages whose table does not scroll in its box: {missing}"
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)


@pytest.fixture
def no_script_phone(browser):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    yield page
    context.close()


def tab_to(page, selector, presses=20):
    """Press Tab until the focused element matches ``selector``; how many presses it took."""
    for count in range(1, presses + 1):
        page.keyboard.press("Tab")
        if page.locator(f"{selector}:focus").count():
            return count
    raise AssertionError(f"{presses} presses of Tab never reached {selector}")


def test_header_menu_opens_without_javascript_by_pointer_and_keyboard(
        live_server, live_launch_content, no_script_phone):
    """375×667, JavaScript off: the workload links are in a closed <details> and hidden; a click on its
    summary shows them; Tab reaches the summary, Enter or Space opens it, the next Tab is the first link."""
    page = no_script_phone
    language = "es"
    url = live_server.url + Workload.objects.get(key="llm-training").get_absolute_url(language)
    page.goto(url)
    menu = page.locator(MENU)
    links = page.locator(f"{MENU} a")
    expected = sorted(w.get_absolute_url(language) for w in Workload.objects.filter(is_published=True)
                      if w.has_page_in(language))
    assert sorted(links.nth(i).get_attribute("href") for i in range(links.count())) == expected
    # Closed by default: no workload link shows.
    assert menu.get_attribute("open") is None
    assert [links.nth(i).is_visible() for i in range(links.count())] == [False] * len(expected)
    # A click on the summary shows them all, and a second click hides them again.
    page.locator(f"{MENU} > summary").click()
    assert menu.get_attribute("open") is not None
    assert [links.nth(i).is_visible() for i in range(links.count())] == [True] * len(expected)
    page.locator(f"{MENU} > summary").click()
    assert not links.first.is_visible()

    for key in ("Enter", " "):
        page.goto(url)
        tab_to(page, f"{MENU} > summary")
        page.keyboard.press(key)
        assert menu.get_attribute("open") is not None, f"{key!r} on the summary did not open the menu"
        assert links.first.is_visible()
        page.keyboard.press("Tab")
        assert page.locator(f"{MENU} a:focus").get_attribute("href") == links.first.get_attribute("href"), key


def test_header_marks_the_current_workload_and_nothing_on_the_comparison(
        live_server, live_launch_content, no_script_phone):
    """On each workload page (every language) its own menu link carries aria-current="page", no other does;
    on the comparison page for a workload (its view has a ``workload`` variable) no menu link does."""
    page = no_script_phone
    current = page.locator(f"{MENU} a[aria-current='page']")
    problems, visited = [], 0
    for path in workload_paths():
        page.goto(live_server.url + path)
        visited += 1
        marked = [current.nth(i).get_attribute("href") for i in range(current.count())]
        if marked != [path]:
            problems.append(f"{path}: menu links marked current: {marked}")
        if page.locator(f"{MENU} a[href='{path}']").count() != 1:
            problems.append(f"{path}: the menu has no link to this page")
    for code in languages():
        path = url_in(code, "catalog:compare", {"workload": "llm-training"})
        page.goto(live_server.url + path)
        visited += 1
        if page.locator("table").count() == 0:
            problems.append(f"{path}: no comparison shown")
        marked = [current.nth(i).get_attribute("href") for i in range(current.count())]
        if marked:
            problems.append(f"{path}: menu links marked current on the comparison page: {marked}")
        # Whatever the header's markup, none of its links to a workload page claims to be this page.
        header_marked = page.locator("header.site-header a[aria-current='page']")
        hrefs = [header_marked.nth(i).get_attribute("href") for i in range(header_marked.count())]
        wrong = [href for href in hrefs if href in set(workload_paths())]
        if wrong:
            problems.append(f"{path}: header links to workload pages marked current: {wrong}")
    assert visited == 6 * 4 + 4
    assert problems == [], "\n".join(problems)


# The colours a reader sees, resolved by the browser: any CSS colour drawn on a canvas gives sRGB bytes;
# an element's background is its own composited over its ancestors' and the canvas (Canvas system colour).
COLOURS = """() => {
  const ctx = document.createElement('canvas').getContext('2d', {willReadFrequently: true});
  const rgba = css => { ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = css;
                        ctx.fillRect(0, 0, 1, 1);
                        const d = ctx.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2], d[3] / 255]; };
  const probe = document.createElement('div'); probe.style.backgroundColor = 'Canvas';
  document.documentElement.append(probe);
  const canvas = rgba(getComputedStyle(probe).backgroundColor); probe.remove();
  const background = el => {
    const layers = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      layers.push(rgba(getComputedStyle(node).backgroundColor));
    }
    let [r, g, b] = canvas;
    for (const [lr, lg, lb, la] of layers.reverse()) {
      r = lr * la + r * (1 - la); g = lg * la + g * (1 - la); b = lb * la + b * (1 - la);
    }
    return [r, g, b];
  };
  const sample = selector => { const el = document.querySelector(selector);
    return el ? {selector, color: rgba(getComputedStyle(el).color), background: background(el)} : null; };
  return {
    // The page's own background: the body's, or the root's when the body's is transparent (CSS paints
    // the canvas with the root's background, or the body's when the root has none).
    bodyBackground: [document.body, document.documentElement].map(el => getComputedStyle(el).backgroundColor)
                    .find(c => rgba(c)[3] > 0) || 'transparent',
    pageBackground: background(document.body),
    text: ['body', 'h1', 'main p', 'main a', 'header.site-header a', 'main td'].map(sample).filter(Boolean),
  };
}"""


def luminance(rgb):
    def channel(value):
        value /= 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(foreground, background):
    # The text colour composited over its background, as it is drawn.
    alpha = foreground[3]
    drawn = [f * alpha + b * (1 - alpha) for f, b in zip(foreground[:3], background, strict=True)]
    light, dark = sorted((luminance(drawn), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def png_size(path):
    with open(path, "rb") as png:
        header = png.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", header[16:24])


def test_screenshots_light_and_dark_and_the_dark_scheme_keeps_text_readable(
        live_server, live_launch_content, browser):
    """Full-page screenshots into test-results/ (ignored by git) of the home page and the LLM-training
    page in Spanish, at 375×667 and 1280×800, light and dark; the dark scheme changes the page's computed
    background (the body's, or the root's it propagates from) from a light to a dark one, and the body
    text, heading, paragraphs, links and table cells keep a contrast of at least 4.5:1 in both schemes."""
    pages = {
        "home": url_in("es", "home"),
        "llm-training": Workload.objects.get(key="llm-training").get_absolute_url("es"),
    }
    viewports = {"375": PHONE, "1280": DESKTOP}
    SCREENSHOTS.mkdir(exist_ok=True)
    colours, problems, files = {}, [], []
    for width, viewport in viewports.items():
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport=viewport, color_scheme=scheme, device_scale_factor=1)
            page = context.new_page()
            try:
                for name, path in pages.items():
                    page.goto(live_server.url + path)
                    wait_for_fonts(page)
                    measured = page.evaluate(COLOURS)
                    colours[name, width, scheme] = measured
                    for sample in measured["text"]:
                        ratio = contrast(sample["color"], sample["background"])
                        if ratio < MIN_CONTRAST:
                            problems.append(f"{name} {width} {scheme}: {sample['selector']} contrast {ratio:.2f} "
                                            f"({sample['color']} on {[round(v) for v in sample['background']]})")
                    target = SCREENSHOTS / f"{name}-es-{width}-{scheme}.png"
                    page.screenshot(path=str(target), full_page=True)
                    files.append(target)
                    shot_width, shot_height = png_size(target)
                    if shot_width != viewport["width"] or shot_height < viewport["height"]:
                        problems.append(f"{target.name}: {shot_width}×{shot_height} px")
            finally:
                context.close()
    for name in pages:
        for width in viewports:
            light, dark = colours[name, width, "light"], colours[name, width, "dark"]
            declared = light["bodyBackground"], dark["bodyBackground"]
            if declared[0] == declared[1] or "transparent" in declared:
                problems.append(f"{name} {width}: the page's background (body or root) is {declared[0]} light "
                                f"and {declared[1]} dark")
            if luminance(dark["pageBackground"]) > 0.1 or luminance(light["pageBackground"]) < 0.5:
                problems.append(f"{name} {width}: page background light "
                                f"{[round(v) for v in light['pageBackground']]}, "
                                f"dark {[round(v) for v in dark['pageBackground']]}")
    print("page backgrounds:", {f"{n}-{w}-{s}": c["bodyBackground"] for (n, w, s), c in colours.items()})
    # The screenshots are the run's output, never the repository's (checked in a git checkout only).
    if subprocess.run(["git", "rev-parse"], cwd=PROJECT_DIR, check=False, capture_output=True).returncode == 0:
        for target in files:
            relative = str(target.relative_to(PROJECT_DIR))
            if subprocess.run(["git", "check-ignore", "-q", relative], check=False, cwd=PROJECT_DIR).returncode:
                problems.append(f"{relative} is not ignored by git")
    assert len(files) == 8 and all(f.stat().st_size > 1000 for f in files)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_landing_page_first_screen_says_what_it_is_offers_the_action_and_shows_prices(
    live_server, live_launch_content, browser, viewport
):
    """Above the fold, in every language: the one-line heading, the waitlist button and at least three
    live prices, each whole inside the first screen."""
    from storefront.models import FeaturedGPU

    assert FeaturedGPU.objects.filter(gpu__price_usd_per_hour__isnull=False).count() >= 3
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    problems = []
    try:
        for language in languages():
            path = url_in(language, "home")
            page.goto(live_server.url + path)
            first_screen = page.evaluate(
                """(height) => {
                  const inside = el => {
                    const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= height;
                  };
                  return {
                    heading: inside(document.querySelector('h1')),
                    action: [...document.querySelectorAll('main a.cta-button')].filter(inside)
                      .map(a => new URL(a.href).pathname),
                    prices: [...document.querySelectorAll('.price-card-price')].filter(inside)
                      .map(el => el.textContent.trim()),
                  };
                }""",
                viewport["height"],
            )
            signup = url_in(language, "signups:signup")
            if not first_screen["heading"]:
                problems.append(f"{path}: the heading is not whole in the first screen")
            if signup not in first_screen["action"]:
                problems.append(f"{path}: no waitlist button in the first screen ({first_screen['action']})")
            if len(first_screen["prices"]) < 3:
                problems.append(
                    f"{path}: {len(first_screen['prices'])} prices in the first screen: {first_screen['prices']}"
                )
    finally:
        context.close()
    assert problems == []
