"""This app's section of the sitemap: the catalogue, each GPU's page and the comparison."""
from core.pages import urls_by_language
from core.sitemaps import PagesSitemap

from .models import GPU


class CatalogSitemap(PagesSitemap):
    def pages(self):
        yield urls_by_language("catalog:gpu_list")
        for gpu in GPU.objects.all():
            yield {code: gpu.get_absolute_url(code) for code in gpu.page_languages()}
        yield urls_by_language("catalog:compare")
