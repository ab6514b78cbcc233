"""The two ways a GPU's current price changes in the admin, added to the catalogue's GPU admin (``catalog.admin``):
an editor's edit of the price, and the import page for a price file from the market feed (``price_import``). Both
write it with ``catalog.price_history.record_price_changes`` (the history point, the content version, the event
``catalog.price_events.price_changed`` to the apps above), inside the admin's transaction. This app, above the
catalogue, adds them through the GPU admin's extension points, so the catalogue names no price import."""
from django.contrib import messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalog.admin import GPUAdmin
from catalog.models import PricePoint
from catalog.price_events import CurrentPriceChange
from catalog.price_history import record_price_changes
from staff.admin_site import AddedView

from .forms import PriceImportForm
from .price_import import import_prices


def record_price_edit(model_admin, request, obj, form, change, save):
    """A step around an editor's save of a GPU: a new price (or an emptied one: the offer withdrawn) is a point of
    the GPU's history at the time the editor gave it, or now (which then becomes the price's time), and is sent to
    the apps above (price alerts), inside the admin's transaction."""
    old = form.initial.get("price_usd_per_hour") if change else None
    new = obj.price_usd_per_hour
    price_changed_here = old != new
    if price_changed_here and ("price_updated_at" not in form.changed_data or obj.price_updated_at is None):
        obj.price_updated_at = timezone.now()
    save()
    if price_changed_here or "price_updated_at" in form.changed_data:
        record_price_changes([CurrentPriceChange(obj, old, new, obj.price_updated_at, PricePoint.Source.ADMIN)],
                             PricePoint.Source.ADMIN)


def import_prices_view(model_admin, request):
    """Upload a price file from the market feed; all or nothing, with a report."""
    if not model_admin.has_change_permission(request):
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
        **model_admin.admin_site.each_context(request),
        "title": _("Import prices"),
        "opts": model_admin.model._meta,
        "form": form,
        "report": report,
        "changelist_url": reverse("admin:catalog_gpu_changelist"),
    }
    return TemplateResponse(request, "admin/prices/import_prices.html", context)


GPUAdmin.add_save_step(record_price_edit)
GPUAdmin.add_view(AddedView("import-prices/", "catalog_gpu_import_prices", import_prices_view, _("Import prices")))
