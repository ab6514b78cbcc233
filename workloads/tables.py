"""A workload's table: each column's cell for each GPU, as the catalogue writes a spec or a sizing figure."""
from dataclasses import dataclass


@dataclass(frozen=True)
class TableRow:
    gpu: object
    cells: list
    gpu_path: str


def workload_table(workload):
    """Rows of (GPU, cell texts, the GPU's page) in the workload's order, in the active language; expects
    columns and rows prefetched."""
    columns = [column.gpu_column() for column in workload.columns.all()]
    return [
        TableRow(row.gpu, [column.text(row.gpu) for column in columns], row.gpu.get_absolute_url())
        for row in workload.rows.all()
    ]
