"""The editor role: a group that may change every piece of site content, and nothing of user management."""
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType

EDITORS_GROUP = "Editors"


def editor_models():
    """The models named by settings.EDITOR_MODELS: "app_label" for every model of an app, or
    "app_label.model" for one."""
    installed = {config.label for config in apps.get_app_configs()}
    for entry in settings.EDITOR_MODELS:
        label, _dot, model_name = entry.partition(".")
        if label not in installed:
            continue
        if model_name:
            yield apps.get_model(label, model_name)
        else:
            yield from apps.get_app_config(label).get_models()


def editor_permissions():
    content_types = [ContentType.objects.get_for_model(model) for model in editor_models()]
    return Permission.objects.filter(content_type__in=content_types)


def ensure_editor_group(**_signal_arguments):
    """Create or update the Editors group; run after every migrate."""
    group, _created = Group.objects.get_or_create(name=EDITORS_GROUP)
    group.permissions.set(editor_permissions())
    return group
