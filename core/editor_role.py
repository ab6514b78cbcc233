"""The editor role: a group that may change every piece of site content, and nothing of user management."""
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType

from .content_models import content_models

EDITORS_GROUP = "Editors"


def editor_permissions():
    """Every permission on the site's content models; signups and applications are personal data, for
    staff given those permissions one by one."""
    content_types = [ContentType.objects.get_for_model(model) for model in content_models()]
    return Permission.objects.filter(content_type__in=content_types)


def ensure_editor_group(**_signal_arguments):
    """Create or update the Editors group; run after every migrate."""
    group, _created = Group.objects.get_or_create(name=EDITORS_GROUP)
    group.permissions.set(editor_permissions())
    return group
