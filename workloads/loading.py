"""Load the launch content of ``workloads/content/`` (TOML files) into the database.

``<key>.toml`` holds a workload's structure (order, published, table rows and columns);
``<language>/<key>.toml`` its text in that language; ``<language>/calls-to-action.toml`` the calls to
action. Loading is idempotent: by default it creates what is missing and fills translated fields that
are empty, never overwriting what an editor changed; ``reset`` makes the database equal to the files.
"""
import tomllib
from pathlib import Path

from django.conf import settings

from catalog.models import GPU

from .models import CallToAction, Workload, WorkloadColumn, WorkloadFAQ, WorkloadGPU, WorkloadSection

CONTENT_DIR = Path(__file__).resolve().parent / "content"
WORKLOAD_TEXT_FIELDS = (
    "slug", "title", "summary", "intro", "table_heading", "swipe_hint", "note",
    "matters_heading", "compare_label", "faq_heading",
)


def languages():
    return [code for code, _name in settings.LANGUAGES]


def read_toml(path):
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def apply(obj, values, reset):
    """Set ``values`` on ``obj``: all of them with ``reset``, else only fields that are empty."""
    changed = False
    for field, value in values.items():
        if reset or getattr(obj, field) in (None, ""):
            if getattr(obj, field) != value:
                setattr(obj, field, value)
                changed = True
    return changed


def translated(values_by_language, field):
    return {f"{field}_{lang}": text[field] for lang, text in values_by_language.items() if field in text}


def load_ordered(model, parent, items_by_language, fields, reset):
    """A list of items under ``parent`` (a workload's sections or FAQs, the landing page's steps…), matched
    by position (their order number) across languages. ``parent``: {foreign key name: the parent}."""
    count = max((len(items) for items in items_by_language.values()), default=0)
    for position in range(count):
        obj, created = model.objects.get_or_create(
            **parent, order=position + 1,
            defaults={f: "" for f in fields},
        )
        values = {}
        for lang, items in items_by_language.items():
            if position < len(items):
                values.update({f"{f}_{lang}": items[position][f] for f in fields})
        if apply(obj, values, reset or created):
            obj.save()
    if reset:
        model.objects.filter(**parent, order__gt=count).delete()


def load_workload(key, content_dir, reset):
    structure = read_toml(content_dir / f"{key}.toml")
    texts = {
        lang: read_toml(content_dir / lang / f"{key}.toml")
        for lang in languages() if (content_dir / lang / f"{key}.toml").exists()
    }
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
    texts = {
        lang: read_toml(content_dir / lang / "calls-to-action.toml")
        for lang in languages() if (content_dir / lang / "calls-to-action.toml").exists()
    }
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
