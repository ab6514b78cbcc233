"""The workload content each process keeps per content version (workloads/cached_content.py): a render with the
page cache off makes no query once it is loaded, and no change is ever missed, even one the version
counter did not see because the cache was emptied."""
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import GPU
from core.pages import language_codes
from workloads.cached_content import workload_content
from workloads.models import Workload

from ..deck import squash
from ..html import Page
from ..localized_urls import url_in


@pytest.fixture
def page_cache_off(settings):
    settings.PAGE_CACHE_ENABLED = False


def get(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def test_a_render_with_the_content_loaded_makes_no_query(client, launch_content, page_cache_off):
    url = Workload.objects.get(key="llm-inference").get_absolute_url("de")
    first, first_queries = get(client, url)
    again, again_queries = get(client, url)
    assert first_queries > 0 and again_queries == 0
    assert again == first


def test_an_editors_save_is_rendered_at_once(client, launch_content, page_cache_off):
    workload = Workload.objects.get(key="fine-tuning")
    url = workload.get_absolute_url("pt")
    get(client, url)
    workload.title_pt = "GPUs para ajuste fino, revisado"
    workload.save()
    page, _queries = get(client, url)
    assert Page(page).h1 == ["GPUs para ajuste fino, revisado"]
    # The header and the cross-links on every other page too.
    other, _queries = get(client, Workload.objects.get(key="llm-training").get_absolute_url("pt"))
    assert "GPUs para ajuste fino, revisado" in other


def test_a_change_the_counter_did_not_see_is_still_rendered_after_the_cache_is_emptied(
        client, launch_content, page_cache_off):
    # An update() sends no signal: only a fresh counter (after Redis restarts, say) can reveal it. The
    # counter starts again from a random number, never from one this process has content for.
    url = Workload.objects.get(key="llm-training").get_absolute_url("es")
    cache.clear()  # the counter starts, and this process loads the content under its first number
    before, _queries = get(client, url)
    GPU.objects.filter(slug="h100-sxm").update(price_usd_per_hour="2.50")
    cache.clear()  # and starts again
    after, _queries = get(client, url)
    assert "desde2,88US$" in squash(before) and "desde2,50US$" in squash(after)


def test_pages_cross_links_and_navigation_follow_each_languages_slug_and_title(client, launch_content,
                                                                              page_cache_off):
    training = Workload.objects.get(key="llm-training")
    german_path = training.get_absolute_url("de")
    get(client, german_path)
    training.slug_de = ""
    training.save()
    rendering = Workload.objects.get(key="rendering-vfx")
    rendering.title_pt = ""
    rendering.save()
    content = workload_content()
    for language in language_codes():
        named = list(Workload.objects.named_in(language))
        assert content.named_in(language) == named
        assert content.with_page_in(language) == [
            workload for workload in named if workload.is_published and getattr(workload, f"slug_{language}")]
    assert training not in content.with_page_in("de") and training in content.named_in("de")
    assert rendering not in content.named_in("pt")
    # The German home names the training workload but links to no page of it; its old address is gone.
    home = Page(client.get(url_in("de", "home")).content.decode())
    training_paths = {training.get_absolute_url(code) for code in training.page_languages()}
    assert training.title_de in "".join(home.text)
    assert not training_paths & set(home.links)
    assert client.get(german_path).status_code == 404
