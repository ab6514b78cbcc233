from django.apps import AppConfig


class StorefrontConfig(AppConfig):
    """The composition layer on top of core, catalog, workloads and signups: the home (landing) page, the
    sitemap, the site header, and the command that loads every app's launch content."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "storefront"
    # Page content (core.content_models): a change bumps the content version; editors may change it.
    content_models = ("LandingPage", "FeaturedGPU", "RenterStep", "ProviderStep", "LandingFact", "LandingFAQ")

    def ready(self):
        from core.public_pages import register

        from .public_pages import home_page

        register(home_page)
