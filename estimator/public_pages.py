"""This app's public page: the calculator."""
from core.pages import urls_by_language


def estimator_pages():
    """Each page as a {language: path} map."""
    yield urls_by_language("estimator:calculator")
