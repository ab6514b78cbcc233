"""The Nu HTML Checker (vnu-jar, run with the machine's Java) reports no error on any page."""
import json
import subprocess

import pytest

from .conftest import NODE_MODULES, assert_sitemap_is_complete

pytestmark = pytest.mark.quality
VNU = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"


def test_every_sitemap_page_and_the_404_page_are_valid_html(client, launch_content, sitemap_pages, tmp_path):
    assert_sitemap_is_complete(list(sitemap_pages))
    not_found = client.get("/es/no-such-page/")
    assert not_found.status_code == 404
    bodies = {**sitemap_pages, "/es/no-such-page/": not_found.content.decode()}
    files = {}
    for number, (path, body) in enumerate(bodies.items()):
        target = tmp_path / f"page-{number:04d}.html"
        target.write_text(body, encoding="utf-8")
        files[target.as_uri()] = path
    result = subprocess.run(
        ["java", "-jar", str(VNU), "--errors-only", "--format", "json", *map(str, sorted(tmp_path.glob("*.html")))],
        check=False, capture_output=True, text=True, timeout=600,
    )
    messages = json.loads(result.stderr or result.stdout)["messages"]
    errors = [f"{files.get(m.get('url'), m.get('url'))}: {m.get('message')} «{m.get('extract', '')}»" for m in messages]
    assert errors == []
