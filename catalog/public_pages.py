"""This app's public pages: the catalogue, each GPU's page and the comparison."""
from core.pages import urls_by_language

from .models import GPU


def catalog_pages():
    """Each page as a {language: path} map."""
    yield urls_by_language("catalog:gpu_list")
    for gpu in GPU.objects.all():
        yield {code: gpu.get_absolute_url(code) for code in gpu.page_languages()}
    yield urls_by_language("catalog:compare")
