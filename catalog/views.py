"""The catalogue, a page per GPU and the comparison: public GET pages, cached whole,
each in a constant number of queries however many GPUs there are."""
from urllib.parse import urlencode

from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from caching.fragments import cached
from caching.pages import cached_page, canonical_page
from core.formatting import format_date_time, format_long_date, format_share
from core.pages import page_context, urls_by_language, with_query

from . import gpu_tables, sizing
from .alternatives import nearest_alternatives
from .catalogue import DEFAULT_SORT, catalogue_gpus, catalogue_table, priced_gpus
from .comparison import MAX_GPUS, chart_data_rows, comparison_charts, fit_rows, spec_rows
from .current_gpus import current_gpus
from .forms import CatalogueForm, CompareForm
from .gpu_price_chart import price_history_section
from .gpu_ranking import gpu_ranking
from .price_freshness import prices_freshness
from .price_history import HISTORY_DAYS, price_history
from .specs import SPECS, derived_figure_notes, spec_label, spec_text, spec_text_with_derived
from .structured_data import gpu_product


def query_paths(view_name, query_pairs):
    """The page's path in each language with its query string: the language switcher, canonical and
    hreflang links keep what the visitor chose."""
    return with_query(urls_by_language(view_name), urlencode(query_pairs))


def catalogue_preset(form):
    """The catalogue's canonical query, cached: none, a vendor, an order, or both (the links the site writes,
    bounded by the choices). None for anything else (a minimum memory, an invalid value): rendered uncached."""
    chosen = form.cleaned_data
    if form.errors or chosen.get("min_memory") is not None:
        return None
    return [(name, chosen[name]) for name in ("vendor", "sort") if chosen.get(name)]


@cached_page(query=CatalogueForm.base_fields)
def gpu_list(request):
    priced = priced_gpus()
    form = CatalogueForm(request.GET, vendors=priced.vendors)
    form.is_valid()  # an invalid field is reported and ignored; the valid ones still apply
    chosen = form.cleaned_data
    sort = chosen.get("sort") or DEFAULT_SORT
    query = [(name, value) for name, value in form.query_pairs()
             if name not in form.errors and (name, value) != ("sort", DEFAULT_SORT)]
    preset = catalogue_preset(form)

    def body():
        gpus = catalogue_gpus(priced, chosen.get("vendor"), chosen.get("min_memory"), sort)
        headings, rows = catalogue_table(priced, gpus, sort, [(name, value) for name, value in query if name != "sort"])
        return mark_safe(render_to_string("includes/catalog/catalogue_body.html", {
            "form": form, "headings": headings, "rows": rows,
            "shows_not_supported": any(row.shows_not_supported for row in rows),
            "derived_notes": derived_figure_notes(gpus),
        }))

    context = page_context(
        request, query_paths("catalog:gpu_list", query),
        title=_("All GPU models: specs and prices"),
        description=_("Every GPU on EverXCloud with its memory, bandwidth, BF16 throughput and best live price per "
                      "hour; sort and filter them."),
    )
    # A preset (the links the site writes: bounded by the choices) shows the content and the minute alone: its body
    # is rendered once per content version, language and minute. Any other input is rendered on every request.
    context["body"] = body() if preset is None else cached(
        ("catalogue", priced.version, priced.minute, translation.get_language(), tuple(preset)), body)
    return canonical_page(render(request, "catalog/gpu_list.html", context), preset)


def price_freshness(gpu):
    """When the price was set (``catalog.price_freshness``), as the price block writes it; None without a time."""
    freshness = prices_freshness([gpu])
    if freshness is None:
        return None
    if freshness.updated is None:
        return {"launch": True, "text": format_long_date(freshness.launch_date),
                "iso": freshness.launch_date.isoformat()}
    return {"launch": False, "text": format_date_time(freshness.updated),
            "iso": freshness.updated.isoformat(timespec="seconds")}


