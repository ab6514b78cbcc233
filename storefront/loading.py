"""Load the home page's launch content from ``storefront/content/`` (TOML files).

``landing.toml`` holds what is the same in every language (the featured GPUs, in order);
``<language>/landing.toml`` the text: the page's fields, and the lists ``renter_steps``, ``provider_steps``,
``facts`` and ``faqs``, matched by position across languages. Loaded as ``core.content_files`` describes:
creates what is missing and fills empty translations, never overwriting an editor's change; ``reset``
makes the database equal to the files."""
from pathlib import Path

from catalog.models import GPU
from core.content_files import apply, load_ordered, read_toml, read_translations, translated

from .models import FeaturedGPU, LandingFact, LandingFAQ, LandingPage, ProviderStep, RenterStep
from .translation import LANDING_TEXT_FIELDS

CONTENT_DIR = Path(__file__).resolve().parent / "content"
FILE_NAME = "landing.toml"
# (model, the list's name in the files, its translated fields)
ORDERED_LISTS = (
    (RenterStep, "renter_steps", ("heading", "body")),
    (ProviderStep, "provider_steps", ("heading", "body")),
    (LandingFact, "facts", ("heading", "body")),
    (LandingFAQ, "faqs", ("question", "answer")),
)


def load_featured_gpus(landing, slugs, reset):
    """The featured GPUs, when there are none yet (or with ``reset``). Bulk-created: the caller bumps the
    content version."""
    if not reset and landing.featured_gpus.exists():
        return
    gpus = GPU.objects.in_bulk(slugs, field_name="slug")
    missing = set(slugs) - set(gpus)
    if missing:
        raise ValueError(f"{FILE_NAME}: unknown GPUs {sorted(missing)}")
    landing.featured_gpus.all().delete()
    FeaturedGPU.objects.bulk_create(
        FeaturedGPU(landing=landing, gpu=gpus[slug], order=position) for position, slug in enumerate(slugs, start=1)
    )


def load_landing_page(content_dir=CONTENT_DIR, *, reset=False):
    structure = read_toml(content_dir / FILE_NAME)
    texts = read_translations(content_dir, FILE_NAME)
    landing, created = LandingPage.objects.get_or_create(key=LandingPage.Key.HOME)
    values = {}
    for field in LANDING_TEXT_FIELDS:
        values.update(translated(texts, field))
    if apply(landing, values, reset or created):
        landing.save()
    load_featured_gpus(landing, structure["featured_gpus"], reset)
    for model, name, fields in ORDERED_LISTS:
        items = {lang: text.get(name, []) for lang, text in texts.items()}
        load_ordered(model, {"landing": landing}, items, fields, reset)
    return landing
