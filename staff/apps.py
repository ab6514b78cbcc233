from django.apps import AppConfig


class StaffConfig(AppConfig):
    """The staff's side of the site: the admin site every app registers its admins with, its login (password and
    authenticator code) and lockout, and the Editors role."""

    name = "staff"

    def ready(self):
        from django.db.models.signals import post_migrate

        from .editor_role import ensure_editor_group_after_the_last_app

        post_migrate.connect(ensure_editor_group_after_the_last_app, dispatch_uid="ensure-editor-group")
