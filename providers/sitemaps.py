"""This app's section of the sitemap: the provider page, in every language."""
from core.pages import urls_by_language
from core.sitemaps import PagesSitemap


class ProvidersSitemap(PagesSitemap):
    def pages(self):
        yield urls_by_language("providers:page")
