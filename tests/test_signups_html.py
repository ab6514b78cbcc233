"""The Nu HTML Checker finds no error on the signup pages the sitemap does not list: the forms (empty and
with errors), the follow-up pages and the error pages."""
import json
import subprocess
from pathlib import Path

import pytest

from .localized_urls import url_in

pytestmark = pytest.mark.quality
VNU = Path(__file__).resolve().parent.parent / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


@pytest.mark.skipif(not VNU.exists(), reason="vnu-jar is installed by `make test` (npm ci)")
def test_forms_follow_up_and_error_pages_are_valid_html(client, launch_content, tmp_path):
    responses = {
        "signup form": client.get(url_in("es", "signups:signup")),
        "provider form": client.get(url_in("pt", "signups:provider_application")),
        "signup form with errors": client.post(url_in("de", "signups:signup"), {"email": "bad"}),
        "provider form with errors": client.post(url_in("en", "signups:provider_application"),
                                                 {"email": "bad"}),
        "thanks": client.get(url_in("es", "signups:signup_thanks")),
        "price alert form": client.get(url_in("de", "alerts:price_alert", slug="h100-sxm")),
        "price alert form with errors": client.post(url_in("pt", "alerts:price_alert", slug="h100-sxm"),
                                                    {"email": "bad", "target": "abc"}),
        "price alert thanks": client.get(url_in("es", "alerts:price_alert_thanks", slug="h100-sxm")),
        "invalid link": client.get(url_in("es", "signups:confirm", token="nope")),
        "405": client.put(url_in("es", "signups:signup")),
    }
    files = {}
    for number, (name, response) in enumerate(responses.items()):
        target = tmp_path / f"page-{number}.html"
        target.write_bytes(response.content)
        files[target.as_uri()] = name
    result = subprocess.run(
        ["java", "-jar", str(VNU), "--errors-only", "--format", "json",
         *map(str, sorted(tmp_path.glob("*.html")))],
        check=False, capture_output=True, text=True, timeout=300,
    )
    messages = json.loads(result.stderr or result.stdout)["messages"]
    assert [f"{files.get(m.get('url'), m.get('url'))}: {m.get('message')}" for m in messages] == []
