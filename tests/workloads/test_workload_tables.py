"""Every cell of every published workload table, in every language, against numbers computed here
from gpus.csv with an independent implementation of the rules (Decimal arithmetic, own rounding)."""
import csv
import re
from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.translation import gettext

from catalog.loading import GPUS_CSV
from core.formatting import not_published
from workloads.models import Workload, WorkloadColumn

from ..expected_sizing import BYTES_PER_PARAMETER, USABLE_SHARE, step_floor
from ..html import Page
from ..languages import LANGUAGES
from ..localized_numbers import numbers_in

Kind = WorkloadColumn.Kind

NOT_SUPPORTED = object()


def not_supported_cell(language):
    """A "not supported" cell's text: the mark, then its name for screen readers (visually hidden)."""
    with translation.override(language):
        return "—" + gettext("not supported by this GPU")


with open(GPUS_CSV, newline="", encoding="utf-8") as handle:
    CSV_ROWS = {row["slug"]: row for row in csv.DictReader(handle)}


def expected(column, row):
    """What a cell must show: a Decimal, a text, None for "not published", or NOT_SUPPORTED (``n/a`` in the
    file) for "not supported"."""
    if column.kind == Kind.SPEC:
        raw = row[column.spec]
        if raw == "":
            return None
        if raw == "n/a":
            return NOT_SUPPORTED
        if column.spec in ("memory_type", "form_factor", "interconnect"):
            return raw
        if column.spec == "rt_cores":
            return [Decimal(n) for n in re.findall(r"\d+", raw)]
        return Decimal(raw)
    memory = Decimal(row["memory_gb"])
    if column.kind == Kind.MODEL_FIT:
        return step_floor(column.gpu_count * memory * USABLE_SHARE / BYTES_PER_PARAMETER[column.method])
    if column.kind == Kind.USABLE_MEMORY:
        return column.gpu_count * memory * USABLE_SHARE
    if column.kind == Kind.DECODE_CEILING:
        if row["bandwidth_gbs"] == "":
            return None
        weights = Decimal(column.model_billion_params) * BYTES_PER_PARAMETER[column.method]
        return step_floor(Decimal(row["bandwidth_gbs"]) / weights)
    raise AssertionError(column.kind)


def published_pages():
    return [(key, language) for key in (
        "llm-training", "fine-tuning", "llm-inference", "image-video-generation", "rendering-vfx",
        "scientific-computing") for language in LANGUAGES]


@pytest.mark.parametrize("key, language", published_pages())
def test_every_cell_equals_an_independent_computation(client, launch_content, key, language):
    workload = Workload.objects.get(key=key)
    assert language in workload.page_languages()
    page = Page(client.get(workload.get_absolute_url(language)).content.decode())
    header, *rows = page.table_cells()
    columns = list(workload.columns.all())
    gpus = [row.gpu for row in workload.rows.select_related("gpu")]
    assert len(header) == len(columns) + 1 and len(rows) == len(gpus)
    with translation.override(language):
        missing = not_published()
    for cells, gpu in zip(rows, gpus, strict=True):
        csv_row = CSV_ROWS[gpu.slug]
        assert cells[0].replace(" ", "").startswith(csv_row["name"].replace(" ", ""))
        for column, cell in zip(columns, cells[1:], strict=True):
            want = expected(column, csv_row)
            where = f"{gpu.slug} / {column.key}: {cell!r}"
            if want is None:
                assert cell == missing, where
            elif want is NOT_SUPPORTED:
                assert cell == not_supported_cell(language), where
            elif isinstance(want, str):
                assert cell == want, where
            elif isinstance(want, list):
                assert numbers_in(cell, language) == want, where
            else:
                assert numbers_in(cell, language) == [want], where