def rows_in_tables(gpu, language):
    """Each published table (a workload's) that lists ``gpu``, with the GPU's cell under each column."""
    return [
        (table, [(heading, column.text(gpu)) for heading, column in table.columns])
        for table in gpu_tables.published(language) if gpu.pk in table.gpu_ids
    ]


def compare_slugs(gpu, alternatives):
    """The GPUs a GPU's page links the comparison with: itself and its nearest alternatives."""
    return sorted({gpu.slug} | {alternative.gpu.slug for alternative in alternatives if alternative.gpu})


def gpu_page_details(gpu, gpus, language):
    """The parts of a GPU's page below its price and price history: the price alert and the other apps' panels, its
    specs, its rank among ``gpus``, the workload tables that list it and its nearest alternatives. They show
    stored figures only, which an editor's change or an import changes (both move the content version): rendered
    once per content version and language, and cached (``caching.fragments``)."""
    alternatives = nearest_alternatives(gpu, gpus)
    compared = compare_slugs(gpu, alternatives)
    return mark_safe(render_to_string("includes/catalog/gpu_page_details.html", {
        "gpu": gpu,
        "specs": [(spec_label(spec.key), spec_text_with_derived(gpu, spec.key)) for spec in SPECS],
        "derived_notes": derived_figure_notes([gpu]),
        "rows_in_tables": rows_in_tables(gpu, language),
        "alternatives": alternatives,
        "ranking_chart": gpu_ranking(gpu, gpus),
        "compare_query": urlencode([("gpu", slug) for slug in compared]) if len(compared) > 1 else "",
    }))


def gpu_price_markup(gpu, version, language, end):
    """The price block and the price history of ``gpu``'s page, up to ``end``: they show stored prices and the
    time, so they are rendered once per content version (``version``, the one ``gpu`` was read in), language,
    time zone and minute, and cached (``caching.fragments``); a 90-day chart moves by less than a pixel in a
    minute."""
    key = ("gpu-page-price", version, language, timezone.get_current_timezone_name(), gpu.pk, end)
    return cached(key, lambda: mark_safe(render_to_string("includes/catalog/gpu_price.html", {
        "gpu": gpu,
        "price_updated": price_freshness(gpu),
        "price_history": price_history_section(gpu, price_history(gpu, end)),
        "price_history_days": HISTORY_DAYS,
    })))


@cached_page
def gpu_detail(request, slug):
    gpus = current_gpus()
    gpu = gpus.by_slug.get(slug)
    if gpu is None:
        raise Http404
    language = translation.get_language()
    title = _("%(gpu)s: specs, price and which jobs it fits") % {"gpu": gpu.name}
    context = page_context(
        request, {code: gpu.get_absolute_url(code) for code in gpu.page_languages()},
        title=title,
        description=_("%(vendor)s %(gpu)s: %(memory)s of %(memory_type)s memory, its specs, best live price, "
                      "the largest models it fits and its nearest alternatives.") % {
            "vendor": gpu.vendor, "gpu": gpu.name, "memory": spec_text(gpu, "memory_gb"),
            "memory_type": gpu.memory_type or spec_text(gpu, "memory_type"),
        },
        breadcrumbs=[(_("Home"), reverse("home")), (_("All GPU models"), reverse("catalog:gpu_list"))],
        structured_data=[gpu_product(request, gpu, title)],
    )
    context.update({
        "gpu": gpu,
        # The price and its history show the time (the change over days up to now, to the minute).
        "price": gpu_price_markup(gpu, gpus.version, language, timezone.now().replace(second=0, microsecond=0)),
        "details": cached(("gpu-page-details", gpus.version, language, gpu.pk),
                          lambda: gpu_page_details(gpu, list(gpus.gpus), language)),
    })
    return render(request, "catalog/gpu_detail.html", context)


