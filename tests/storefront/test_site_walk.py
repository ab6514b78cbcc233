"""Every page in the sitemap, in every language: status 200, one <h1>, its language, links that resolve."""
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command

from catalog.loading import read_gpus
from company.models import LegalPage
from workloads.loading import workload_keys
from workloads.models import Workload

from ..html import Page
from ..sitemap import FIXED_PAGES, assert_sitemap_is_complete, languages, sitemap_entries, sitemap_paths


def test_the_sitemap_lists_every_page_of_the_launch_content_in_every_language_once(client, launch_content):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/xml")
    paths = sitemap_paths(client)
    assert_sitemap_is_complete(paths)
    # Counted from the files: the launch content has every page in every language.
    pages = len(FIXED_PAGES) + len(LegalPage.URL_NAMES) + len(workload_keys()) + len(read_gpus())
    assert len(paths) == pages * len(languages())


def test_an_unpublished_workload_leaves_the_sitemap_in_every_language(client, launch_content):
    inference = Workload.objects.get(key="llm-inference")
    its_paths = {inference.get_absolute_url(code) for code in inference.page_languages()}
    assert its_paths <= set(sitemap_paths(client))
    inference.is_published = False
    inference.save()
    paths = sitemap_paths(client)
    assert not its_paths & set(paths)
    assert_sitemap_is_complete(paths)


def test_sitemap_entries_carry_hreflang_alternates_and_x_default(client, launch_content):
    entries = sitemap_entries(client)
    assert entries
    for url, alternates in entries.items():
        assert "x-default" in alternates
        assert url in alternates.values()


def test_every_sitemap_page_and_every_internal_link(client, launch_content, sitemap_pages):
    assert_sitemap_is_complete(list(sitemap_pages))
    checked_links = set(sitemap_pages)
    for path, body in sitemap_pages.items():
        page = Page(body)
        assert len(page.h1) == 1, path
        assert page.lang == path.split("/")[1], path
        assert page.title.strip(), path
        for href in page.links:
            target = urlsplit(href)
            if target.scheme or target.netloc or not target.path or target.path in checked_links:
                continue
            checked_links.add(target.path)
            assert client.get(target.path).status_code == 200, f"{path} links to {href}"
    assert checked_links > set(sitemap_pages), "the pages link to pages the sitemap does not list (forms)"


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

