"""The Nu HTML Checker (vnu-jar, run with the machine's Java) reports no error on any page."""
import json
import subprocess

import pytest

from .conftest import NODE_MODULES, sitemap_paths

pytestmark = pytest.mark.quality
VNU = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"


def test_every_sitemap_page_and_the_404_page_are_valid_html(client, launch_content, tmp_path):
    paths = sitemap_paths(client) + ["/es/no-such-page/"]
    files = {}
    for number, path in enumerate(paths):
        response = client.get(path)
        assert response.status_code in (200, 404), path
        target = tmp_path / f"page-{number:04d}.html"
        target.write_bytes(response.content)
        files[target.as_uri()] = path
    result = subprocess.run(
        ["java", "-jar", str(VNU), "--errors-only", "--format", "json", *map(str, sorted(tmp_path.glob("*.html")))],
        capture_output=True, text=True, timeout=600,
    )
    messages = json.loads(result.stderr or result.stdout)["messages"]
    errors = [f"{files.get(m.get('url'), m.get('url'))}: {m.get('message')} «{m.get('extract', '')}»" for m in messages]
    assert errors == []
    assert len(files) >= 28
