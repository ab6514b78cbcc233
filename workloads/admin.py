from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TabbedTranslationAdmin, TranslationTabularInline

from staff.admin_blocks import block_inline
from staff.admin_preview import preview_links

from .models import CallToAction, Workload, WorkloadColumn, WorkloadFAQ, WorkloadGPU, WorkloadSection


class WorkloadGPUInline(admin.TabularInline):
    model = WorkloadGPU
    extra = 0
    autocomplete_fields = ("gpu",)
    fields = ("order", "gpu")


class WorkloadColumnInline(TranslationTabularInline):
    model = WorkloadColumn
    extra = 0
    fields = ("order", "key", "label", "kind", "spec", "method", "gpu_count", "model_billion_params")


@admin.register(Workload)
class WorkloadAdmin(TabbedTranslationAdmin):
    """A workload on one screen: its text, its table's rows and columns, its sections and FAQs."""

    list_display = ("title", "key", "order", "is_published", "row_count", "updated_at")
    list_filter = ("is_published",)
    list_editable = ("order", "is_published")
    search_fields = ("key", "title", "summary", "intro")
    readonly_fields = ("public_pages", "updated_at")
    fieldsets = (
        (None, {"fields": ("key", "order", "is_published", "public_pages", "updated_at")}),
        (_("Page"), {"fields": ("slug", "title", "summary", "intro")}),
        (_("Table"), {"fields": ("table_heading", "swipe_hint", "note", "chart_column")}),
        (_("Headings and links"), {"fields": ("matters_heading", "compare_label", "faq_heading")}),
    )
    inlines = (WorkloadGPUInline, WorkloadColumnInline, block_inline(WorkloadSection), block_inline(WorkloadFAQ))

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("rows")

    @admin.display(description=_("GPUs in the table"))
    def row_count(self, workload):
        return len(workload.rows.all())

    @admin.display(description=_("public pages"))
    def public_pages(self, workload):
        return preview_links(workload)


@admin.register(CallToAction)
class CallToActionAdmin(TabbedTranslationAdmin):
    list_display = ("heading", "key")
