from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Site-wide pieces: formatting per language, page navigation, sitemap, home and error pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
