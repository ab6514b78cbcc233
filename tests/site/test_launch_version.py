"""The tests' kept content version (tests/launch_version.py): a test that only reads finds the launch content
under the version kept for it; one that could make the database or the settings differ leaves it at once, and puts
it back at its end unless it committed."""
import pytest
from django.contrib.auth.models import Group
from django.core.cache import caches
from django.test import override_settings

from caching.content_version import content_version
from caching.fragments import CachedContent
from catalog.current_gpus import current_gpus
from catalog.models import GPU

from .. import launch_version
from ..operator_record import fill_operator_record


def test_a_reading_test_reads_under_the_kept_version(launch_content):
    assert launch_version._kept_version is not None
    assert content_version() == launch_version._kept_version
    GPU.objects.count()
    assert content_version() == launch_version._kept_version


def test_a_write_to_a_content_table_leaves_it_even_without_a_signal(launch_content):
    kept = content_version()
    GPU.objects.filter(slug="h100-sxm").update(name="Renamed")  # update() sends no post_save
    assert content_version() != kept and launch_version._kept_version is None


def test_a_write_to_another_table_keeps_it(launch_content):
    kept = content_version()
    Group.objects.create(name="Reviewers")
    assert content_version() == kept == launch_version._kept_version


def test_a_bump_of_the_version_leaves_it_and_puts_it_back_with_the_content_loaded_under_it(launch_content, request):
    kept, gpus = content_version(), current_gpus()
    fill_operator_record()  # not a content table: seen by the bump its save makes, as the site's pages see it
    assert launch_version._kept_version is None and content_version() != kept
    assert current_gpus() is not gpus
    assert launch_version.end_test(request.node)
    assert launch_version._kept_version == kept and caches["memory"].get(current_gpus.key) is gpus


def test_a_changed_setting_leaves_it(launch_content):
    kept = content_version()
    with override_settings(PAGE_CACHE_SECONDS=1):
        assert content_version() != kept
    assert content_version() != kept and launch_version._kept_version is None


def test_a_patch_leaves_it(launch_content, monkeypatch):
    kept = content_version()
    monkeypatch.setattr(GPU, "__str__", lambda gpu: "patched")
    assert content_version() != kept and launch_version._kept_version is None


def test_a_test_that_left_it_puts_it_back_with_the_content_loaded_under_it(launch_content, request):
    kept, gpus = content_version(), current_gpus()
    GPU.objects.filter(slug="h100-sxm").update(name="Renamed")
    assert content_version() != kept
    renamed = current_gpus()
    assert renamed is not gpus and renamed.by_slug["h100-sxm"].name == "Renamed"
    # What the test's teardown does, before the next test starts (this one's transaction rolled back):
    assert launch_version.end_test(request.node)
    assert launch_version._kept_version == kept
    assert caches["memory"].get(current_gpus.key) is gpus
    assert gpus.by_slug["h100-sxm"].name != "Renamed"


class CommittingTest:
    """What ``has_own_state`` reads of a test asking for a committed database."""
    fixturenames = ("transactional_db",)

    def get_closest_marker(self, _name):
        return None


def test_a_test_with_a_committed_database_does_not_put_it_back(launch_content):
    current_gpus()
    GPU.objects.filter(slug="h100-sxm").update(name="Renamed")
    renamed = current_gpus()
    assert not launch_version.end_test(CommittingTest())
    assert launch_version._kept_version is None
    assert current_gpus() is renamed


def test_every_loader_is_listed():
    assert current_gpus in CachedContent.instances


@pytest.mark.parametrize("sql, changes", [
    ('SELECT "catalog_gpu"."id" FROM "catalog_gpu"', False),
    ('SAVEPOINT "s1"', False),
    ('UPDATE "catalog_gpu" SET "name" = %s', True),
    ('INSERT INTO "workloads_workloadfaq" ("workload_id") VALUES (%s)', True),
    ('DELETE FROM "auth_group" WHERE "id" = %s', False),
    ('TRUNCATE "signups_signup"', True),
    ('CREATE TABLE "django_cache" ("cache_key" varchar(255))', True),
])
def test_which_statements_may_change_the_content(sql, changes):
    assert launch_version.may_change_content(sql) is changes
