"""The legal pages: public and cached whole, rendered from the page's text and the operator record."""
from django.shortcuts import get_object_or_404, render
from django.utils.text import Truncator

from caching.pages import cached_page
from core.formatting import format_long_date
from core.pages import page_context, urls_by_language

from .legal_text import first_paragraph, render_legal_text
from .models import LegalPage


@cached_page
def legal_page(request, key):
    page = get_object_or_404(LegalPage, key=key)
    context = page_context(request, urls_by_language(page.url_name), title=page.title,
                           description=Truncator(first_paragraph(page.body)).chars(160))
    context.update(legal_page=page, body_html=render_legal_text(page.body), updated=format_long_date(page.updated))
    return render(request, "company/legal_page.html", context)
