"""The demand page in the signups admin, and its CSV export: aggregates only (``figures.py``), for superusers.
The Editors group, and any staff member who is not a superuser, is refused (403).

The page hangs under the signups' list (``/admin/signups/signup/demand/``, where the founders look for it): this
app, above signups, adds it through the signups' admin's extension points, so signups names no demand."""
import csv

from babel.dates import format_skeleton
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.csv_cells import spreadsheet_safe
from core.formatting import babel_locale, format_usd
from signups.admin import SignupAdmin
from signups.models import Signup
from signups.signup_actions import SIGNUP_VIA_PAGES
from staff.admin_site import AddedView
from workloads.models import Workload

from . import figures

PAGE_URL_NAME = "signups_demand"
CSV_URL_NAME = "signups_demand_csv"
PAGE_NAME = _("Demand (aggregates)")


def may_view_demand(request):
    return request.user.is_active and request.user.is_superuser


def price_text(amount):
    """A price as exact as it is (a median may have a third decimal), at least to the cent."""
    return format_usd(amount, places=max(2, -amount.as_tuple().exponent))


def group_label(table_key, group, names):
    if table_key == "workload":
        return names.get(group) or (gettext("none named") if group == figures.NO_WORKLOAD else group)
    return names.get(group, group)


def supply_label(row):
    """A catalogue GPU by its name; another one as the application named it, marked as not the catalogue's."""
    return row.gpu_name if row.gpu_slug else gettext("other: %(name)s") % {"name": row.gpu_name}


CHART_WEEKS = 12
CHART_BAR_WIDTH, CHART_STEP, CHART_TOP, CHART_BARS_HEIGHT, CHART_BOTTOM = 40, 60, 20, 140, 24


def weekly_chart(table):
    """Bars of the last weeks' signups (all, and confirmed in front), oldest first, from a table whose groups
    cover every signup (each has a currency). None without signups."""
    weeks = list(reversed(table.weeks[:CHART_WEEKS]))
    if not weeks:
        return None
    sums = [(week, sum(cell[0] for cell in cells), sum(cell[1] for cell in cells)) for week, cells in weeks]
    highest = max(total for _week, _confirmed, total in sums)
    base = CHART_TOP + CHART_BARS_HEIGHT

    def height(count):
        return round(CHART_BARS_HEIGHT * count / highest, 1)

    bars = [{
        "x": 10 + index * CHART_STEP,
        "label_x": 10 + index * CHART_STEP + CHART_BAR_WIDTH / 2,
        "all_y": base - height(total), "all_height": height(total),
        "confirmed_y": base - height(confirmed), "confirmed_height": height(confirmed),
        "value_y": base - height(total) - 5,
        "confirmed": confirmed, "all": total, "label": format_skeleton("MMMd", week, locale=babel_locale()),
    } for index, (week, confirmed, total) in enumerate(sums)]
    return {"bars": bars, "bar_width": CHART_BAR_WIDTH, "width": 20 + len(bars) * CHART_STEP,
            "height": base + CHART_BOTTOM, "label_y": base + 16}


def demand_view(model_admin, request):
    if not may_view_demand(request):
        raise PermissionDenied
    demand = figures.demand()
    names = group_names()
    tables = [{
        "key": table.key,
        "heading": table.heading,
        "groups": [group_label(table.key, group, names[table.key]) for group in table.groups],
        "weeks": [(date_format(week, "DATE_FORMAT"), cells) for week, cells in table.weeks],
        "totals": table.totals,
    } for table in demand.signup_tables]
    alerts = [{
        "gpu": row.gpu_name,
        "confirmed": row.confirmed,
        "price": price_text(row.price) if row.price is not None else None,
        "bands": [row.bands[band.key] for band in figures.BANDS] if row.bands else None,
        "median": price_text(row.median_target),
    } for row in demand.alert_rows]
    pages, languages = dict(SIGNUP_VIA_PAGES), names["language"]
    origins = [{
        "page": pages.get(row.via, row.via) if row.via else gettext("no page recorded"),
        "gpu": row.gpu_name or gettext("none chosen"),
        "language": languages.get(row.language, row.language),
        "confirmed": row.confirmed,
        "all": row.total,
    } for row in demand.origin_rows]
    return TemplateResponse(request, "admin/demand/demand.html", {
        "supply": {"rows": [{**vars(row), "label": supply_label(row)} for row in demand.supply.rows],
                   "unstructured": demand.supply.unstructured_applications},
        **model_admin.admin_site.each_context(request),
        "title": gettext("Demand"),
        "opts": model_admin.model._meta,
        "tables": tables,
        "chart": weekly_chart(next(table for table in demand.signup_tables if table.key == "currency")),
        "alerts": alerts,
        "origins": origins,
        "bands": [band.label for band in figures.BANDS],
    })


def demand_csv_view(model_admin, request):
    if not may_view_demand(request):
        raise PermissionDenied
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="demand-{timezone.now():%Y%m%d-%H%M}.csv"'
    writer = csv.writer(response)
    for row in figures.csv_rows(figures.demand()):
        writer.writerow([spreadsheet_safe(value) for value in row])
    return response


def group_names():
    """The name of each group a table shows: workload titles, currency and language names."""
    return {
        "workload": dict(Workload.objects.values_list("key", "title")),
        "currency": dict(Signup.Currency.choices),
        "language": dict(Signup._meta.get_field("language").choices),
    }


# Under the signups' list, and listed with the signups in the admin's index, for those who may see it.
SignupAdmin.add_view(AddedView("demand/", PAGE_URL_NAME, demand_view, index_name=PAGE_NAME, may_view=may_view_demand))
SignupAdmin.add_view(AddedView("demand/csv/", CSV_URL_NAME, demand_csv_view))
