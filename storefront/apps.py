from django.apps import AppConfig


class StorefrontConfig(AppConfig):
    """The composition layer on top of core, catalog, workloads and signups: the home (landing) page, the
    site header, and the command that loads every app's launch content."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "storefront"
