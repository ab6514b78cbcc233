"""This app's section of the sitemap: the legal pages."""
from core.pages import urls_by_language
from core.sitemaps import PagesSitemap

from .models import LegalPage


class LegalPagesSitemap(PagesSitemap):
    def pages(self):
        """Each legal page that exists, in every language."""
        for page in LegalPage.objects.all():
            yield urls_by_language(page.url_name)
