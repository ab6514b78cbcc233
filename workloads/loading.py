"""Load the launch content of ``workloads/content/`` (TOML files) into the database.

``<key>.toml`` holds a workload's structure (order, published, table rows and columns);
``<language>/<key>.toml`` its text in that language; ``<language>/calls-to-action.toml`` the calls to
action. Loaded as ``core.content_files`` describes (idempotent; ``reset`` makes the database equal to the
files).
"""
from pathlib import Path

from catalog.models import GPU
from core.content_files import apply, load_ordered, read_toml, read_translations, translated

from .models import CallToAction, Workload, WorkloadColumn, WorkloadFAQ, WorkloadGPU, WorkloadSection

CONTENT_DIR = Path(__file__).resolve().parent / "content"
WORKLOAD_TEXT_FIELDS = (
    "slug", "title", "summary", "intro", "table_heading", "swipe_hint", "note",
    "matters_heading", "compare_label", "faq_heading",
)


def load_workload(key, content_dir, reset):
    structure = read_toml(content_dir / f"{key}.toml")
    texts = read_translations(content_dir, f"{key}.toml")
    workload, created = Workload.objects.get_or_create(key=key, defaults={"order": structure["order"]})
    values = {"order": structure["order"], "is_published": structure["published"],
              "chart_column": structure.get("chart_column", "")}
    for field in WORKLOAD_TEXT_FIELDS:
        values.update(translated(texts, field))
    if apply(workload, values, reset or created):
        workload.save()

    if reset or not workload.rows.exists():
        gpus = {gpu.slug: gpu for gpu in GPU.objects.filter(slug__in=structure["gpus"])}
        missing = set(structure["gpus"]) - set(gpus)
        if missing:
            raise ValueError(f"{key}: unknown GPUs {sorted(missing)}")
        workload.rows.all().delete()
        WorkloadGPU.objects.bulk_create(
            WorkloadGPU(workload=workload, gpu=gpus[slug], order=position)
            for position, slug in enumerate(structure["gpus"], start=1)
        )

    column_keys = [column["key"] for column in structure["columns"]]
    for position, spec in enumerate(structure["columns"], start=1):
        column, column_created = WorkloadColumn.objects.get_or_create(
            workload=workload, key=spec["key"], defaults={"order": position},
        )
        values = {
            "order": position,
            "kind": spec["kind"],
            "spec": spec.get("spec", ""),
            "method": spec.get("method", ""),
            "gpu_count": spec.get("gpu_count", 1),
            "model_billion_params": spec.get("model_billion_params"),
        }
        values.update({
            f"label_{lang}": text["columns"][spec["key"]]
            for lang, text in texts.items() if spec["key"] in text.get("columns", {})
        })
        if apply(column, values, reset or column_created):
            column.clean()
            column.save()
    if reset:
        workload.columns.exclude(key__in=column_keys).delete()
    plottable = {column.key for column in workload.columns.all() if column.is_plottable}
    if workload.chart_column and workload.chart_column not in plottable:
        raise ValueError(f"{key}: chart_column {workload.chart_column!r} is not one of {sorted(plottable)}")

    load_ordered(WorkloadSection, {"workload": workload},
                 {lang: text.get("sections", []) for lang, text in texts.items()}, ("heading", "body"), reset)
    load_ordered(WorkloadFAQ, {"workload": workload},
                 {lang: text.get("faqs", []) for lang, text in texts.items()}, ("question", "answer"), reset)
    return workload


def load_calls_to_action(content_dir, reset):
    texts = read_translations(content_dir, "calls-to-action.toml")
    for key in CallToAction.Key.values:
        cta, created = CallToAction.objects.get_or_create(key=key)
        values = {}
        for field in ("heading", "body", "button_label"):
            values.update({f"{field}_{lang}": text[key][field] for lang, text in texts.items()
                           if field in text.get(key, {})})
        if apply(cta, values, reset or created):
            cta.save()


def workload_keys(content_dir=CONTENT_DIR):
    return sorted(path.stem for path in content_dir.glob("*.toml"))


def load_workloads(content_dir=CONTENT_DIR, *, reset=False):
    workloads = [load_workload(key, content_dir, reset) for key in workload_keys(content_dir)]
    load_calls_to_action(content_dir, reset)
    return workloads
