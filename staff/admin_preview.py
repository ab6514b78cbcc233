"""Links from an admin object to its public page in each language it exists in."""
from django.utils.html import format_html_join
from django.utils.translation import gettext as _

from core.pages import language_name


def preview_links(obj):
    if obj is None or obj.pk is None or not hasattr(obj, "page_languages"):
        return "—"
    languages = obj.page_languages()
    if not languages:
        return _("Not published in any language.")
    return format_html_join(
        " · ", '<a href="{}" target="_blank" rel="noopener" lang="{}">{}</a>',
        ((obj.get_absolute_url(code), code, language_name(code)) for code in languages),
    )
