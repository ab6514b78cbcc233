"""The forms' records in the admin: read only, found by address, exported as CSV and erased on request (the
price alerts' admin builds on ``ConsentRecordAdmin``)."""
import csv

from django.contrib import admin, messages
from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.csv_cells import spreadsheet_safe
from optin import addresses
from optin.admin import AddressSearchMixin
from optin.erasure import erase_person
from staff.admin_site import ExtensibleModelAdmin

from .models import Signup


class ErasePersonalDataMixin:
    """The admin action behind an erasure request: everything held about the selected people's addresses.

    Plain deletion is off for these models: it would leave their mails in the outbox and their address
    in the admin's history."""

    actions = ["erase_personal_data"]

    def has_delete_permission(self, request, obj=None):
        return False

    def has_erase_permission(self, request):
        opts = self.model._meta
        return request.user.has_perm(f"{opts.app_label}.delete_{opts.model_name}")

    @admin.action(description=_("Erase these people's data (on their request)"), permissions=["erase"])
    def erase_personal_data(self, request, queryset):
        emails = sorted({addresses.key(obj.email): obj.email for obj in queryset}.values(), key=str.lower)
        if request.POST.get("confirm") != "yes":
            return TemplateResponse(request, "admin/signups/erase_confirmation.html", {
                **self.admin_site.each_context(request),
                "title": gettext("Erase personal data"),
                "emails": emails,
                "queryset": queryset,
                "opts": self.model._meta,
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            })
        for email in emails:
            erase_person(email)
        self.message_user(request, ngettext(
            "Erased the data of %(count)d person.", "Erased the data of %(count)d people.", len(emails),
        ) % {"count": len(emails)}, messages.SUCCESS)
        return None


class ConfirmedFilter(admin.SimpleListFilter):
    title = _("confirmed")
    parameter_name = "confirmed"

    def lookups(self, request, model_admin):
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(confirmed_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(confirmed_at__isnull=True)
        return queryset


class ConsentRecordAdmin(AddressSearchMixin, ErasePersonalDataMixin, admin.ModelAdmin):
    """Read only: what a visitor asked for, and the evidence of their consent, is not for editing; staff find
    it by address, export it as CSV (``CSV_COLUMNS``) and erase it on request."""

    search_fields = ("email",)
    actions = ["export_csv", *ErasePersonalDataMixin.actions]
    CSV_COLUMNS = ()
    csv_file_prefix = ""
    csv_order = ""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(boolean=True, description=_("confirmed"), ordering="confirmed_at")
    def is_confirmed(self, obj):
        return obj.confirmed_at is not None

    def csv_cell(self, obj, column):
        return getattr(obj, column)

    def csv_response(self, queryset):
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="{self.csv_file_prefix}-{timezone.now():%Y%m%d-%H%M}.csv"'
        )
        writer = csv.writer(response)
        writer.writerow(self.CSV_COLUMNS)
        for obj in queryset.select_related(*self.list_select_related).order_by(self.csv_order):
            writer.writerow([spreadsheet_safe(self.csv_cell(obj, column)) for column in self.CSV_COLUMNS])
        return response


@admin.register(Signup)
class SignupAdmin(ExtensibleModelAdmin, ConsentRecordAdmin):
    """Read only: what a visitor submitted, and the evidence of their consent, is not for editing. The founders'
    demand page (aggregates only) hangs under it: the ``demand`` app, above this one, adds it (``add_view``)."""

    list_display = (
        "email", "currency", "language", "workload", "signed_up_at", "is_confirmed",
    )
    list_filter = (ConfirmedFilter, "language", "currency", "via", "gpu", "for_business")
    date_hierarchy = "signed_up_at"
    list_select_related = ("workload", "gpu")
    CSV_COLUMNS = (
        "email", "currency", "language", "workload", "gpu", "gpu_count", "via", "for_business", "signed_up_at",
        "confirmed_at", "consent_text_version", "privacy_policy_version", "consent_language",
        "source_path",
    )
    csv_file_prefix, csv_order = "signups", "signed_up_at"

    def csv_cell(self, obj, column):
        if column in ("workload", "gpu"):
            related = getattr(obj, column)
            return (related.key if column == "workload" else related.slug) if related else ""
        return super().csv_cell(obj, column)

    @admin.action(description=_("Export selected signups as CSV"), permissions=["view"])
    def export_csv(self, request, queryset):
        return self.csv_response(queryset)
