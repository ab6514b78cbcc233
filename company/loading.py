"""Load the legal pages from ``company/content/``: ``legal-pages.toml`` holds each page's version and date,
``<language>/legal-pages.toml`` its title and text. Loaded as ``core.content_files`` describes: creates
what is missing and fills empty translations, never overwriting an editor's change; ``reset`` makes the
database equal to the files."""
from pathlib import Path

from core.content_files import apply, read_toml, read_translations

from .models import LegalPage

CONTENT_DIR = Path(__file__).resolve().parent / "content"
FILE_NAME = "legal-pages.toml"


def load_legal_pages(content_dir=CONTENT_DIR, *, reset=False):
    structure = read_toml(content_dir / FILE_NAME)
    texts = read_translations(content_dir, FILE_NAME)
    pages = []
    for key in LegalPage.Key.values:
        page = LegalPage.objects.filter(key=key).first()
        created = page is None
        if created:
            page = LegalPage(key=key)
        values = {"version": structure[key]["version"], "updated": structure[key]["updated"]}
        for lang, text in texts.items():
            values.update({f"{field}_{lang}": text[key][field]
                           for field in ("title", "body") if field in text.get(key, {})})
        if apply(page, values, reset or created):
            page.save()
        pages.append(page)
    return pages
