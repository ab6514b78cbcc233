"""/sitemap.xml: every public page in every language it exists in, with its hreflang alternates."""
from django.shortcuts import render

from catalog.sitemap import catalog_pages
from signups.sitemap import legal_pages
from workloads.models import Workload

from .page_cache import cached_page
from .pages import absolute_url, alternates, language_codes, urls_by_language, x_default_path


def public_pages():
    """Each public page as a {language: path} map."""
    yield urls_by_language("home")
    for workload in Workload.objects.filter(is_published=True):
        paths = {code: workload.get_absolute_url(code) for code in workload.page_languages()}
        if paths:
            yield paths
    yield from catalog_pages()
    yield from legal_pages()


@cached_page
def sitemap_xml(request):
    entries = []
    for paths in public_pages():
        links = [{"code": a["code"], "url": absolute_url(a["path"])} for a in alternates(paths)]
        x_default = absolute_url(x_default_path(paths))
        for code in language_codes():
            if code in paths:
                entries.append({"loc": absolute_url(paths[code]), "links": links, "x_default": x_default})
    return render(request, "sitemap.xml", {"entries": entries}, content_type="application/xml")
