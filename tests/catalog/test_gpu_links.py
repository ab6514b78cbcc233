"""Every GPU a table names links to that GPU's page, in the page's language: each row of each workload
table, each row of the calculator's results, and each GPU named in the comparison's tables."""
import pytest

from catalog.models import GPU
from workloads.models import Workload

from ..html import fetch
from ..localized_urls import url_in
from ..sitemap import languages

pytestmark = pytest.mark.django_db
CALCULATOR_QUERY = "size=70&method=full_adam"
COMPARED_GPUS = ["h100-sxm", "mi300x", "rtx-pro-6000-blackwell"]


def named_gpu(text, gpus):
    """The GPU a header cell names: the one whose name the cell's text starts with (the longest such name,
    so "H100 SXM Hopper" is the H100 SXM), or None."""
    matches = [gpu for gpu in gpus if text == gpu.name or text.startswith(gpu.name + " ")]
    return max(matches, key=lambda gpu: len(gpu.name)) if matches else None


def links_of(cell):
    """The pages the cell's links lead to, without a fragment (a table's GPU name leads to the price block)."""
    return [(a.attrs.get("href") or "").split("#")[0] for a in cell.find_all("a")]


def gpu_cells(table, gpus):
    """(cell, GPU) for each header cell of ``table`` that names a GPU."""
    for cell in table.find_all("th"):
        gpu = named_gpu(cell.squashed_text, gpus)
        if gpu:
            yield cell, gpu


def test_every_row_of_every_workload_table_links_to_its_gpu(launch_content, client):
    gpus = list(GPU.objects.all())
    problems, rows_checked = [], 0
    for workload in Workload.objects.filter(is_published=True):
        expected = {row.gpu.slug for row in workload.rows.all()}
        for language in workload.page_languages():
            path = workload.get_absolute_url(language)
            tables = fetch(client, path).find_all("table", class_="gpu-table")
            if not tables:
                problems.append(f"{path}: no .gpu-table")
            seen = set()
            for table in tables:
                for row in table.find("tbody").find_all("tr"):
                    rows_checked += 1
                    header = row.find("th")
                    gpu = named_gpu(header.squashed_text, gpus) if header else None
                    if gpu is None:
                        text = header.squashed_text if header else None
                        problems.append(f"{path}: row header {text!r} names no GPU")
                        continue
                    seen.add(gpu.slug)
                    if gpu.get_absolute_url(language) not in links_of(header):
                        problems.append(f"{path}: {gpu.name} links to {links_of(header)}, "
                                        f"not {gpu.get_absolute_url(language)}")
            if seen != expected:
                problems.append(f"{path}: the table names {sorted(seen)}, the workload has "
                                f"{sorted(expected)}")
    print(f"{rows_checked} workload table rows checked")
    assert rows_checked >= 52 * 4
    assert problems == [], "\n".join(problems)


def test_every_gpu_in_the_calculator_results_links_to_its_page(launch_content, client):
    gpus = list(GPU.objects.all())
    problems = []
    for language in languages():
        path = f"{url_in(language, 'estimator:calculator')}?{CALCULATOR_QUERY}"
        results = fetch(client, path).find("section", class_="calculator-results")
        assert results is not None, path
        named = set()
        for cell, gpu in gpu_cells(results.find("table"), gpus):
            named.add(gpu.slug)
            if gpu.get_absolute_url(language) not in links_of(cell):
                problems.append(f"{path}: {gpu.name} links to {links_of(cell)}")
        assert named == {gpu.slug for gpu in gpus}, (path, named)
    assert problems == [], "\n".join(problems)


def test_every_gpu_the_comparison_tables_name_links_to_its_page(launch_content, client):
    gpus = list(GPU.objects.all())
    query = "&".join(f"gpu={slug}" for slug in COMPARED_GPUS) + "&workload=llm-training"
    problems, tables_checked = [], 0
    for language in languages():
        path = f"{url_in(language, 'catalog:compare')}?{query}"
        tables = fetch(client, path).find("main").find_all("table")
        assert len(tables) >= 3, path
        for index, table in enumerate(tables, start=1):
            tables_checked += 1
            named = set()
            for cell, gpu in gpu_cells(table, gpus):
                named.add(gpu.slug)
                if gpu.get_absolute_url(language) not in links_of(cell):
                    problems.append(f"{path}: table {index}, {gpu.name} links to {links_of(cell)}")
            if named != set(COMPARED_GPUS):
                problems.append(f"{path}: table {index} names {sorted(named)}")
    assert tables_checked >= 12
    assert problems == [], "\n".join(problems)
