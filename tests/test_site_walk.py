"""Every page in the sitemap, in every language: status 200, one <h1>, its language, links that resolve."""
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command

from workloads.models import Workload

from .html import Page

SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML_NS = "{http://www.w3.org/1999/xhtml}"


def sitemap_paths(client):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/xml")
    root = ET.fromstring(response.content)
    return root, [urlsplit(url.find(SITEMAP_NS + "loc").text).path for url in root.iter(SITEMAP_NS + "url")]


def test_sitemap_lists_every_published_page_in_every_language_it_exists_in(client, launch_content):
    _root, paths = sitemap_paths(client)
    assert len(paths) == len(set(paths))
    for language in ("es", "pt", "de", "en"):
        assert f"/{language}/" in paths
    for workload in Workload.objects.filter(is_published=True):
        for language in workload.page_languages():
            assert workload.get_absolute_url(language) in paths
    for workload in Workload.objects.filter(is_published=False):
        assert not any(workload.get_absolute_url(code) in paths for code in ("es", "pt", "de") if getattr(workload, f"slug_{code}"))


def test_sitemap_entries_carry_hreflang_alternates_and_x_default(client, launch_content):
    root, _paths = sitemap_paths(client)
    for url in root.iter(SITEMAP_NS + "url"):
        links = {link.get("hreflang"): link.get("href") for link in url.iter(XHTML_NS + "link")}
        assert "x-default" in links
        assert url.find(SITEMAP_NS + "loc").text in links.values()


def test_every_sitemap_page_and_every_internal_link(client, launch_content):
    _root, paths = sitemap_paths(client)
    checked_links = set()
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        page = Page(response.content.decode())
        assert len(page.h1) == 1, path
        assert page.lang == path.split("/")[1], path
        assert page.title.strip(), path
        for href in page.links:
            target = urlsplit(href)
            if target.scheme or target.netloc or not target.path or target.path in checked_links:
                continue
            checked_links.add(target.path)
            assert client.get(target.path).status_code == 200, f"{path} links to {href}"
    assert checked_links


@pytest.mark.parametrize("accept_language, prefix", [
    ("pt-BR,pt;q=0.9,en;q=0.5", "/pt/"), ("de-AT,de;q=0.9", "/de/"), ("es-MX", "/es/"),
    ("en-GB,en;q=0.8", "/en/"), ("fr-FR,fr;q=0.9", "/en/"),
])
def test_root_sends_visitors_to_their_language(client, launch_content, accept_language, prefix):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=accept_language)
    assert response.status_code == 302
    assert response["Location"] == prefix


@pytest.mark.parametrize("language, words", [
    ("es", "Página no encontrada"), ("pt", "Página não encontrada"), ("de", "Seite nicht gefunden"),
])
def test_unknown_paths_get_a_localized_404(client, launch_content, language, words):
    response = client.get(f"/{language}/no-such-page/")
    assert response.status_code == 404
    page = Page(response.content.decode())
    assert page.lang == language
    assert page.h1 == [words]


def test_unpublished_workloads_are_not_linked_and_have_no_page(client, launch_content):
    inference = Workload.objects.get(key="llm-inference")
    inference.is_published = False
    inference.save()
    assert client.get(f"/es/{inference.slug_es}/").status_code == 404
    training = Workload.objects.get(key="llm-training")
    page = Page(client.get(training.get_absolute_url("es")).content.decode())
    assert inference.title_es in "".join(page.text)
    assert f"/es/{inference.slug_es}/" not in page.links


def test_no_model_change_lacks_a_migration(db):
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)

