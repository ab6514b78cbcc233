"""The feed's files (outside the language prefixes) and the page that documents them (in every language)."""
import csv
import io
import re
from datetime import UTC, date, datetime
from decimal import Decimal
from fractions import Fraction

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from caching.pages import cached_page
from catalog.models import EARLIEST_PRICE_TIME, GPU
from catalog.sizing_methods import SIZING_METHODS, method_label
from catalog.specs import DERIVED_FIELDS, SPECS_BY_KEY, spec_label
from core.csv_cells import spreadsheet_safe
from core.formatting import format_share
from core.pages import absolute_url, page_context, urls_by_language

from . import document, json_text
from .http import MAX_AGE, open_data_file
from .schemas import SCHEMA_NAMES, schema_document

JSON_TYPE = "application/json"
CSV_TYPE = "text/csv; charset=utf-8"
SCHEMA_TYPE = "application/schema+json"
SINCE_PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def json_response(data, status=200, content_type=JSON_TYPE):
    return HttpResponse(json_text.dumps(data) + "\n", content_type=content_type, status=status)


def not_found(detail):
    """The feed's 404: JSON, in English like the rest of the feed; not cached."""
    return json_response({"error": "not_found", "detail": detail}, status=404)


@open_data_file
def gpus_json(request):
    return json_response(document.gpus_document())


def csv_cell(value):
    """Numbers exactly as the JSON writes them; text formula-neutral (``core.csv_cells``)."""
    value = spreadsheet_safe(value)
    return json_text.exact_number(value) if isinstance(value, Decimal | Fraction) else value


@open_data_file(headers=[("Content-Disposition", 'attachment; filename="everxcloud-gpus.csv"')])
def gpus_csv(request):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(document.csv_header())
    writer.writerows([csv_cell(value) for value in row] for row in document.csv_rows(document.gpus_document()))
    return HttpResponse(out.getvalue().encode(), content_type=CSV_TYPE)


def since_parameter(request):
    """The date of ``?since=YYYY-MM-DD`` (None without one); ValueError, saying what is accepted, for anything
    else: another format, several values, a date before the earliest price or after today (UTC)."""
    values = request.GET.getlist("since")
    if not values:
        return None
    earliest, today = EARLIEST_PRICE_TIME.date(), datetime.now(UTC).date()
    accepted = (f"since must be one date written YYYY-MM-DD, from {earliest.isoformat()} to today "
                f"({today.isoformat()}, UTC)")
    if len(values) > 1 or not SINCE_PATTERN.fullmatch(values[0]):
        raise ValueError(accepted)
    try:
        since = date.fromisoformat(values[0])
    except ValueError:
        raise ValueError(accepted) from None
    if not earliest <= since <= today:
        raise ValueError(accepted)
    return since


def since_refusal(request):
    """The 400 for an invalid ``since``, in JSON like the rest of the feed; not cached."""
    try:
        since_parameter(request)
    except ValueError as error:
        return json_response({"error": "invalid_since", "detail": str(error)}, status=400)
    return None


@open_data_file(query=("since",), refuse=since_refusal)
def gpu_prices(request, slug):
    history = document.price_history_document(slug, since=since_parameter(request))
    if history is None:
        return not_found("No GPU has this slug.")
    return json_response(history)


@open_data_file
def schema(request, name):
    if name not in SCHEMA_NAMES:
        return not_found("No schema has this name.")
    return json_response(schema_document(name, absolute_url(request.path)), content_type=SCHEMA_TYPE)


def field_rows():
    """The documentation's list of fields: (names, meaning, unit) for each spec, then the price and the sizing
    figures (one entry per method, naming a field per GPU count), derived from the registries the feed is built
    from."""
    rows = [((f"specs.{spec.key}",), spec_label(spec.key), spec.unit) for spec in document.FEED_SPECS]
    rows.append((("price_usd_per_hour",), _("Best live offer for one GPU-hour, before tax; null: no live offer"),
                 _("US dollars")))
    rows.append((("price_updated_at",),
                 _("When the price was last updated; for a launch price, the launch data’s date"), _("ISO 8601, UTC")))
    rows.append((("price_source",), _("Where the price comes from: “launch” (the launch data), “import” (a price "
                                      "import) or “admin” (an editor)"), ""))
    derived = _("%(spec)s, derived per GPU from the vendor’s system figure (the spec itself stays “not_published”)")
    rows += [((f"derived_specs.{key}",), derived % {"spec": spec_label(key)}, SPECS_BY_KEY[key].unit)
             for key in DERIVED_FIELDS]
    rows.append((("derived_source",), _("How the derived figures were computed, and the address of the vendor’s "
                                        "figure"), ""))
    counts = get_text_list([str(count) for count in document.GPU_COUNTS], _("and"))
    for method in SIZING_METHODS:
        rows.append((
            tuple(f"largest_model_billion_params.{method.key}.gpus_{count}" for count in document.GPU_COUNTS),
            _("Largest model on %(counts)s GPUs: %(method)s") % {"counts": counts, "method": method_label(method)},
            _("billions of parameters"),
        ))
    return rows


@cached_page
def docs(request):
    example = GPU.objects.order_by("vendor", "name").values_list("slug", flat=True).first() or "h100-sxm"
    title = _("Open data: GPU specs and prices")
    context = page_context(
        request, urls_by_language("open_data:docs"), title=title,
        description=_("Every GPU on EverXCloud with its specs, best live price and the largest models it fits, as "
                      "JSON and CSV under CC BY 4.0: the addresses, every field and the schema."),
        breadcrumbs=[(_("Home"), reverse("home")), (_("All GPU models"), reverse("catalog:gpu_list"))],
    )
    context.update({
        "files": [
            (absolute_url(reverse("data:gpus_json")), _("Every GPU, as JSON")),
            (absolute_url(reverse("data:gpus_csv")), _("Every GPU, as CSV: one row per GPU")),
            (absolute_url(reverse("data:gpu_prices", kwargs={"slug": example})),
             _("A GPU’s price history, oldest first (the GPU’s slug in the address)")),
            (absolute_url(reverse("data:schema", kwargs={"name": "gpus"})), _("JSON Schema of the GPU file")),
            (absolute_url(reverse("data:schema", kwargs={"name": "prices"})), _("JSON Schema of the price history")),
        ],
        "field_rows": field_rows(),
        "schema_version": document.SCHEMA_VERSION,
        # The files keep the English line (their text values are English); the page shows it in its language.
        "licence_line": _("CC BY 4.0 (%(url)s); attribution: EverXCloud") % {"url": document.LICENCE_URL},
        "licence_url": document.LICENCE_URL,
        "max_age_minutes": MAX_AGE // 60,
        "history_days": document.HISTORY_DEFAULT_DAYS,
        "history_all_points_days": document.HISTORY_ALL_POINTS_DAYS,
        "earliest_since": EARLIEST_PRICE_TIME.date().isoformat(),
        "usable_share": format_share(document.USABLE_MEMORY_SHARE),
    })
    return render(request, "open_data/docs.html", context)
