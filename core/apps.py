from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Site-wide pieces: formatting per language, page alternates, the sitemap sections' base class, error pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"

    def ready(self):
        from caching.content_version import connect_content_signals

        from .content_models import content_models

        connect_content_signals(content_models())
