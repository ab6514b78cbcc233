"""This app's section of the sitemap: each published workload's page, in the languages it exists in."""
from core.sitemaps import PagesSitemap

from .models import Workload


class WorkloadsSitemap(PagesSitemap):
    def pages(self):
        for workload in Workload.objects.filter(is_published=True):
            paths = {code: workload.get_absolute_url(code) for code in workload.page_languages()}
            if paths:
                yield paths
