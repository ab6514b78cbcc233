from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Site-wide pieces: formatting per language, page alternates, the sitemap sections' base class, caching and
    error pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"

    def ready(self):
        from .content_version import connect_content_signals

        connect_content_signals()
