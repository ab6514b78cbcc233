"""Markup rendered once per language and context and cached (caching/fragments.py, in the ``memory`` alias of
caching/memory.py): the header and footer, signup links, catalogue rows. A page shows the markup of its own context,
never another page's or another language's, and the memory stays bounded in bytes."""
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from django.core.cache import caches
from django.db import connection
from django.template import Context, Template
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import resolve
from django.utils import timezone, translation
from django.utils.functional import lazy
from django.utils.safestring import mark_safe

from caching import fragments
from caching import memory as memory_module
from caching.content_version import bump_content_version, content_version
from caching.fragments import frozen, render_cached_around, with_hole
from caching.memory import ENTRY_BYTES, MemoryCache
from catalog.catalogue import priced_gpus
from catalog.current_gpus import current_gpus
from catalog.models import GPU
from catalog.views import query_paths
from core import site_parts
from core.pages import page_context
from estimator.models import ModelPreset
from workloads.models import Workload

from ..html import parse
from ..localized_urls import url_in


def test_equal_keys_only_for_values_that_render_the_same():
    assert frozen({"a": [1, "x"], "b": None}) == frozen({"a": (1, "x"), "b": None})
    # A template may show a dict's items in order: the same items in another order render differently.
    in_order = Template("{% for name, value in d.items %}{{ name }}{% endfor %}")
    first, second = {"a": 1, "b": 2}, {"b": 2, "a": 1}
    assert in_order.render(Context({"d": first})) != in_order.render(Context({"d": second}))
    assert frozen(first) != frozen(second)
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
    memory = MemoryCache("bound-test", {"TIMEOUT": None, "OPTIONS": {"MAX_BYTES": 2 * (ENTRY_BYTES + 1)}})
    memory.clear()
    renders = []

    def render(text):
        renders.append(text)
        return text

    for key in ("a", "b", "a", "c", "a", "b"):  # each entry ENTRY_BYTES and its value's byte
        assert memory.get_or_set(key, lambda key=key: render(key)) == key
    # "b" was the least recently used when "c" came, and was rendered again.
    assert renders == ["a", "b", "c", "b"]
    assert len(memory.entries) == 2 and memory.held == [2 * (ENTRY_BYTES + 1)]
    memory.set("long", ("abc", "d" * ENTRY_BYTES * 2))  # alone beyond the bound: never stored, nothing else dropped
    assert memory.get("long") is None and len(memory.entries) == 2 and memory.held == [2 * (ENTRY_BYTES + 1)]


def test_the_memory_cache_keeps_values_as_they_are_and_counts_their_strings():
    memory = MemoryCache("size-test", {"TIMEOUT": None, "OPTIONS": {"MAX_BYTES": 10_000}})
    memory.clear()

    @dataclass(frozen=True)
    class Row:
        card: str
        cells: tuple

    row = Row("x" * 100, ("y" * 50, Decimal("1.5"), None))
    memory.set(("row", 1), row, version=7)
    assert memory.get(("row", 1), version=7) is row  # not a copy: nothing pickled
    assert memory.get(("row", 1), version=8) is None  # another content version finds nothing
    assert memory.held == [ENTRY_BYTES + 150]  # the row's strings
    memory.set("gpu", object())  # any other object counts a fixed size
    assert memory.held == [ENTRY_BYTES + 150 + ENTRY_BYTES + memory_module.OBJECT_BYTES]


def memory_keys():
    """The keys of what this process cached in its ``memory`` alias (without their version)."""
    return [key for key, _version in caches["memory"].entries]


def cached_regions():
    return [key for key in memory_keys() if isinstance(key, tuple) and key[0] == "template"
            and key[1] in ("includes/storefront/header.html", "includes/footer.html")]


def test_each_page_shows_its_own_current_link_and_language(client, launch_content, settings):
    settings.PAGE_CACHE_ENABLED = False
    caches["memory"].clear()
    workloads = list(Workload.objects.filter(key__in=("llm-training", "llm-inference")))
    for _round in range(2):  # the second round is served the kept markup
        for workload in workloads:
            for language in ("en", "de"):
                header = parse(client.get(workload.get_absolute_url(language)).content.decode()).find("header")
                current = header.find_all("a", aria_current="page")
                assert [link.text for link in current] == [getattr(workload, f"title_{language}")]
                assert header.find("details", class_="language-switcher").find("span", lang=language).text == (
                    language.upper())
    assert len(cached_regions()) == 2 * 2 * len(workloads)  # the header and footer of each page


