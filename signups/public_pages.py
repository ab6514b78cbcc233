"""This app's public pages: the legal pages (the forms and their follow-up pages are not listed in the
sitemap)."""
from core.pages import urls_by_language

from .models import LegalPage


def legal_pages():
    """Each legal page that exists, as a {language: path} map."""
    for page in LegalPage.objects.all():
        yield urls_by_language(page.url_name)
