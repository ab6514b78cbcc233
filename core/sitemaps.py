"""The sitemap's sections: each app's public pages as a Sitemap of ``django.contrib.sitemaps`` (``PagesSitemap``),
composed with Django's sitemap view in the root URLconf (``everx/urls.py``); and the pages they list, for the forms,
which accept only a page of this site as the one a visitor came from (``signups.site_paths``)."""
from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.urls import resolve, reverse
from django.utils import translation

from .pages import absolute_url, language_codes, x_default_path


class PagesSitemap(Sitemap):
    """An app's public pages, each a {language: path} map with only the languages the page exists in (``pages``):
    Django lists each page once per language it exists in, with the page's other languages as alternates, on the
    configured origin (SITE_URL), never on the request's Host."""

    i18n = True
    alternates = True
    # Django's x_default names the default language's path with its prefix cut off ("/gpus/"), a redirect
    # here; the x-default is the English page, or the page's first language without one (get_urls).
    x_default = False

    def pages(self):
        """Each of the app's public pages as a {language: path} map."""
        raise NotImplementedError

    def items(self):
        return list(self.pages())

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


def public_pages():
    """Every page the sitemap lists, as {language: path} maps, in its order: the sections the URLconf gives the
    sitemap's view, so a page is public where the site is composed, once."""
    for section in resolve(reverse("sitemap")).kwargs["sitemaps"].values():
        yield from (section() if isinstance(section, type) else section).pages()
