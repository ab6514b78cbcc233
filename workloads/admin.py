from django.contrib import admin
from modeltranslation.admin import TabbedTranslationAdmin, TranslationStackedInline, TranslationTabularInline

from .models import CallToAction, Workload, WorkloadColumn, WorkloadFAQ, WorkloadGPU, WorkloadSection


class WorkloadGPUInline(admin.TabularInline):
    model = WorkloadGPU
    extra = 0
    autocomplete_fields = ("gpu",)


class WorkloadColumnInline(TranslationTabularInline):
    model = WorkloadColumn
    extra = 0
    fields = ("order", "key", "label", "kind", "spec", "method", "gpu_count", "model_billion_params")


class WorkloadSectionInline(TranslationStackedInline):
    model = WorkloadSection
    extra = 0


class WorkloadFAQInline(TranslationStackedInline):
    model = WorkloadFAQ
    extra = 0


@admin.register(Workload)
class WorkloadAdmin(TabbedTranslationAdmin):
    list_display = ("title", "key", "order", "is_published", "updated_at")
    list_filter = ("is_published",)
    list_editable = ("order", "is_published")
    search_fields = ("key", "title", "summary")
    inlines = (WorkloadGPUInline, WorkloadColumnInline, WorkloadSectionInline, WorkloadFAQInline)


@admin.register(CallToAction)
class CallToActionAdmin(TabbedTranslationAdmin):
    list_display = ("heading", "key")