def test_a_region_with_a_value_that_is_not_plain_is_rendered_every_time(monkeypatch):
    calls = []

    def context(_page_context):
        calls.append(1)
        return {"thing": object()}

    monkeypatch.setitem(site_parts._regions, "test", site_parts.Region("includes/brand_mark.html", context))
    before = len(memory_keys())
    first = site_parts.render_region("test", {})
    assert site_parts.render_region("test", {}) == first
    assert len(memory_keys()) == before


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


def kept(kind):
    """The kept markup entries of one kind (the first item of their key)."""
    return [key for key in memory_keys() if isinstance(key, tuple) and key[0] == kind]


def kept_but_for_the_minute(kind, minute_at):
    """The kept entries of one kind, told apart by all but the minute (their key's item ``minute_at``): a test
    that runs across a minute's turn keeps one entry per minute of what it renders."""
    return {key[:minute_at] + key[minute_at + 1:] for key in kept(kind)}


def test_the_catalogue_reads_its_gpus_once_per_content_version_and_minute(launch_content):
    """Whatever the filters and order, a catalogue rendered again reads nothing: the GPUs with their 7-day change
    are read once per content version and minute (two queries), and again after an editor's change."""
    moment = timezone.now().replace(second=5, microsecond=0)
    bump_content_version()
    readings = []
    for at, change_first in ((moment, False), (moment + timedelta(seconds=50), False),
                             (moment + timedelta(minutes=1), False), (moment + timedelta(minutes=1), True)):
        if change_first:
            GPU.objects.filter(slug="h100-sxm").get().save()
        with CaptureQueriesContext(connection) as captured:
            priced = priced_gpus(at)
        readings.append(len(captured))
        assert priced.minute == at.replace(second=0)
    assert readings == [2, 0, 2, 2]


def test_a_catalogue_preset_is_kept_and_any_other_input_rendered_each_time(client, launch_content, settings):
    settings.PAGE_CACHE_ENABLED = False
    caches["memory"].clear()
    page_text(client, url_in("en", "catalog:gpu_list", {"vendor": "NVIDIA", "min_memory": "40"}))
    assert kept("catalogue") == []
    first = page_text(client, url_in("en", "catalog:gpu_list", {"vendor": "NVIDIA"}))
    assert len(kept_but_for_the_minute("catalogue", 2)) == 1
    assert page_text(client, url_in("en", "catalog:gpu_list", {"vendor": "NVIDIA"})) == first
    # The same preset written another way (an empty field, an unknown parameter) is the same page.
    assert page_text(client, url_in("en", "catalog:gpu_list", {"vendor": "NVIDIA", "min_memory": "",
                                                                "utm_source": "x"})) == first
    assert len(kept_but_for_the_minute("catalogue", 2)) == 1


def test_a_gpu_pages_price_block_is_kept_and_its_empty_calculator_forms_follow_the_content(client, launch_content,
                                                                                          settings):
    """The GPU page's price block and history are kept for the minute; the calculator's empty form, which lists the
    model presets, is kept per content version: an editor's rename shows at once."""
    settings.PAGE_CACHE_ENABLED = False
    caches["memory"].clear()
    gpu_page = url_in("en", "catalog:gpu_detail", slug="h100-sxm")
    assert page_text(client, gpu_page) == page_text(client, gpu_page)
    assert len(kept_but_for_the_minute("gpu-page-price", 5)) == 1
    preset = ModelPreset.objects.order_by("pk").first()
    for answer in ("", "?answer=training", "?answer=inference"):
        assert preset.name in page_text(client, url_in("en", "estimator:calculator") + answer)
    preset.name = "Renamed model 8B"
    preset.save()
    for answer in ("", "?answer=training", "?answer=inference"):
        form = parse(page_text(client, url_in("en", "estimator:calculator") + answer)).find("form")
        assert "Renamed model 8B" in form.text, answer


