"""Load the GPU facts of ``catalog/data/gpus.csv`` into the database. ``catalog/data/README.md`` says how a
cell reads: a value, empty for "not published", or ``n/a`` for "not supported", and where figures come from."""
import csv
import re
from decimal import Decimal
from pathlib import Path

from django.utils import timezone

from .models import GPU, ModelPreset, PricePoint
from .price_history import record_current_price
from .specs import UNSUPPORTABLE_SPECS

GPUS_CSV = Path(__file__).resolve().parent / "data" / "gpus.csv"
MODEL_PRESETS_CSV = Path(__file__).resolve().parent / "data" / "model_presets.csv"

DECIMAL_FIELDS = (
    "memory_gb", "bandwidth_gbs", "bf16_dense_tflops", "fp8_dense_tflops", "fp32_tflops", "fp64_tflops",
    "fp64_tensor_tflops", "interconnect_gbs", "price_usd_per_hour",
)
INTEGER_FIELDS = ("max_power_w", "year")
TEXT_FIELDS = ("vendor", "name", "architecture", "memory_type")
# Text in words, stored as the English value; editors translate it in the admin.
ENGLISH_TEXT_FIELDS = ("form_factor", "interconnect")
RT_CORES = re.compile(r"^(?P<count>\d+)\s*\((?P<generation>\d+)(?:st|nd|rd|th) gen\)$")
# The cell of a spec the GPU does not support (the feature does not exist on it).
NOT_SUPPORTED_CELL = "n/a"


def unsupported_specs(row):
    """The specs marked ``n/a`` in a CSV row, which must be specs a GPU may lack; their cells read as empty."""
    marked = [field for field, cell in row.items() if cell and cell.strip() == NOT_SUPPORTED_CELL]
    refused = [field for field in marked if field not in UNSUPPORTABLE_SPECS]
    if refused:
        raise ValueError(f"{row['slug']}: {', '.join(refused)} cannot be {NOT_SUPPORTED_CELL!r} (not supported)")
    return marked


def gpu_values(row):
    """The model field values of one CSV row; an empty cell is "not published" (None), ``n/a`` "not supported"
    (None, and the spec listed in ``unsupported_specs``)."""
    unsupported = unsupported_specs(row)
    row = {field: "" if field in unsupported else cell for field, cell in row.items()}
    values = {field: Decimal(row[field]) if row[field] else None for field in DECIMAL_FIELDS}
    values.update({field: int(row[field]) if row[field] else None for field in INTEGER_FIELDS})
    values.update({field: row[field] for field in TEXT_FIELDS})
    values.update({f"{field}_en": row[field] for field in ENGLISH_TEXT_FIELDS})
    values["rt_cores"] = values["rt_core_generation"] = None
    if row["rt_cores"]:
        match = RT_CORES.match(row["rt_cores"].strip())
        if not match:
            raise ValueError(f"{row['slug']}: cannot read rt_cores {row['rt_cores']!r}")
        values["rt_cores"] = int(match["count"])
        values["rt_core_generation"] = int(match["generation"])
    values["unsupported_specs"] = unsupported
    return values


def read_gpus(path=GPUS_CSV):
    with open(path, newline="", encoding="utf-8") as handle:
        return {row["slug"]: gpu_values(row) for row in csv.DictReader(handle)}


def load_gpus(path=GPUS_CSV, *, reset=False):
    """Create the GPUs that are missing; with ``reset``, also overwrite existing ones with the file. A price
    the file sets (one the GPU's history does not end with) is a point of its history.

    Returns the number of GPUs created and updated."""
    created = updated = 0
    now = timezone.now()
    for slug, values in read_gpus(path).items():
        gpu = GPU.objects.filter(slug=slug).first()
        if gpu is None:
            gpu = GPU.objects.create(slug=slug, price_updated_at=now, **values)
            created += 1
        elif reset:
            for field, value in values.items():
                setattr(gpu, field, value)
            gpu.price_updated_at = now
            gpu.save()
            updated += 1
        else:
            continue
        record_current_price(gpu, now, PricePoint.Source.LAUNCH)
    return created, updated


def read_model_presets(path=MODEL_PRESETS_CSV):
    with open(path, newline="", encoding="utf-8") as handle:
        return {
            row["slug"]: {
                "name": row["name"], "billion_params": Decimal(row["billion_params"]),
                "layers": int(row["layers"]), "kv_heads": int(row["kv_heads"]), "head_dim": int(row["head_dim"]),
            }
            for row in csv.DictReader(handle)
        }


def load_model_presets(path=MODEL_PRESETS_CSV, *, reset=False):
    """Create the calculator's model presets that are missing; with ``reset``, overwrite existing ones.

    Returns the number of presets created and updated."""
    created = updated = 0
    for slug, values in read_model_presets(path).items():
        preset = ModelPreset.objects.filter(slug=slug).first()
        if preset is None:
            ModelPreset.objects.create(slug=slug, **values)
            created += 1
        elif reset:
            for field, value in values.items():
                setattr(preset, field, value)
            preset.save()
            updated += 1
    return created, updated
