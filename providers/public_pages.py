"""This app's public page: the provider page, in every language."""
from core.pages import urls_by_language


def provider_pages():
    yield urls_by_language("providers:page")
