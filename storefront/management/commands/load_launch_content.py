from django.core.management.base import BaseCommand
from django.db import transaction

from caching.content_version import content_changed
from catalog.loading import load_gpus
from company.loading import load_legal_pages
from estimator.loading import load_model_presets
from storefront.loading import load_landing_page
from workloads.loading import load_workloads


class Command(BaseCommand):
    help = (
        "Load the launch content (GPUs from catalog/data/gpus.csv, workloads and calls to action from "
        "workloads/content/, legal pages from company/content/, the home page from storefront/content/). "
        "Idempotent: creates what is missing and fills empty translations, leaving editors' changes alone. "
        "--reset makes the database equal to the files."
    )

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Overwrite existing content with the files.")

    @transaction.atomic
    def handle(self, *args, reset=False, **options):
        created, updated = load_gpus(reset=reset)
        load_model_presets(reset=reset)
        workloads = load_workloads(reset=reset)
        load_legal_pages(reset=reset)
        # The home page features GPUs, so it comes after them.
        landing = load_landing_page(reset=reset)
        # Bulk writes send no signals: make every cached page fresh once the content is in.
        content_changed()
        self.stdout.write(
            f"GPUs: {created} created, {updated} reset. Workloads: {len(workloads)} "
            f"({sum(w.is_published for w in workloads)} published). Home page: "
            f"{landing.featured_gpus.count()} featured GPUs, {landing.faqs.count()} FAQs."
        )
