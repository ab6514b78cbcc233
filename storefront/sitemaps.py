"""/sitemap.xml: every public page (``core.public_pages``) in every language it exists in, each with its
hreflang alternates and x-default, on the configured origin (SITE_URL), never on the request's Host."""
from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.shortcuts import render
from django.utils import translation

from caching.pages import cached_page
from core.pages import absolute_url, language_codes, x_default_path
from core.public_pages import public_pages


class PublicPagesSitemap(Sitemap):
    """Its items are the pages' {language: path} maps: Django lists each page once per language it
    exists in, with the page's other languages as alternates."""

    i18n = True
    alternates = True
    # Django's x_default names the default language's path with its prefix cut off ("/gpus/"), a redirect
    # here; the x-default is the English page, or the page's first language without one (get_urls).
    x_default = False

    def items(self):
        return list(public_pages())

    def get_languages_for_item(self, paths):
        return [code for code in language_codes() if code in paths]

    def location(self, paths):
        return paths[translation.get_language()]

    def get_protocol(self, protocol=None):
        return settings.SITE_URL.partition("://")[0]

    def get_domain(self, site=None):
        return settings.SITE_URL.partition("://")[2]

    def get_urls(self, page=1, site=None, protocol=None):
        urls = super().get_urls(page, site, protocol)
        for url in urls:
            paths, _language = url["item"]
            url["alternates"].append({"lang_code": "x-default", "location": absolute_url(x_default_path(paths))})
        return urls


@cached_page
def sitemap_xml(request):
    urls = PublicPagesSitemap().get_urls()
    return render(request, "sitemap.xml", {"urlset": urls}, content_type="application/xml")
