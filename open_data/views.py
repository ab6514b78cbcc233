"""The feed's files (outside the language prefixes) and the page that documents them (in every language)."""
import csv
import io
from decimal import Decimal

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from catalog.models import GPU
from catalog.sizing_methods import SIZING_METHODS, method_label
from catalog.specs import spec_label
from core.formatting import format_share
from core.page_cache import cached_page
from core.pages import absolute_url, page_context, urls_by_language

from . import document, json_text
from .http import MAX_AGE, open_data_file
from .schemas import SCHEMA_NAMES, schema_document

JSON_TYPE = "application/json"
CSV_TYPE = "text/csv; charset=utf-8"
SCHEMA_TYPE = "application/schema+json"


def json_response(data, status=200, content_type=JSON_TYPE):
    return HttpResponse(json_text.dumps(data) + "\n", content_type=content_type, status=status)


def not_found(detail):
    """The feed's 404: JSON, in English like the rest of the feed; not cached."""
    return json_response({"error": "not_found", "detail": detail}, status=404)


@open_data_file
def gpus_json(request):
    return json_response(document.gpus_document())


def csv_cell(value):
    if value is None:
        return ""
    return json_text.exact_number(value) if isinstance(value, Decimal) else str(value)


@open_data_file(headers=[("Content-Disposition", 'attachment; filename="everxcloud-gpus.csv"')])
def gpus_csv(request):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(document.csv_header())
    writer.writerows([csv_cell(value) for value in row] for row in document.csv_rows(document.gpus_document()))
    return HttpResponse(out.getvalue().encode(), content_type=CSV_TYPE)


@open_data_file
def gpu_prices(request, slug):
    history = document.price_history_document(slug)
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
    rows.append((("price_updated_at",), _("When the price was last updated"), _("ISO 8601, UTC")))
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
        "licence_line": document.LICENCE,
        "licence_url": document.LICENCE_URL,
        "max_age_minutes": MAX_AGE // 60,
        "usable_share": format_share(document.USABLE_MEMORY_SHARE),
    })
    return render(request, "open_data/docs.html", context)
