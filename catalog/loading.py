"""Load the GPU facts of ``catalog/data/gpus.csv`` into the database. ``catalog/data/README.md`` says how a
cell reads: a value, empty for "not published", or ``n/a`` for "not supported", and where figures come from."""
import csv
import re
import tomllib
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from core.pages import language_codes

from .models import GPU, PricePoint
from .price_history import record_current_price
from .specs import UNSUPPORTABLE_SPECS

GPUS_CSV = Path(__file__).resolve().parent / "data" / "gpus.csv"
TRANSLATIONS_TOML = Path(__file__).resolve().parent / "data" / "translations.toml"

DECIMAL_FIELDS = (
    "memory_gb", "bandwidth_gbs", "bf16_dense_tflops", "fp8_dense_tflops", "fp32_tflops", "fp64_tflops",
    "fp64_tensor_tflops", "interconnect_gbs", "price_usd_per_hour", "bf16_dense_tflops_derived",
    "bandwidth_gbs_derived",
)
INTEGER_FIELDS = ("max_power_w", "year")
TEXT_FIELDS = ("vendor", "name", "architecture", "memory_type")
# Text in words: the file's English value, and its translations from ``translations.toml`` (editors change them
# in the admin's language tabs). A value without a translation (a name: "OAM", "NVLink 4") reads as in English.
TRANSLATED_TEXT_FIELDS = ("form_factor", "interconnect", "derived_source")


def translated_languages():
    """The languages a value in English is translated into: every site language but the source one."""
    return [code for code in language_codes() if code != settings.LANGUAGE_CODE]


# A value with a lower-case word ("consumer card", "bridge (pairs)") is in English and must be translated; names
# and codes are capitalized ("PCIe Gen4", "Infinity Fabric").
ENGLISH_WORD = re.compile(r"\b[a-z]{2,}\b")
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


def read_translations(path=TRANSLATIONS_TOML):
    """{English value: {language: text}} of the data's words."""
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def translated_values(row, translations):
    """The ``<field>_<language>`` values of the row's words; a value in English words without a translation in
    every language is refused (it would show in English on the other languages' pages)."""
    values = {}
    for field in TRANSLATED_TEXT_FIELDS:
        english = row[field]
        texts = translations.get(english, {})
        missing = [language for language in translated_languages() if not texts.get(language)]
        if english and ENGLISH_WORD.search(english) and missing:
            raise ValueError(f"{row['slug']}: {field} {english!r} has no translation in {', '.join(missing)} "
                             f"({TRANSLATIONS_TOML.name})")
        values[f"{field}_en"] = english
        values.update({f"{field}_{language}": texts.get(language) or None for language in translated_languages()})
    return values


def launch_price_time(row):
    """The launch price's time: the date the launch data gives it (``price_date``), at midnight UTC; never the
    time it was loaded."""
    if not row.get("price_date"):
        raise ValueError(f"{row['slug']}: a launch price needs its price_date")
    return datetime.fromisoformat(row["price_date"]).replace(tzinfo=UTC)


def gpu_values(row, translations=None):
    """The model field values of one CSV row; an empty cell is "not published" (None), ``n/a`` "not supported"
    (None, and the spec listed in ``unsupported_specs``)."""
    unsupported = unsupported_specs(row)
    row = {field: "" if field in unsupported else cell for field, cell in row.items()}
    values = {field: Decimal(row[field]) if row[field] else None for field in DECIMAL_FIELDS}
    values.update({field: int(row[field]) if row[field] else None for field in INTEGER_FIELDS})
    values.update({field: row[field] for field in TEXT_FIELDS})
    values.update(translated_values(row, read_translations() if translations is None else translations))
    values["price_updated_at"] = launch_price_time(row) if values["price_usd_per_hour"] is not None else None
    values["price_source"] = PricePoint.Source.LAUNCH
    values["rt_cores"] = values["rt_core_generation"] = None
    if row["rt_cores"]:
        match = RT_CORES.match(row["rt_cores"].strip())
        if not match:
            raise ValueError(f"{row['slug']}: cannot read rt_cores {row['rt_cores']!r}")
        values["rt_cores"] = int(match["count"])
        values["rt_core_generation"] = int(match["generation"])
    values["unsupported_specs"] = unsupported
    return values


def read_gpus(path=GPUS_CSV, translations_path=TRANSLATIONS_TOML):
    translations = read_translations(translations_path)
    with open(path, newline="", encoding="utf-8") as handle:
        return {row["slug"]: gpu_values(row, translations) for row in csv.DictReader(handle)}


def newer_point_exists(gpu):
    return gpu.price_updated_at is not None and PricePoint.objects.filter(
        gpu=gpu, time__gte=gpu.price_updated_at).exclude(usd_per_hour=gpu.price_usd_per_hour).exists()


def load_gpus(path=GPUS_CSV, *, reset=False):
    """Create the GPUs that are missing; with ``reset``, also overwrite existing ones with the file. A price
    the file sets (one the GPU's history does not end with) is a point of its history, at the date the file
    gives the launch prices (never the time of loading).

    Returns the number of GPUs created and updated."""
    created = updated = 0
    for slug, values in read_gpus(path).items():
        gpu = GPU.objects.filter(slug=slug).first()
        if gpu is None:
            gpu = GPU.objects.create(slug=slug, **values)
            created += 1
        elif reset:
            for field, value in values.items():
                setattr(gpu, field, value)
            if newer_point_exists(gpu):
                # Restoring the file over later prices is a change made now; an older time would put the restored
                # price behind the history's newest point.
                gpu.price_updated_at = timezone.now()
            gpu.save()
            updated += 1
        else:
            continue
        if gpu.price_updated_at is not None:
            record_current_price(gpu, gpu.price_updated_at, PricePoint.Source.LAUNCH)
    return created, updated
