"""The sitemap's paths, and the public pages the sitemap must list, computed from the models: tests that
walk every page check they walked all of them."""
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from catalog.models import GPU
from signups.models import LegalPage
from workloads.models import Workload

SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
# Pages that exist in every language, whatever the database holds.
FIXED_PAGES = ["home", "catalog:gpu_list", "catalog:compare", "catalog:calculator"]


def sitemap_paths(client):
    root = ET.fromstring(client.get("/sitemap.xml").content)
    return [urlsplit(url.find(SITEMAP_NS + "loc").text).path for url in root.iter(SITEMAP_NS + "url")]


def languages():
    return [code for code, _name in settings.LANGUAGES]


def expected_public_paths():
    """Every page the sitemap must list: the fixed pages and each legal page in every language, each
    published workload in each language its page exists in, each GPU's page in each of its languages."""
    paths = set()
    view_names = FIXED_PAGES + [LegalPage.URL_NAMES[page.key] for page in LegalPage.objects.all()]
    for code in languages():
        with translation.override(code):
            paths |= {reverse(name) for name in view_names}
    for workload in Workload.objects.filter(is_published=True):
        paths |= {workload.get_absolute_url(code) for code in workload.page_languages()}
    for gpu in GPU.objects.all():
        paths |= {gpu.get_absolute_url(code) for code in gpu.page_languages()}
    return paths


def assert_sitemap_is_complete(paths):
    """``paths`` (the sitemap's) list each page once and every page the models say is public."""
    assert len(paths) == len(set(paths)), sorted(p for p in set(paths) if paths.count(p) > 1)
    missing = expected_public_paths() - set(paths)
    assert not missing, f"pages missing from the sitemap: {sorted(missing)}"
    # The launch content: 6 workloads and 15 GPUs in 4 languages, with the fixed and legal pages.
    assert Workload.objects.filter(is_published=True).count() >= 6 and GPU.objects.count() >= 15
