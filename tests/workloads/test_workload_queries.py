"""Queries per workload page do not grow with the number of GPUs in its table."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from caching.content_version import bump_content_version
from workloads.models import Workload

from ..queries import add_test_gpus


def queries_for(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_queries_per_workload_page_are_constant(client, launch_content):
    workload = Workload.objects.get(key="llm-training")
    url = workload.get_absolute_url("es")
    bump_content_version()  # read afresh, as the page after it: not from what earlier tests kept in memory
    before = queries_for(client, url)
    rows = workload.rows.count()
    add_test_gpus(40, listed_in=workload)
    assert workload.rows.count() == rows + 40
    after = queries_for(client, url)
    assert after == before
    assert before <= 10, f"{before} queries for one workload page"
