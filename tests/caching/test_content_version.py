"""The content version changes with every change to site content, and with nothing else: permissions,
groups and ``migrate`` leave every cached page in place."""
import pytest
from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.core.cache import cache
from django.core.management import call_command

from caching.content_version import CONTENT_VERSION_KEY, content_version
from company.models import LegalPage
from staff.editor_role import EDITORS_GROUP

# Computed apart from the apps' declarations (core.content_models): a content model left undeclared fails.
CONTENT_MODELS = [
    *(model for label in ("catalog", "workloads", "storefront") for model in apps.get_app_config(label).get_models()),
    LegalPage,
]


@pytest.mark.parametrize("model", CONTENT_MODELS, ids=lambda model: model._meta.label)
def test_saving_any_content_model_bumps_the_version(launch_content, model):
    before = content_version()
    model.objects.first().save()
    assert content_version() != before


def test_deleting_content_bumps_the_version(launch_content):
    from workloads.models import WorkloadFAQ

    before = content_version()
    WorkloadFAQ.objects.first().delete()
    assert content_version() != before


def test_permission_and_group_changes_leave_the_version_alone(launch_content):
    version = content_version()
    group = Group.objects.create(name="Reviewers")
    group.permissions.set(Permission.objects.filter(content_type__app_label="signups"))
    group.permissions.clear()
    group.delete()
    assert cache.get(CONTENT_VERSION_KEY) == version


def test_migrate_leaves_the_version_alone(launch_content):
    """Even one that gives the Editors group permissions, as a migrate adding a model does."""
    editors = Group.objects.get(name=EDITORS_GROUP)
    editors.permissions.clear()
    version = content_version()
    call_command("migrate", verbosity=0)
    assert editors.permissions.exists()
    assert cache.get(CONTENT_VERSION_KEY) == version
