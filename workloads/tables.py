"""A workload's table: each column's cell for each GPU, from the GPU's specs or a sizing rule."""
from dataclasses import dataclass

from catalog import sizing
from catalog.specs import spec_text
from core.formatting import format_model_size, format_quantity, format_tokens_per_second, not_published

from .models import WorkloadColumn

Kind = WorkloadColumn.Kind


def cell_value(column, gpu):
    """The value behind a column's cell: the spec as stored, or the number its sizing rule gives (exact,
    before formatting); None when it is not published. Charts plot these, so they match the cells."""
    if column.kind == Kind.SPEC:
        value = getattr(gpu, column.spec)
        return None if value == "" else value
    if column.kind == Kind.MODEL_FIT:
        return sizing.largest_model_params(gpu.memory_gb, column.gpu_count, column.method)
    if column.kind == Kind.DECODE_CEILING:
        if gpu.bandwidth_gbs is None:
            return None
        return sizing.decode_tokens_per_second_ceiling(gpu.bandwidth_gbs, column.model_billion_params, column.method)
    if column.kind == Kind.USABLE_MEMORY:
        return sizing.usable_memory_gb(gpu.memory_gb, column.gpu_count)
    raise ValueError(f"unknown column kind {column.kind!r}")


def cell_text(column, gpu):
    if column.kind == Kind.SPEC:
        return spec_text(gpu, column.spec)
    value = cell_value(column, gpu)
    if value is None:
        return not_published()
    if column.kind == Kind.MODEL_FIT:
        return format_model_size(value)
    if column.kind == Kind.DECODE_CEILING:
        return format_tokens_per_second(value)
    return format_quantity(value, "GB")


@dataclass(frozen=True)
class TableRow:
    gpu: object
    cells: list
    gpu_path: str


def workload_table(workload):
    """Rows of (GPU, cell texts, the GPU's page) in the workload's order, in the active language; expects
    columns and rows prefetched."""
    columns = list(workload.columns.all())
    return [
        TableRow(row.gpu, [cell_text(column, row.gpu) for column in columns], row.gpu.get_absolute_url())
        for row in workload.rows.all()
    ]