def compare_data(request, tables, gpus):
    """The form's data: a workload's link brings only its table's key, and its first GPUs are preselected."""
    data = request.GET.copy()
    table = tables.get(data.get("workload"))
    if table and not data.getlist("gpu"):
        slugs = {gpu.pk: gpu.slug for gpu in gpus}
        data.setlist("gpu", [slugs[gpu_id] for gpu_id in table.gpu_ids[:MAX_GPUS]])
    return data


def compare_preset(request, form, gpus):
    """The comparison's canonical query, cached: none, a workload's link (``?workload=`` alone) or a GPU page's
    link (its GPU and nearest alternatives, in slug order); at most one per workload and one per GPU. None for
    any other choice or an invalid one: rendered uncached."""
    if not form.is_bound:
        return []
    if not form.is_valid():
        return None
    chosen, workload = form.cleaned_data["gpu"], form.cleaned_data["workload"]
    if workload and "gpu" not in request.GET:
        return [("workload", workload)]
    by_slug = {gpu.slug: gpu for gpu in gpus}
    if not workload and any(compare_slugs(by_slug[slug], nearest_alternatives(by_slug[slug], gpus)) == chosen
                            for slug in chosen):
        return [("gpu", slug) for slug in chosen]
    return None


def comparison_markup(chosen, table):
    """The comparison of the ``chosen`` GPUs (with ``table``'s sizing columns): it shows their stored figures and the
    table's, which only an editor's change or an import changes (both move the content version), so it is rendered
    once per content version, language and choice, and cached (``caching.fragments``)."""
    charts = comparison_charts(chosen)
    return mark_safe(render_to_string("includes/catalog/comparison.html", {
        "gpus": chosen,
        "table": table,
        "usable_share": format_share(sizing.USABLE_MEMORY_SHARE),
        "spec_rows": spec_rows(chosen),
        "derived_notes": derived_figure_notes(chosen),
        "fit_rows": fit_rows(chosen, table.sizing_columns if table else ()),
        "charts": charts,
        "chart_rows": chart_data_rows(chosen, charts),
    }))


@cached_page(query=CompareForm.base_fields)
def compare(request):
    language = translation.get_language()
    current = current_gpus()
    gpus = list(current.gpus)
    tables = {table.key: table for table in gpu_tables.published(language)}
    submitted = "gpu" in request.GET or "workload" in request.GET
    form = CompareForm(compare_data(request, tables, gpus) if submitted else None,
                       gpus=gpus, tables=tables.values())
    context_data = {"form": form}
    title = _("Compare GPUs")
    if form.is_valid():
        chosen = [current.by_slug[slug] for slug in form.cleaned_data["gpu"]]
        table = tables.get(form.cleaned_data["workload"])
        names = get_text_list([gpu.name for gpu in chosen], _("and"))
        title = _("Compare %(gpus)s") % {"gpus": names}
        context_data.update({
            "gpus": chosen,
            "comparison": cached(
                ("comparison", current.version, language, tuple(form.cleaned_data["gpu"]), table and table.key),
                lambda: comparison_markup(chosen, table)),
        })
        query = [("gpu", slug) for slug in form.cleaned_data["gpu"]]
        query += [("workload", table.key)] if table else []
    else:
        query = form.query_pairs() if submitted else []
    context = page_context(
        request, query_paths("catalog:compare", query), title=title,
        description=_("Two to four GPUs side by side: specs, the largest model each fits, price per hour, and "
                      "throughput and trainable model size per dollar."),
    )
    context.update(context_data)
    preset = compare_preset(request, form, gpus)

    def form_markup():
        return mark_safe(render_to_string("includes/catalog/compare_form.html", {"form": form}))

    # A preset (a workload's or a GPU page's link: at most one per workload and per GPU) shows the content alone: its
    # form is rendered once per content version and language. Any other choice is rendered on every request.
    context["form_markup"] = form_markup() if preset is None else cached(
        ("compare form", current.version, language, tuple(preset)), form_markup)
    return canonical_page(render(request, "catalog/compare.html", context), preset)
