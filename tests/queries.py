"""Counting a page's queries."""
from django.db import connection
from django.test.utils import CaptureQueriesContext

from workloads.snapshot import workload_content


def page_queries(client, url):
    """Queries of one request for ``url``, not in the page cache, with the workload content of the current
    version already loaded (loading it is counted in tests/test_workload_queries.py)."""
    workload_content()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)
