"""The catalogue's admin: GPUs with their translation tabs. What happens when an editor changes a
price (a point of its history, the event to the apps above) and the price import page are added by ``prices.admin``
through the GPU admin's extension points (``staff.admin_site.ExtensibleModelAdmin``)."""
from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TabbedTranslationAdmin

from staff.admin_preview import preview_links
from staff.admin_site import ExtensibleModelAdmin

from .admin_forms import GPUAdminForm
from .models import GPU


@admin.register(GPU)
class GPUAdmin(ExtensibleModelAdmin, TabbedTranslationAdmin):
    form = GPUAdminForm
    list_display = ("name", "vendor", "memory_gb", "bandwidth_gbs", "price_usd_per_hour", "price_updated_at")
    list_filter = ("vendor", "architecture", "memory_type")
    search_fields = ("name", "slug", "architecture")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("public_pages", "price_source")
    fieldsets = (
        (None, {"fields": ("name", "slug", "vendor", "architecture", "year", "public_pages")}),
        (_("Memory"), {"fields": ("memory_gb", "memory_type", "bandwidth_gbs")}),
        (_("Throughput"), {"fields": (
            "bf16_dense_tflops", "fp8_dense_tflops", "fp32_tflops", "fp64_tflops", "fp64_tensor_tflops",
        )}),
        (_("Derived per GPU"), {"fields": ("bf16_dense_tflops_derived", "bandwidth_gbs_derived", "derived_source")}),
        (_("Board"), {"fields": (
            "max_power_w", "form_factor", "interconnect", "interconnect_gbs", "rt_cores", "rt_core_generation",
        )}),
        (_("Not supported"), {"fields": ("unsupported_specs",)}),
        (_("Price"), {"fields": ("price_usd_per_hour", "price_updated_at", "price_source")}),
    )

    @admin.display(description=_("public pages"))
    def public_pages(self, gpu):
        return preview_links(gpu)
