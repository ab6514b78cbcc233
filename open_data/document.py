"""What the open data feed says, built from the catalogue: every GPU with its specs (each in one of the three
states of ``catalog.specs``), its current price and the largest model per sizing method on 1 and 8 GPUs; and a
GPU's price history. The JSON documents and the CSV rows are built here; ``views`` writes them out.

Numbers are the exact stored or computed values (Decimals, Fractions, ints), the same the pages format: the
JSON writer (``json_text``) writes them without a float in between. Times are ISO 8601 in UTC ("…Z"). Text
values (form factor, interconnect) are the English ones."""
from datetime import UTC

from django.urls import reverse
from django.utils import translation

from catalog.columns import LargestModelColumn
from catalog.models import GPU
from catalog.sizing import USABLE_MEMORY_SHARE
from catalog.sizing_methods import SIZING_METHODS
from catalog.specs import SPECS, is_not_supported, spec_value
from core.pages import absolute_url

SCHEMA_VERSION = "1.0"
# The data's licence, the same in every language (the documentation page translates what it means).
LICENCE_URL = "https://creativecommons.org/licenses/by/4.0/"
LICENCE = f"CC BY 4.0 ({LICENCE_URL}); attribution: EverXCloud"
# The GPU counts the feed gives the largest model for.
GPU_COUNTS = (1, 8)
# The spec states, as the feed writes them.
PUBLISHED, NOT_PUBLISHED, NOT_SUPPORTED = "published", "not_published", "not_supported"
# The price is its own field, not a spec object: null means no live offer.
FEED_SPECS = tuple(spec for spec in SPECS if spec.key != "price_usd_per_hour")
TEXT_LANGUAGE = "en"


def utc_text(moment):
    """ISO 8601 in UTC, to the second: "2026-11-30T12:05:00Z"; None stays None."""
    if moment is None:
        return None
    return moment.astimezone(UTC).replace(microsecond=0, tzinfo=None).isoformat() + "Z"


def spec_state(gpu, key):
    if spec_value(gpu, key) is not None:
        return PUBLISHED
    return NOT_SUPPORTED if is_not_supported(gpu, key) else NOT_PUBLISHED


def spec_entry(gpu, spec):
    """A spec as the JSON gives it: {"state": "published", "value": 80.0, "unit": "GB"}, or only its state."""
    state = spec_state(gpu, spec.key)
    if state != PUBLISHED:
        return {"state": state}
    entry = {"state": state, "value": spec_value(gpu, spec.key)}
    if spec.unit:
        entry["unit"] = spec.unit
    if spec.key == "rt_cores":
        entry["generation"] = gpu.rt_core_generation
    return entry


def largest_models(gpu):
    """{method key: {"gpus_1": billions, "gpus_8": billions}}, as the workload tables compute them."""
    return {
        method.key: {f"gpus_{count}": LargestModelColumn(method.key, count).value(gpu) for count in GPU_COUNTS}
        for method in SIZING_METHODS
    }


def prices_path(slug):
    return reverse("data:gpu_prices", kwargs={"slug": slug})


def gpu_entry(gpu):
    return {
        "slug": gpu.slug,
        "name": gpu.name,
        "page": absolute_url(gpu.get_absolute_url(TEXT_LANGUAGE)),
        "price_history": absolute_url(prices_path(gpu.slug)),
        "specs": {spec.key: spec_entry(gpu, spec) for spec in FEED_SPECS},
        "price_usd_per_hour": gpu.price_usd_per_hour,
        "price_updated_at": utc_text(gpu.price_updated_at),
        "largest_model_billion_params": largest_models(gpu),
    }


def header(schema_name):
    return {
        "schema_version": SCHEMA_VERSION,
        "schema": absolute_url(reverse("data:schema", kwargs={"name": schema_name})),
        "licence": LICENCE,
        "documentation": absolute_url(documentation_path()),
    }


def documentation_path():
    with translation.override(TEXT_LANGUAGE):
        return reverse("open_data:docs")


def gpus_document():
    """The whole feed: every GPU in the catalogue's order, in one query."""
    gpus = list(GPU.objects.all())
    with translation.override(TEXT_LANGUAGE):
        entries = [gpu_entry(gpu) for gpu in gpus]
    times = [gpu.price_updated_at for gpu in gpus if gpu.price_updated_at]
    return {
        **header("gpus"),
        "updated_at": utc_text(max(times)) if times else None,
        "usable_memory_share": USABLE_MEMORY_SHARE,
        "sizing_methods": [
            {"key": method.key, "bytes_per_parameter": method.bytes_per_parameter, "serves": method.serves}
            for method in SIZING_METHODS
        ],
        "gpus": entries,
    }


def price_history_document(slug):
    """A GPU's price points, oldest first, in one query; None when no GPU has this slug."""
    rows = list(
        GPU.objects.filter(slug=slug)
        .values_list("slug", "name", "price_points__time", "price_points__usd_per_hour", "price_points__source")
        .order_by("price_points__time", "price_points__pk")
    )
    if not rows:
        return None
    return {
        **header("prices"),
        "gpu": {"slug": rows[0][0], "name": rows[0][1]},
        "points": [
            {"time": utc_text(time), "usd_per_hour": price, "source": source}
            for _slug, _name, time, price, source in rows if time is not None
        ],
    }


def csv_header():
    columns = ["slug", "name"]
    for spec in FEED_SPECS:
        columns += [spec.key, f"{spec.key}_state"]
    columns += ["rt_core_generation", "price_usd_per_hour", "price_updated_at"]
    columns += [f"largest_model_{method.key}_gpus_{count}" for method in SIZING_METHODS for count in GPU_COUNTS]
    return [*columns, "page"]


def csv_rows(document):
    """One row per GPU of ``gpus_document()``, in ``csv_header()``'s order: the same values, flattened."""
    for entry in document["gpus"]:
        row = [entry["slug"], entry["name"]]
        for spec in FEED_SPECS:
            value = entry["specs"][spec.key]
            row += [value.get("value"), value["state"]]
        row += [entry["specs"]["rt_cores"].get("generation"), entry["price_usd_per_hour"], entry["price_updated_at"]]
        row += [entry["largest_model_billion_params"][method.key][f"gpus_{count}"]
                for method in SIZING_METHODS for count in GPU_COUNTS]
        yield [*row, entry["page"]]
