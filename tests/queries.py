"""Counting a page's queries, and the shape of queries (their SQL, its values left out)."""
import re
from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext

from caching.content_version import bump_content_version
from workloads.cached_content import workload_content

from . import factories


def page_queries(client, url):
    """Queries of one request for ``url`` right after a content change (nothing kept for the content version
    but the workload content, whose loading is counted in tests/workloads/test_workload_queries.py)."""
    bump_content_version()
    workload_content()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def add_test_gpus(count, listed_in=None):
    """``count`` more GPUs (vendor "Test"), each also a row of the workload ``listed_in`` when given: the
    number of GPUs a page shows grows, its queries must not."""
    for n in range(count):
        gpu = factories.gpu(vendor="Test", memory_gb=Decimal(16 + n), price_usd_per_hour=Decimal("1.00"))
        if listed_in is not None:
            listed_in.rows.create(gpu=gpu, order=100 + n)


def query_shapes(queries):
    """The SQL of each query, its values left out."""
    shapes = []
    for query in queries:
        sql = re.sub(r"'(?:[^']|'')*'", "?", query["sql"])
        shapes.append(re.sub(r"\b\d+(\.\d+)?\b", "?", sql))
    return shapes
