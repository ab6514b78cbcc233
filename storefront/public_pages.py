"""This app's public page: the home page, in every language."""
from core.pages import urls_by_language


def home_page():
    yield urls_by_language("home")
