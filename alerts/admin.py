"""Price alerts in the admin: read only, as signups (``signups.admin.ConsentRecordAdmin``): the visitor's own
request and the evidence of their consent, found by address, exported as CSV and erased on request."""
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from signups.admin import ConfirmedFilter, ConsentRecordAdmin

from .models import PriceAlert


@admin.register(PriceAlert)
class PriceAlertAdmin(ConsentRecordAdmin):
    """Read only, as signups: the visitor's own request and the evidence of their consent."""

    list_display = (
        "email", "gpu", "target_usd_per_hour", "state", "language", "created_at", "is_confirmed", "last_notified_at",
    )
    list_filter = (ConfirmedFilter, "state", "language", "gpu")
    date_hierarchy = "created_at"
    list_select_related = ("gpu",)
    CSV_COLUMNS = (
        "email", "gpu", "target_usd_per_hour", "requested_target_usd_per_hour", "state", "language",
        "created_at", "confirmed_at", "last_notified_at", "consent_text_version", "privacy_policy_version",
        "consent_language", "source_path",
    )
    csv_file_prefix, csv_order = "price-alerts", "created_at"

    def csv_cell(self, obj, column):
        return obj.gpu.slug if column == "gpu" else super().csv_cell(obj, column)

    @admin.action(description=_("Export selected price alerts as CSV"), permissions=["view"])
    def export_csv(self, request, queryset):
        return self.csv_response(queryset)
