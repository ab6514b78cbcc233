"""This app's section of the sitemap: the calculator, in every language."""
from core.pages import urls_by_language
from core.sitemaps import PagesSitemap


class EstimatorSitemap(PagesSitemap):
    def pages(self):
        yield urls_by_language("estimator:calculator")
