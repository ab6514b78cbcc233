"""A workload's table: each column's cell for each GPU, from the GPU's specs or a sizing rule."""
from dataclasses import dataclass

from catalog import sizing
from catalog.specs import spec_text
from core.formatting import format_model_size, format_quantity, format_tokens_per_second, not_published

from .models import WorkloadColumn

Kind = WorkloadColumn.Kind


def cell_text(column, gpu):
    if column.kind == Kind.SPEC:
        return spec_text(gpu, column.spec)
    if column.kind == Kind.MODEL_FIT:
        return format_model_size(sizing.largest_model_params(gpu.memory_gb, column.gpu_count, column.method))
    if column.kind == Kind.DECODE_CEILING:
        if gpu.bandwidth_gbs is None:
            return not_published()
        return format_tokens_per_second(
            sizing.decode_tokens_per_second_ceiling(gpu.bandwidth_gbs, column.model_billion_params, column.method)
        )
    if column.kind == Kind.USABLE_MEMORY:
        return format_quantity(sizing.usable_memory_gb(gpu.memory_gb, column.gpu_count), "GB")
    raise ValueError(f"unknown column kind {column.kind!r}")


@dataclass(frozen=True)
class TableRow:
    gpu: object
    cells: list


def workload_table(workload):
    """Rows of (GPU, cell texts) in the workload's order; expects columns and rows prefetched."""
    columns = list(workload.columns.all())
    return [TableRow(row.gpu, [cell_text(column, row.gpu) for column in columns]) for row in workload.rows.all()]
