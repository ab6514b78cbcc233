"""The sitemap's paths, and the public pages the sitemap must list, computed from the models: tests that
walk every page check they walked all of them."""
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import resolve
from django.utils import translation

from catalog.loading import read_gpus
from catalog.models import GPU
from company.models import LegalPage
from workloads.loading import workload_keys
from workloads.models import Workload

from .localized_urls import url_in

SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML_NS = "{http://www.w3.org/1999/xhtml}"
# Pages that exist in every language, whatever the database holds.
FIXED_PAGES = [
    "home", "catalog:gpu_list", "catalog:compare", "estimator:calculator", "open_data:docs", "providers:page",
]


def parse_sitemap(body):
    """Each URL a sitemap lists, in its order, with its alternates: {url: {hreflang: url}}."""
    return {url.find(SITEMAP_NS + "loc").text: {link.get("hreflang"): link.get("href")
                                                for link in url.iter(XHTML_NS + "link")}
            for url in ET.fromstring(body).iter(SITEMAP_NS + "url")}


def sitemap_entries(client):
    """The site's sitemap, parsed (parse_sitemap)."""
    return parse_sitemap(client.get("/sitemap.xml").content)


def sitemap_paths(client):
    return [urlsplit(url).path for url in sitemap_entries(client)]


def languages():
    return [code for code, _name in settings.LANGUAGES]


def expected_public_paths():
    """Every page the sitemap must list: the fixed pages and each legal page in every language, each
    published workload in each language its page exists in, each GPU's page in each of its languages."""
    view_names = FIXED_PAGES + [LegalPage.URL_NAMES[page.key] for page in LegalPage.objects.all()]
    paths = {url_in(code, name) for code in languages() for name in view_names}
    for workload in Workload.objects.filter(is_published=True):
        paths |= {workload.get_absolute_url(code) for code in workload.page_languages()}
    for gpu in GPU.objects.all():
        paths |= {gpu.get_absolute_url(code) for code in gpu.page_languages()}
    return paths


def assert_sitemap_is_complete(paths):
    """``paths`` (the sitemap's) list each page once, every page the models say is public and no other;
    the models hold the launch content (every GPU of the data file, each workload of the content files)."""
    assert len(paths) == len(set(paths)), sorted(p for p in set(paths) if paths.count(p) > 1)
    expected = expected_public_paths()
    assert not expected - set(paths), f"pages missing from the sitemap: {sorted(expected - set(paths))}"
    assert not set(paths) - expected, f"pages the models do not make public: {sorted(set(paths) - expected)}"
    assert GPU.objects.count() == len(read_gpus())
    assert Workload.objects.count() == len(workload_keys())


def page_type(path, workload_pages):
    """What kind of page ``path`` is: the view that renders it (one template, one layout), or for a workload page
    its workload (each has its own table columns, FAQs and explainers). ``workload_pages``: {path: workload key}."""
    if path in workload_pages:
        return f"workload:{workload_pages[path]}"
    with translation.override(path.split("/")[1]):
        return resolve(path).view_name


def judged_paths(sitemap_pages, paths):
    """The pages the browser gates judge: of each page type in each language, the largest page (the most markup to
    lay out and check, and the heaviest to download). Walking every GPU page in every width and colour scheme
    judges one template thirty times over; every page is still walked by the HTML checks (the site walk, the Nu
    HTML Checker, the no-script check). ``sitemap_pages``: the session's rendered pages ({path: HTML}, the
    fixture), whose sizes choose. Returns the chosen paths of ``paths`` (the sitemap's) in their order."""
    workload_pages = {workload.get_absolute_url(code): workload.key
                      for workload in Workload.objects.filter(is_published=True) for code in workload.page_languages()}
    largest = {}
    for path in paths:
        kind = (page_type(path, workload_pages), path.split("/")[1])
        size = len(sitemap_pages[path].encode())
        if kind not in largest or size > largest[kind][0]:
            largest[kind] = (size, path)
    chosen = {path for _size, path in largest.values()}
    # Every page type but a workload (which exists in the languages it is published in) is judged in every language.
    for kind in {kind for kind, _code in largest if not kind.startswith("workload:")}:
        assert {code for other, code in largest if other == kind} == set(languages()), kind
    return [path for path in paths if path in chosen]
