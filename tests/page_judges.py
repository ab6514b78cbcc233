"""The judges of the pages, as the browser and quality tests run them: axe-core injected into real Chromium, and
the Nu HTML Checker (vnu-jar, with the machine's Java) on the pages' HTML as files (it refuses loopback URLs)."""
import json
import subprocess
from pathlib import Path

# Debian's Chromium, never a downloaded browser. Playwright drives its headless shell (the package
# chromium-headless-shell, the same Blink and V8), as Playwright's own headless runs do: it spends less processor
# time than the full browser on the same pages (docs/decisions/0015). Lighthouse, and Playwright when a test runs
# headed, use the full browser.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
NODE_MODULES = Path(__file__).resolve().parent.parent / "node_modules"
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
VNU = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
# The checker runs once over many pages, a few seconds: Java's quick compiler alone is enough, where the optimising
# one costs more processor time than it saves (docs/benchmarks.md). Code from the quick compiler takes more stack
# than the checker's minimum of 512 KB.
VNU_JAVA_OPTIONS = ["-XX:TieredStopAtLevel=1", "-Xss2m"]
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 375, "height": 800}}
COLOR_SCHEMES = ("light", "dark")
# axe's rules whose findings depend on the colours. The dark scheme changes colours and nothing else
# (tests/site/test_dark_scheme.py), so a page shown in it is judged by these alone: every other rule judged the same
# markup and layout in the light scheme.
COLOUR_RULES = ("color-contrast", "link-in-text-block")


def axe_context(browser, **options):
    """A browser context (``options`` as Playwright's ``new_context`` takes them) whose every document has axe-core
    from its start: the script goes to the browser once, instead of being injected into each page at about the cost
    of a run. The page's CSP is bypassed, as it would block the script."""
    context = browser.new_context(bypass_csp=True, **options)
    context.add_init_script(path=str(AXE))
    return context


def axe_violations(page, selector=None, rules=None):
    """axe-core's violations on the page as loaded (or within the element ``selector`` finds), each {id, impact,
    nodes (the first three)}: of every rule, or of ``rules`` (axe's ids) alone. The page is one of an
    ``axe_context``."""
    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": list(rules)}
    return page.evaluate(
        "async ([selector, options]) => (await axe.run(selector || document, options)).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))",
        [selector, options],
    )


def rules_for(color_scheme):
    """The axe rules that judge a page shown in ``color_scheme``: every one in the light scheme (None), the colour
    rules in the dark."""
    return None if color_scheme == COLOR_SCHEMES[0] else COLOUR_RULES


def axe_problems(path, violations):
    return [f"{path}: {v['id']} ({v['impact']}) at {v['nodes']}" for v in violations]


def axe_problems_in_each_scheme(page, path, selector=None):
    """axe's problems with the page as loaded (or within ``selector``), shown in each colour scheme in turn (the
    site's colours change with no transition, so the scheme holds at once): by every rule in the first, by the
    colour rules in the others. The page is left in the first."""
    problems = []
    for color_scheme in COLOR_SCHEMES:
        page.emulate_media(color_scheme=color_scheme)
        problems += axe_problems(f"{path} ({color_scheme})", axe_violations(page, selector, rules_for(color_scheme)))
    page.emulate_media(color_scheme=COLOR_SCHEMES[0])
    return problems


def vnu_errors(bodies, directory, timeout=600):
    """The Nu HTML Checker's errors on ``bodies`` ({path: HTML}), written as files into ``directory``: one line
    each, "path: message «extract»"."""
    paths = {}  # by file name: the checker writes a file's URL as file:/dir/name, not as_uri()'s file:///dir/name
    for number, (path, body) in enumerate(bodies.items()):
        target = directory / f"page-{number:04d}.html"
        target.write_text(body, encoding="utf-8")
        paths[target.name] = path
    result = subprocess.run(
        ["java", *VNU_JAVA_OPTIONS, "-jar", str(VNU), "--errors-only", "--format", "json",
         *map(str, sorted(directory.glob("*.html")))],
        check=False, capture_output=True, text=True, timeout=timeout,
    )
    messages = json.loads(result.stderr or result.stdout)["messages"]
    return [f"{paths.get(m.get('url', '').rpartition('/')[2], m.get('url'))}: {m.get('message')}"
            f" «{m.get('extract', '')}»" for m in messages]


def bodies_of(client, paths):
    """{path: HTML} of each path, each asserted to answer 200: what ``vnu_errors`` judges."""
    bodies = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        bodies[path] = response.content.decode()
    return bodies


def axe_walk(browser, base_url, paths, viewport, prepare=None):
    """axe's problems, in light and dark, on each path at ``viewport`` (a name of ``VIEWPORTS``), and any page wider
    than its screen (tables scroll inside their region; a page never scrolls sideways). ``prepare(page)`` runs on
    each page before it is judged."""
    context = axe_context(browser, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    problems = []
    try:
        for path in paths:
            assert page.goto(base_url + path).status == 200, path
            if prepare:
                prepare(page)
            problems += axe_problems_in_each_scheme(page, path)
            width = page.evaluate("() => document.documentElement.scrollWidth")
            if width > VIEWPORTS[viewport]["width"]:
                problems.append(f"{path}: {width} px wide")
    finally:
        context.close()
    return problems


def box_in_first_screen(locator, viewport):
    """Whether ``locator``'s element lies wholly inside the first screen of ``viewport``, and its box."""
    box = locator.bounding_box()
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= viewport["width"] and box["y"] + box["height"] <= viewport["height"]), box
