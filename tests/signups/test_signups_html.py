"""The Nu HTML Checker finds no error on the signup pages the sitemap does not list: the forms (empty and
with errors), the follow-up pages and the error pages."""
import pytest

from ..localized_urls import url_in
from ..page_judges import VNU, vnu_errors

pytestmark = pytest.mark.quality


@pytest.mark.skipif(not VNU.exists(), reason="vnu-jar is installed by `make test` (npm ci)")
def test_forms_follow_up_and_error_pages_are_valid_html(client, launch_content, tmp_path):
    responses = {
        "signup form": client.get(url_in("es", "signups:signup")),
        "provider form": client.get(url_in("pt", "providers:application")),
        "signup form with errors": client.post(url_in("de", "signups:signup"), {"email": "bad"}),
        "provider form with errors": client.post(url_in("en", "providers:application"),
                                                 {"email": "bad"}),
        "thanks": client.get(url_in("es", "signups:signup_thanks")),
        "price alert form": client.get(url_in("de", "alerts:price_alert", slug="h100-sxm")),
        "price alert form with errors": client.post(url_in("pt", "alerts:price_alert", slug="h100-sxm"),
                                                    {"email": "bad", "target": "abc"}),
        "price alert thanks": client.get(url_in("es", "alerts:price_alert_thanks", slug="h100-sxm")),
        "invalid link": client.get(url_in("es", "signups:confirm", token="nope")),
        "405": client.put(url_in("es", "signups:signup")),
    }
    bodies = {name: response.content.decode() for name, response in responses.items()}
    assert vnu_errors(bodies, tmp_path, timeout=300) == []