def test_a_cached_include_renders_as_the_include_once_per_language_and_values():
    template = Template('{% load cached %}{% cached_include "includes/catalog/tool_links.html" here=here %}')
    include = Template('{% include "includes/catalog/tool_links.html" with here=here only %}')
    caches["memory"].clear()
    for language in ("en", "de"):
        with translation.override(language):
            for here in ("catalog:gpu_list", "catalog:compare", "catalog:gpu_list"):
                assert template.render(Context({"here": here})) == include.render(Context({"here": here}))
    assert len(kept("template")) == 4  # two languages × two values
    # A value that is not plain is rendered every time, as an include would be.
    assert template.render(Context({"here": object()})) == include.render(Context({"here": object()}))
    assert len(kept("template")) == 4


# Inputs as visitors type them: urlencode turns each into a query with "&", "+" and %-escapes, which the markup shows
# escaped ("&amp;").
VISITOR_QUERIES = [
    [("size", "70"), ("method", "full_adam")],
    [("answer", "training"), ("size", "8.5"), ("tokens", "1 000"), ("note", "<b>\"it's\"</b> & Größe")],
    [("gpu", "h100-sxm"), ("gpu", "b200")],
]


def region_context(rf, language, query_pairs):
    """The page context a region is rendered from, for the calculator in ``language`` with ``query_pairs``."""
    with translation.override(language):
        paths = query_paths("estimator:calculator", query_pairs)
        request = rf.get(paths[language])
        request.resolver_match = resolve(request.path)
        return {"request": request, **page_context(request, paths, title="T", description="D")}


@pytest.mark.parametrize("key", ["header", "footer"])
def test_a_region_kept_around_the_query_is_the_region_rendered_with_it(rf, launch_content, key):
    region = site_parts._regions[key]
    for language in ("en", "de"):
        for query_pairs in VISITOR_QUERIES:
            page = region_context(rf, language, query_pairs)
            with translation.override(language):
                kept = site_parts.render_region(key, page)
                assert kept == render_to_string(region.template_name, region.context(page))
            links = {link.attrs["hreflang"]: link.attrs["href"] for link in parse(kept).find_all("a")
                     if "hreflang" in link.attrs}
            # Every other language's link carries the visitor's query, whole.
            assert links and all(href.endswith("?" + urlencode(query_pairs)) for href in links.values())


def test_a_region_is_kept_once_for_all_the_queries_of_a_page(client, launch_content, settings):
    settings.PAGE_CACHE_ENABLED = False
    caches["memory"].clear()
    for answer in ([], [("answer", "training"), ("tokens", "100")]):
        for size in ("7", "13.5", "70"):
            query_pairs = [*answer, ("size", size), ("method", "full_adam")]
            switcher = parse(client.get(url_in("en", "estimator:calculator", query_pairs)).content.decode()).find(
                "details", class_="language-switcher")
            link = urlsplit(switcher.find("a", hreflang="de").attrs["href"])
            assert link.path == url_in("de", "estimator:calculator")
            assert sorted(parse_qsl(link.query)) == sorted(query_pairs)
    assert len(cached_regions()) == 2  # one header and one footer for the six inputs on both tabs


def test_markup_is_rendered_with_the_text_where_a_hole_would_not_give_the_same(monkeypatch):
    templates = {"escaped": "<a href='{{ path }}'>{{ name }}</a>", "filtered": "<a href='{{ path|urlencode }}'>x</a>",
                 "sliced": "{{ path|slice:':-3' }}", "in a script": "<script>var p = '{{ path|escapejs }}';</script>",
                 "json": "{{ data|json_script }}", "upper": "{{ path|upper }}"}
    monkeypatch.setattr(fragments, "render_to_string",
                        lambda name, context: Template(templates[name]).render(Context(context)))
    text = "?a=1&b=<'2'>"
    for name in templates:
        context = {"path": "/en/x/" + text, "name": "N", "data": {"item": "https://site.example/en/x/" + text}}
        assert render_cached_around(name, context, text) == Template(templates[name]).render(Context(context))
    # A safe string is shown unescaped: never holed.
    safe = {"path": mark_safe("/en/x/" + text), "name": "N"}
    with pytest.raises(ValueError):
        with_hole(safe, text)
    assert render_cached_around("escaped", safe, text) == Template(templates["escaped"]).render(Context(safe))


def test_loaded_content_keeps_one_value_per_loader_the_last_version_replacing_the_one_before(launch_content):
    first = current_gpus()
    bump_content_version()
    second = current_gpus()
    assert second is not first and second.version == content_version()
    assert [key for key in memory_keys() if key == current_gpus.key] == [current_gpus.key]
    assert current_gpus() is second
