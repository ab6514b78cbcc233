from django.contrib import admin, messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TabbedTranslationAdmin

from core.admin_preview import preview_links

from .admin_forms import GPUAdminForm, PriceImportForm
from .models import GPU, ModelPreset, PricePoint
from .price_events import CurrentPriceChange, price_changed
from .price_history import record_point
from .price_import import import_prices


@admin.register(GPU)
class GPUAdmin(TabbedTranslationAdmin):
    form = GPUAdminForm
    list_display = ("name", "vendor", "memory_gb", "bandwidth_gbs", "price_usd_per_hour", "price_updated_at")
    list_filter = ("vendor", "architecture", "memory_type")
    search_fields = ("name", "slug", "architecture")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("public_pages", "price_source")
    change_list_template = "admin/catalog/gpu/change_list.html"
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

    def save_model(self, request, obj, form, change):
        """A new price (or an emptied one: the offer withdrawn) is a point of the GPU's history at the time the
        editor gave it, or now (which then becomes the price's time), and is sent to the apps above (price
        alerts), inside the admin's transaction."""
        old = form.initial.get("price_usd_per_hour") if change else None
        new = obj.price_usd_per_hour
        price_changed_here = old != new
        if price_changed_here and ("price_updated_at" not in form.changed_data or obj.price_updated_at is None):
            obj.price_updated_at = timezone.now()
        if price_changed_here or "price_updated_at" in form.changed_data:
            obj.price_source = PricePoint.Source.ADMIN
        super().save_model(request, obj, form, change)
        if price_changed_here:
            record_point(obj, new, obj.price_updated_at, PricePoint.Source.ADMIN)
            price_changed.send(sender=GPU, changes=[
                CurrentPriceChange(obj, old, new, obj.price_updated_at, PricePoint.Source.ADMIN)])

    @admin.display(description=_("public pages"))
    def public_pages(self, gpu):
        return preview_links(gpu)

    def get_urls(self):
        return [
            path(
                "import-prices/", self.admin_site.admin_view(self.import_prices_view), name="catalog_gpu_import_prices",
            ),
            *super().get_urls(),
        ]

    def import_prices_view(self, request):
        """Upload a price file from the market feed; all or nothing, with a report."""
        if not self.has_change_permission(request):
            return redirect("admin:index")
        report = None
        form = PriceImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["price_file"]
            report = import_prices(upload.read(), upload.name)
            if report.applied:
                messages.success(request, _("Prices imported: %(changed)d changed, %(unchanged)d unchanged.") % {
                    "changed": len(report.changes), "unchanged": len(report.unchanged)})
            else:
                messages.error(request, _("Nothing was imported: fix the refused rows and upload the file again."))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Import prices"),
            "opts": self.model._meta,
            "form": form,
            "report": report,
            "changelist_url": reverse("admin:catalog_gpu_changelist"),
        }
        return TemplateResponse(request, "admin/catalog/gpu/import_prices.html", context)


@admin.register(ModelPreset)
class ModelPresetAdmin(admin.ModelAdmin):
    list_display = ("name", "billion_params", "layers", "kv_heads", "head_dim")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
