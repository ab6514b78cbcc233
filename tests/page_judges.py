"""The judges of the pages, as the browser and quality tests run them: axe-core injected into real Chromium, and
the Nu HTML Checker (vnu-jar, with the machine's Java) on the pages' HTML as files (it refuses loopback URLs)."""
import json
import subprocess
from pathlib import Path

NODE_MODULES = Path(__file__).resolve().parent.parent / "node_modules"
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
VNU = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 375, "height": 800}}


def axe_violations(page):
    """axe-core's violations on the page as loaded, each {id, impact, nodes (the first three)}. The browser
    context must bypass the page's CSP, which would block the injected script."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))"
    )


def axe_problems(path, violations):
    return [f"{path}: {v['id']} ({v['impact']}) at {v['nodes']}" for v in violations]


def vnu_errors(bodies, directory, timeout=600):
    """The Nu HTML Checker's errors on ``bodies`` ({path: HTML}), written as files into ``directory``: one line
    each, "path: message «extract»"."""
    paths = {}
    for number, (path, body) in enumerate(bodies.items()):
        target = directory / f"page-{number:04d}.html"
        target.write_text(body, encoding="utf-8")
        paths[target.as_uri()] = path
    result = subprocess.run(
        ["java", "-jar", str(VNU), "--errors-only", "--format", "json", *map(str, sorted(directory.glob("*.html")))],
        check=False, capture_output=True, text=True, timeout=timeout,
    )
    messages = json.loads(result.stderr or result.stdout)["messages"]
    return [f"{paths.get(m.get('url'), m.get('url'))}: {m.get('message')} «{m.get('extract', '')}»" for m in messages]


def box_in_first_screen(locator, viewport):
    """Whether ``locator``'s element lies wholly inside the first screen of ``viewport``, and its box."""
    box = locator.bounding_box()
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= viewport["width"] and box["y"] + box["height"] <= viewport["height"]), box
