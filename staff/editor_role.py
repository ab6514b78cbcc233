"""The editor role: a group that may change every piece of site content, and nothing of user management."""
from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType

from core.content_models import content_models

EDITORS_GROUP = "Editors"


def editor_permissions():
    """Every permission on the site's content models; signups and applications are personal data, for
    staff given those permissions one by one."""
    content_types = ContentType.objects.get_for_models(*content_models()).values()
    return Permission.objects.filter(content_type__in=list(content_types))


def ensure_editor_group():
    """Create or update the Editors group; run after every migrate."""
    group, _created = Group.objects.get_or_create(name=EDITORS_GROUP)
    group.permissions.set(editor_permissions())
    return group


def ensure_editor_group_after_the_last_app(app_config, **_signal_arguments):
    """A post_migrate receiver: migrate (and a test's flush) sends the signal once per app, in the order of
    INSTALLED_APPS, and the group is made once, after the last app, when every app's permissions exist."""
    if app_config is last_app_with_models():
        ensure_editor_group()


def last_app_with_models():
    return [config for config in apps.get_app_configs() if config.models_module is not None][-1]
