"""This app's public pages for the sitemap: the legal pages."""
from core.pages import urls_by_language

from .models import LegalPage


def legal_pages():
    """Each legal page that exists, as a {language: path} map."""
    for page in LegalPage.objects.all():
        yield urls_by_language(page.url_name)
