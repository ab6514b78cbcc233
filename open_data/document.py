"""What the open data feed says, built from the catalogue: every GPU with its specs (each in one of the three
states of ``catalog.specs``), its current price and the largest model per sizing method on 1 and 8 GPUs; and a
GPU's price history. The JSON documents and the CSV rows are built here; ``views`` writes them out.

Numbers are the exact stored or computed values (Decimals, Fractions, ints), the same the pages format: the
JSON writer (``json_text``) writes them without a float in between. Times are ISO 8601 in UTC ("…Z"); a launch
price's time is the launch data's date (midnight UTC) and its ``price_source`` says "launch". Text values (form
factor, interconnect, the derived figures' source) are the English ones.

Schema 1.1 added, beside the 1.0 fields and without changing them: ``derived_specs`` (per-GPU figures derived
from a vendor's system figure, for specs whose state stays "not_published"), ``derived_source`` and
``price_source``; in the CSV, the same as columns after ``page``. Schema 1.2 added ``price_at_since`` to a
GPU's price history: the price in force when its window opens, so that a price older than the window is not lost."""
from datetime import UTC, datetime, time, timedelta

from django.db.models import F, Window
from django.db.models.functions import RowNumber, TruncDate
from django.urls import reverse
from django.utils import translation

from catalog.columns import LargestModelColumn
from catalog.models import GPU, PricePoint
from catalog.sizing import USABLE_MEMORY_SHARE
from catalog.sizing_methods import SIZING_METHODS
from catalog.specs import DERIVED_FIELDS, SPECS, SPECS_BY_KEY, derived_value, is_not_supported, spec_value
from core.pages import absolute_url

SCHEMA_VERSION = "1.2"
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
# The price history's window: the last year by default (``?since=`` for another start), every point of the
# last 90 days and each UTC day's last point before them, so that a long history stays a small file, quick to
# render (``make bench-history-feed``).
HISTORY_DEFAULT_DAYS = 365
HISTORY_ALL_POINTS_DAYS = 90
# A price point as the history gives it (``point_entry``).
POINT_FIELDS = ("time", "usd_per_hour", "source")


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


def derived_specs(gpu):
    """{spec key: {"value": 2250, "unit": "TFLOPS", "derived": true}} for each spec not published per GPU whose
    figure is derived from a system figure (the spec's own entry stays "not_published")."""
    return {
        key: {"value": value, "unit": SPECS_BY_KEY[key].unit, "derived": True}
        for key in DERIVED_FIELDS if (value := derived_value(gpu, key)) is not None
    }


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
        "derived_specs": derived_specs(gpu),
        "derived_source": gpu.derived_source or None,
        "price_source": gpu.price_source if gpu.price_usd_per_hour is not None or gpu.price_updated_at else None,
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


def history_window(since=None, today=None):
    """The price history's window, as UTC midnights: (since, all_points_since). Points from ``since`` on (by
    default the last ``HISTORY_DEFAULT_DAYS`` days); from ``all_points_since`` on every point, before it each
    UTC day's last one."""
    today = today or datetime.now(UTC).date()
    start = since or today - timedelta(days=HISTORY_DEFAULT_DAYS)
    every_point_from = today - timedelta(days=HISTORY_ALL_POINTS_DAYS)
    return (datetime.combine(start, time.min, tzinfo=UTC),
            datetime.combine(max(start, every_point_from), time.min, tzinfo=UTC))


def history_points(gpu_id, start, every_point_from):
    """(time, price, source) of the window's points, oldest first: every point from ``every_point_from`` on,
    and each UTC day's last one before it, picked by the database (a window function), so that only the points
    the file gives are read: two queries, however long the history."""
    points = PricePoint.objects.filter(gpu_id=gpu_id).order_by("time", "pk")
    older = []
    if start < every_point_from:
        older = list(
            points.filter(time__gte=start, time__lt=every_point_from)
            .annotate(rank_in_day=Window(RowNumber(), partition_by=TruncDate("time", tzinfo=UTC),
                                         order_by=(F("time").desc(), F("pk").desc())))
            .filter(rank_in_day=1).values_list(*POINT_FIELDS)
        )
    return older + list(points.filter(time__gte=every_point_from).values_list(*POINT_FIELDS))


def price_in_force(gpu_id, moment):
    """(time, price, source) of the last point before ``moment``: the price in force then (None: there was none)."""
    return (PricePoint.objects.filter(gpu_id=gpu_id, time__lt=moment).order_by("-time", "-pk")
            .values_list(*POINT_FIELDS).first())


def point_entry(point):
    moment, price, source = point
    return {"time": utc_text(moment), "usd_per_hour": price, "source": source}


def price_history_document(slug, since=None, today=None):
    """A GPU's price points in its window (``history_window``), oldest first, and the price in force when the
    window opens, in four queries however long its history; None when no GPU has this slug."""
    gpu = GPU.objects.filter(slug=slug).values("pk", "slug", "name").first()
    if gpu is None:
        return None
    start, every_point_from = history_window(since, today)
    return {
        **header("prices"),
        "gpu": {"slug": gpu["slug"], "name": gpu["name"]},
        "window": {"since": utc_text(start), "all_points_since": utc_text(every_point_from)},
        "price_at_since": point_entry(before) if (before := price_in_force(gpu["pk"], start)) else None,
        "points": [point_entry(point) for point in history_points(gpu["pk"], start, every_point_from)],
    }


def csv_header():
    columns = ["slug", "name"]
    for spec in FEED_SPECS:
        columns += [spec.key, f"{spec.key}_state"]
    columns += ["rt_core_generation", "price_usd_per_hour", "price_updated_at"]
    columns += [f"largest_model_{method.key}_gpus_{count}" for method in SIZING_METHODS for count in GPU_COUNTS]
    # Added in 1.1, after the 1.0 columns.
    return [*columns, "page", *(f"{key}_derived" for key in DERIVED_FIELDS), "derived_source", "price_source"]


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
        derived = [entry["derived_specs"].get(key, {}).get("value") for key in DERIVED_FIELDS]
        yield [*row, entry["page"], *derived, entry["derived_source"], entry["price_source"]]
