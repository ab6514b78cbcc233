"""Markup rendered once per language and context and kept (core/remembered_markup.py): the header and footer,
signup links, catalogue rows. A page shows the markup of its own context, never another page's or another
language's, and the memory stays bounded in bytes."""
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.functional import lazy
from django.utils.safestring import mark_safe

from catalog.models import GPU
from core import site_parts
from core.remembered_markup import RememberedMarkup, frozen, remembered_markup
from workloads.models import Workload

from .html import parse
from .localized_urls import url_in


def test_equal_keys_only_for_values_that_render_the_same():
    assert frozen({"a": [1, "x"], "b": None}) == frozen({"b": None, "a": (1, "x")})
    # A safe string is written as it is, a plain one escaped: "a&b" renders two ways.
    assert frozen("a&b") != frozen(mark_safe("a&b"))
    assert frozen(1) != frozen("1") and frozen(True) != frozen(1)
    with translation.override("de"):
        german = frozen(lazy(translation.gettext, str)("Home"))
    with translation.override("en"):
        english = frozen(lazy(translation.gettext, str)("Home"))
    assert german != english
    with pytest.raises(TypeError):
        frozen({"gpu": object()})

    @dataclass(frozen=True)
    class Row:
        name: str
        cells: tuple

    @dataclass
    class MutableRow:
        name: str

    assert frozen(Row("H100", ("80 GB",))) == frozen(Row("H100", ["80 GB"]))
    assert frozen(Row("H100", ("80 GB",))) != frozen(Row("H200", ("80 GB",)))
    with pytest.raises(TypeError):
        frozen(MutableRow("H100"))


def test_the_least_recently_used_markup_is_dropped_beyond_the_bound():
    regions = RememberedMarkup(max_bytes=2)
    renders = []

    def render(text):
        renders.append(text)
        return text

    for key in ("a", "b", "a", "c", "a", "b"):
        assert regions.get_or_render(key, lambda key=key: render(key)) == key
    # "b" was the least recently used when "c" came, and was rendered again.
    assert renders == ["a", "b", "c", "b"]
    assert len(regions.entries) == 2 and regions.size == 2
    regions.get_or_render("long", lambda: ("abc", "d"))  # 4 bytes: alone beyond the bound, dropped at once
    assert regions.size == 0 and not regions.entries


def test_each_page_shows_its_own_current_link_and_language(client, launch_content, settings):
    settings.PAGE_CACHE_ENABLED = False
    remembered_markup.clear()
    workloads = list(Workload.objects.filter(key__in=("llm-training", "llm-inference")))
    for _round in range(2):  # the second round is served the kept markup
        for workload in workloads:
            for language in ("en", "de"):
                header = parse(client.get(workload.get_absolute_url(language)).content.decode()).find("header")
                current = header.find_all("a", aria_current="page")
                assert [link.text for link in current] == [getattr(workload, f"title_{language}")]
                assert header.find("details", class_="language-switcher").find("span", lang=language).text == (
                    language.upper())
    regions = [key for key in remembered_markup.entries if key[1] in ("includes/storefront/header.html",
                                                                       "includes/footer.html")]
    assert len(regions) == 2 * 2 * len(workloads)  # the header and footer of each page


def test_a_region_with_a_value_that_is_not_plain_is_rendered_every_time(monkeypatch):
    calls = []

    def context(_page_context):
        calls.append(1)
        return {"thing": object()}

    monkeypatch.setitem(site_parts._regions, "test", site_parts.Region("includes/brand_mark.html", context))
    before = len(remembered_markup.entries)
    first = site_parts.render_region("test", {})
    assert site_parts.render_region("test", {}) == first
    assert len(remembered_markup.entries) == before


def page_text(client, address):
    response = client.get(address)
    assert response.status_code == 200, address
    return response.content.decode()


def test_kept_catalogue_rows_comparisons_and_gpu_details_show_a_price_change_at_once(client, launch_content, settings):
    """Kept per content version: an editor's save moves it, and every page shows the new figure at once."""
    settings.PAGE_CACHE_ENABLED = False
    gpu = GPU.objects.get(slug="h100-sxm")
    addresses = [url_in("en", "catalog:gpu_list"), url_in("en", "catalog:gpu_list", {"vendor": "NVIDIA"}),
                 url_in("en", "catalog:compare", [("gpu", "b200"), ("gpu", "h100-sxm")]),
                 url_in("en", "catalog:gpu_detail", slug="h100-sxm")]
    for address in addresses:
        page_text(client, address)
    gpu.price_usd_per_hour = Decimal("987.65")
    gpu.memory_gb = Decimal(81)
    gpu.save()
    for address in addresses:
        text = page_text(client, address)
        assert "$987.65" in text, address
        assert "81 GB" in text, address


def test_a_kept_form_shows_its_own_values_errors_and_language(client, launch_content, settings):
    settings.PAGE_CACHE_ENABLED = False
    for _round in range(2):  # the second round is served the kept markup
        for language, value, shown, error in (("en", "80", "80", False), ("de", "1.000", "1.000", False),
                                              ("en", "1,000", "1,000", False), ("en", "abc", "abc", True),
                                              ("de", "abc", "abc", True)):
            form = parse(page_text(client, url_in(language, "catalog:gpu_list", {"min_memory": value}))).find(
                "form", class_="query-form")
            assert form.find("input", name="min_memory").attrs.get("value") == shown
            assert bool(form.find_all(class_="errorlist")) == error, (language, value)
