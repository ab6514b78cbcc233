from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Site-wide pieces: formatting per language, page alternates, the registry of public pages, error
    pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"

    def ready(self):
        from django.db.models.signals import post_migrate

        from caching.content_version import connect_content_signals

        from .content_models import content_models
        from .editor_role import ensure_editor_group_after_the_last_app

        connect_content_signals(content_models())
        post_migrate.connect(ensure_editor_group_after_the_last_app, dispatch_uid="ensure-editor-group")
