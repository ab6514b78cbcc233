"""Queries per workload page do not grow with the number of GPUs in its table."""
from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import GPU
from workloads.models import Workload, WorkloadGPU


def queries_for(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_queries_per_workload_page_are_constant(client, launch_content):
    workload = Workload.objects.get(key="llm-training")
    url = workload.get_absolute_url("es")
    before = queries_for(client, url)
    rows = workload.rows.count()
    for n in range(40):
        gpu = GPU.objects.create(slug=f"test-gpu-{n}", vendor="Test", name=f"Test GPU {n}", architecture="Test",
                                 memory_gb=Decimal(16 + n), price_usd_per_hour=Decimal("1.00"))
        WorkloadGPU.objects.create(workload=workload, gpu=gpu, order=100 + n)
    assert workload.rows.count() == rows + 40
    after = queries_for(client, url)
    assert after == before
    assert before <= 10, f"{before} queries for one workload page"
