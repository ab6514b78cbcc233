"""The workload content every page shows some of, loaded once per content version in each process.

Workloads (with their table columns, rows and GPUs, sections and FAQs) and the calls to action are a
few hundred rows; the header links to the workloads, pages cross-link them, and the calls to action sit
on most pages. Each app server process caches one copy, tagged with the content version it was loaded
under, and loads a new one when an editor's change has bumped the version (``caching.content_version``,
shared by every server through the cache). A page that is not in the page cache then renders from
memory; the first page rendered after a change pays for the reload (6 queries). A workload page's article
(its table, chart, explainers, FAQs, calls to action and cross-links) shows nothing but this content,
so its markup is rendered once per content version and language too.

Model instances cached here are shared by every request of the process: read them, never change them.
Their translated fields read in whatever language is active, so one copy serves every language."""
from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.urls import reverse

from caching.fragments import CachedContent
from catalog.gpu_tables import GPUTable
from catalog.price_freshness import prices_freshness
from catalog.sizing import USABLE_MEMORY_SHARE
from core.formatting import format_share

from .charts import workload_chart
from .models import CallToAction, Workload, WorkloadColumn, WorkloadGPU
from .tables import workload_table


def fit_rule(workload):
    """The share of memory the table's "largest model that fits" columns count, or None without such a column: the
    page says the columns follow that rule, not the calculator's serving memory model."""
    if any(column.kind == WorkloadColumn.Kind.MODEL_FIT for column in workload.columns.all()):
        return format_share(USABLE_MEMORY_SHARE)
    return None


@dataclass
class WorkloadContent:
    version: int
    workloads: list
    calls_to_action: dict
    _paths: dict = field(default_factory=dict)
    _tables: dict = field(default_factory=dict)
    _charts: dict = field(default_factory=dict)
    _gpu_tables: dict = field(default_factory=dict)
    _markup: dict = field(default_factory=dict)
    _page_links: dict = field(default_factory=dict)

    def with_page_in(self, language):
        """Workloads whose page is published in ``language``, in the site's order."""
        return [workload for workload in self.workloads if workload.has_page_in(language)]

    def named_in(self, language):
        """Workloads with a title in ``language``, published or not (cross-links), in the site's order."""
        return [workload for workload in self.workloads if workload.is_named_in(language)]

    def page(self, language, slug):
        """The workload whose page in ``language`` has the address ``slug``, or None."""
        return next((workload for workload in self.with_page_in(language)
                     if getattr(workload, f"slug_{language}") == slug), None)

    def path(self, workload, language):
        """``workload.get_absolute_url(language)``, worked out once per content version."""
        key = (workload.pk, language)
        if key not in self._paths:
            self._paths[key] = workload.get_absolute_url(language)
        return self._paths[key]

    def table(self, workload, language):
        """``workload_table(workload)`` in ``language`` (the active one), worked out once per content version."""
        key = (workload.pk, language)
        if key not in self._tables:
            self._tables[key] = workload_table(workload)
        return self._tables[key]

    def chart(self, workload, language):
        """``workload_chart(workload)`` in ``language`` (the active one), worked out once per content version."""
        key = (workload.pk, language)
        if key not in self._charts:
            self._charts[key] = workload_chart(workload)
        return self._charts[key]

    def article_markup(self, workload, language):
        """The article of ``workload``'s page in ``language`` (the active one), rendered once per content version: it
        shows nothing but this content (its table and chart are most of a page's template work)."""
        key = (workload.pk, language)
        if key not in self._markup:
            self._markup[key] = render_to_string("includes/workloads/workload_article.html", {
                "workload": workload,
                "path": self.path(workload, language),
                "columns": list(workload.columns.all()),
                "fit_rule": fit_rule(workload),
                "calculator": reverse("estimator:calculator"),
                "table_rows": self.table(workload, language),
                "chart": self.chart(workload, language),
                "prices_freshness": prices_freshness(row.gpu for row in workload.rows.all()),
                "other_workloads": self.links(
                    [other for other in self.named_in(language) if other.pk != workload.pk], language),
                "calls_to_action": self.calls_to_action,
            })
        return self._markup[key]

    def gpu_tables(self, language):
        """The tables of the workloads published in ``language`` (the active one), as the catalogue's pages
        show them (``catalog.gpu_tables``), worked out once per content version."""
        if language not in self._gpu_tables:
            self._gpu_tables[language] = [
                GPUTable(
                    key=workload.key, title=workload.title, path=self.path(workload, language),
                    gpu_ids=tuple(row.gpu_id for row in workload.rows.all()),
                    columns=tuple((column.label, column.gpu_column()) for column in workload.columns.all()),
                )
                for workload in self.with_page_in(language)
            ]
        return self._gpu_tables[language]

    def page_links(self, language):
        """(title, path) of each workload page published in ``language`` (the active one), in the site's order,
        worked out once per content version: the header and the footer of every page list them."""
        if language not in self._page_links:
            self._page_links[language] = tuple(
                (workload.title, self.path(workload, language)) for workload in self.with_page_in(language))
        return self._page_links[language]

    def links(self, workloads, language):
        """(workload, path of its page in ``language`` or None) for a list of links."""
        return [(workload, self.path(workload, language) if workload.has_page_in(language) else None)
                for workload in workloads]


def load(version):
    workloads = list(Workload.objects.prefetch_related(
        "columns", "sections", "faqs", Prefetch("rows", queryset=WorkloadGPU.objects.select_related("gpu")),
    ))
    calls_to_action = {cta.key: cta for cta in CallToAction.objects.all()}
    return WorkloadContent(version=version, workloads=workloads, calls_to_action=calls_to_action)


# The content of the current content version, loaded now if this process has not got it yet.
workload_content = CachedContent(load)


def published_gpu_tables(language):
    """The catalogue's provider of workload tables (registered in ``WorkloadsConfig.ready``)."""
    return workload_content().gpu_tables(language)
