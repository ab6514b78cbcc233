"""What the admin's legal page form posts."""
from django.conf import settings


def legal_page_form_data(page):
    data = {"key": page.key, "version": page.version, "updated": page.updated.isoformat()}
    for code, _name in settings.LANGUAGES:
        data[f"title_{code}"] = getattr(page, f"title_{code}") or ""
        data[f"body_{code}"] = getattr(page, f"body_{code}") or ""
    return data
