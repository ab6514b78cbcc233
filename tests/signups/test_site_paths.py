"""The page a visitor came to a form from is one of the site's public pages (``core.sitemaps``), the
set worked out once per content version in each process: a change to the pages counts once it is saved."""
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.pages import urls_by_language
from signups.site_paths import form_view_names, site_path
from workloads.models import Workload

CONTENT_TABLES = ("catalog_", "workloads_", "signups_", "storefront_")


def test_a_workload_page_counts_while_it_is_published(launch_content):
    workload = Workload.objects.get(key="llm-training")
    path = workload.get_absolute_url("es")
    assert site_path(path) == path
    workload.is_published = False
    workload.save()
    assert site_path(path) is None
    workload.is_published = True
    workload.save()
    assert site_path(path) == path


def test_the_pages_are_not_read_again_while_the_content_is_unchanged(launch_content):
    path = Workload.objects.get(key="llm-training").get_absolute_url("es")
    assert site_path(path) == path
    with CaptureQueriesContext(connection) as queries:
        assert site_path(path) == path
        assert site_path("/es/gpus/no-such-gpu/") is None
    assert not [query["sql"] for query in queries if any(table in query["sql"] for table in CONTENT_TABLES)]


def test_the_public_forms_pages_count_and_their_thanks_pages_do_not(launch_content):
    assert sorted(form_view_names()) == ["providers:application", "signups:signup"]
    for view_name in ("signups:signup", "providers:application"):
        for path in urls_by_language(view_name).values():
            assert site_path(path) == path
    for view_name in ("signups:signup_thanks", "providers:thanks"):
        for path in urls_by_language(view_name).values():
            assert site_path(path) is None
