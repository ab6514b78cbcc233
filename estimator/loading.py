"""Load the calculator's model presets of ``estimator/data/model_presets.csv`` (``estimator/data/README.md`` says
where each shape comes from) into the ``ModelPreset`` rows, which the calculator alone reads."""
import csv
from decimal import Decimal
from pathlib import Path

from .models import ModelPreset

MODEL_PRESETS_CSV = Path(__file__).resolve().parent / "data" / "model_presets.csv"


def read_model_presets(path=MODEL_PRESETS_CSV):
    with open(path, newline="", encoding="utf-8") as handle:
        return {
            row["slug"]: {
                "name": row["name"], "billion_params": Decimal(row["billion_params"]),
                "active_billion_params": (Decimal(row["active_billion_params"]) if row["active_billion_params"]
                                          else None),
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
