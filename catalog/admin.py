from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TabbedTranslationAdmin

from .models import GPU


@admin.register(GPU)
class GPUAdmin(TabbedTranslationAdmin):
    list_display = ("name", "vendor", "memory_gb", "bandwidth_gbs", "price_usd_per_hour", "price_updated_at")
    list_filter = ("vendor", "architecture", "memory_type")
    search_fields = ("name", "slug", "architecture")
    prepopulated_fields = {"slug": ("name",)}
    fieldsets = (
        (None, {"fields": ("name", "slug", "vendor", "architecture", "year")}),
        (_("Memory"), {"fields": ("memory_gb", "memory_type", "bandwidth_gbs")}),
        (_("Throughput"), {"fields": (
            "bf16_dense_tflops", "fp8_dense_tflops", "fp32_tflops", "fp64_tflops", "fp64_tensor_tflops",
        )}),
        (_("Board"), {"fields": (
            "max_power_w", "form_factor", "interconnect", "interconnect_gbs", "rt_cores", "rt_core_generation",
        )}),
        (_("Price"), {"fields": ("price_usd_per_hour", "price_updated_at")}),
    )
