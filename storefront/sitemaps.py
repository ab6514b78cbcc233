"""This app's section of the sitemap: the home page, in every language."""
from core.pages import urls_by_language
from core.sitemaps import PagesSitemap


class HomeSitemap(PagesSitemap):
    def pages(self):
        yield urls_by_language("home")
