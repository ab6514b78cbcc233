"""The catalogue's public pages for the sitemap, each as a {language: path} map."""
from core.pages import urls_by_language

from .models import GPU


def catalog_pages():
    yield urls_by_language("catalog:gpu_list")
    for gpu in GPU.objects.all():
        yield {code: gpu.get_absolute_url(code) for code in gpu.page_languages()}
    yield urls_by_language("catalog:compare")
    yield urls_by_language("catalog:calculator")
