from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Site-wide pieces: formatting per language, page alternates, the registry of public pages, caching and
    error pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"

    def ready(self):
        from django.db.models.signals import post_migrate

        from .content_version import connect_content_signals
        from .editor_role import ensure_editor_group

        connect_content_signals()
        # Sent once per app after migrate; the last run sees every app's permissions.
        post_migrate.connect(ensure_editor_group, dispatch_uid="ensure-editor-group")
