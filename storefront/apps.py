from django.apps import AppConfig


class StorefrontConfig(AppConfig):
    """The composition layer on top of core, catalog, workloads and signups: the home (landing) page, the
    sitemap, the site header, and the command that loads every app's launch content."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "storefront"
    # Page content (core.content_models): a change bumps the content version; editors may change it.
    content_models = ("LandingPage", "FeaturedGPU", "RenterStep", "ProviderStep", "LandingFact", "LandingFAQ")

    def ready(self):
        from core.site_parts import register_link, register_region

        from .templatetags.navigation import site_footer, site_header

        # Every page's header and footer, and the links lower pages show to pages above them (core's error pages
        # to the home page, the workload pages' calls to action to the signup forms): chosen here, at the top.
        register_region("header", "includes/storefront/header.html", site_header)
        register_region("footer", "includes/footer.html", site_footer)
        register_link("home", "home")
        register_link("signup", "signups:signup")
        register_link("provider_application", "providers:application")
        register_link("provider_page", "providers:page")
