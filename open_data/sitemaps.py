"""This app's section of the sitemap (the feed's documentation, in every language) and what robots.txt allows."""
from django.urls import reverse

from core.pages import urls_by_language
from core.sitemaps import PagesSitemap


class OpenDataSitemap(PagesSitemap):
    def pages(self):
        yield urls_by_language("open_data:docs")


def robots_paths():
    """The feed's folder and its documentation in each language."""
    yield reverse("data:gpus_json").rsplit("/", 1)[0] + "/"
    yield from urls_by_language("open_data:docs").values()
