"""One message: every link to the signup page on every public page says the one primary action of its language,
the deck's "create your account", and the phone header carries one call to action (issue 24)."""
from collections import defaultdict
from urllib.parse import urlsplit

from ..html import parse
from ..localized_urls import url_in

PRIMARY_LABEL = {"en": "Create your account", "es": "Cree su cuenta", "pt": "Crie a sua conta", "de": "Konto erstellen"}


def language_of(path):
    return path.strip("/").split("/")[0]


def test_every_link_to_the_signup_says_the_one_primary_action(db, sitemap_pages):
    labels = defaultdict(set)
    for path, html in sitemap_pages.items():
        language = language_of(path)
        signup = url_in(language, "signups:signup")
        for link in parse(html).find_all("a"):
            href = link.attrs.get("href", "")
            if urlsplit(href).path == signup:
                labels[language].add(link.squashed_text)
    assert set(labels) == set(PRIMARY_LABEL)
    assert {language: sorted(found) for language, found in labels.items()} == {
        language: [label] for language, label in PRIMARY_LABEL.items()}


def test_the_header_carries_one_call_to_action(db, sitemap_pages):
    for path, html in sitemap_pages.items():
        header = parse(html).find("header")
        signup = url_in(language_of(path), "signups:signup")
        actions = [link for link in header.find_all("a") if urlsplit(link.attrs.get("href", "")).path == signup]
        assert len(actions) <= 1, path
