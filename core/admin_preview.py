"""Links from an admin object to its public page in each language it exists in."""
from django.conf import settings
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _


def preview_links(obj):
    if obj is None or obj.pk is None or not hasattr(obj, "page_languages"):
        return "—"
    languages = obj.page_languages()
    if not languages:
        return _("Not published in any language.")
    return format_html_join(
        " · ", '<a href="{}" target="_blank" rel="noopener" lang="{}">{}</a>',
        ((obj.get_absolute_url(code), code, settings.LANGUAGE_NATIVE_NAMES[code]) for code in languages),
    )
