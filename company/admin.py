"""The operator record in the admin: one page (a singleton), its recipients inline. Only staff with the
model's permissions (operators, not the Editors group) see it. The legal pages, in translation tabs."""
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TabbedTranslationAdmin

from .completeness import missing_details
from .models import LegalPage, LegalPageVersion, OperatorRecord, Recipient


class RecipientInline(admin.TabularInline):
    model = Recipient
    extra = 0


@admin.register(OperatorRecord)
class OperatorRecordAdmin(admin.ModelAdmin):
    inlines = [RecipientInline]
    readonly_fields = ["still_missing"]
    fieldsets = [
        (_("Company"), {"fields": ["still_missing", "legal_name", "legal_form", "street", "postal_code", "city",
                                   "country", "representatives", "register_name", "register_number", "vat_id",
                                   "cnpj_applies", "cnpj"]}),
        (_("Contacts"), {"fields": ["contact_email", "phone", "privacy_email", "dpo_applies", "dpo",
                                    "eu_representative_applies", "eu_representative"]}),
        (_("Authorities"), {"fields": ["lead_supervisory_authority", "licensing_authority_applies",
                                       "licensing_authority", "content_responsible", "dispute_resolution",
                                       "dispute_resolution_body"]}),
        (_("Retention periods"), {"fields": ["consent_evidence_retention_months",
                                             "provider_application_retention_months",
                                             "erasure_record_retention_months", "backup_retention_days"]}),
    ]

    @admin.display(description=_("still missing"))
    def still_missing(self, obj):
        missing = missing_details(obj if obj is not None else OperatorRecord())
        return ", ".join(str(detail.label) for detail in missing) or _("nothing: the record is complete")

    def has_add_permission(self, request):
        return super().has_add_permission(request) and not OperatorRecord.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        """Straight to the one record (created empty on the first visit)."""
        OperatorRecord.objects.get_or_create(pk=1)
        return HttpResponseRedirect(reverse(f"{self.admin_site.name}:company_operatorrecord_change", args=[1]))


@admin.register(LegalPage)
class LegalPageAdmin(TabbedTranslationAdmin):
    """Edited, never deleted: every form links to the privacy policy and records its version, and every
    footer links both pages (the model refuses deletion too, ``refuse_legal_page_deletion``)."""

    list_display = ("title", "key", "version", "updated")

    def has_delete_permission(self, request, obj=None):
        return False

    def delete_view(self, request, object_id, extra_context=None):
        self.message_user(request, gettext(
            "The privacy policy and the legal notice cannot be deleted: every form links to the privacy "
            "policy and records the version agreed to. Edit the text and its version instead."
        ), messages.ERROR)
        return HttpResponseRedirect(reverse(f"{self.admin_site.name}:company_legalpage_change",
                                            args=[object_id]))


@admin.register(LegalPageVersion)
class LegalPageVersionAdmin(admin.ModelAdmin):
    """The text of each version of a legal page, as it was: shown, never added, changed or deleted by hand (a saved
    page keeps its version's text); the consent records link here."""

    list_display = ("key", "version", "updated", "kept_at")
    list_filter = ("key",)
    fields = ("key", "version", "updated", "kept_at", "texts_shown")
    readonly_fields = fields

    @admin.display(description=_("text in each language"))
    def texts_shown(self, obj):
        return format_html_join("", '<h3 lang="{}">{}</h3><pre style="white-space: pre-wrap">{}</pre>', (
            (code, text.get("title", ""), text.get("body", "")) for code, text in obj.texts.items()))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def legal_page_version_link(key, version):
    """A link to the kept text of ``version`` of the page ``key`` in the admin, or a note that it was not kept."""
    kept = LegalPageVersion.objects.filter(key=key, version=version).first() if version else None
    if kept is None:
        return gettext("not kept (before texts were kept)") if version else "—"
    return format_html('<a href="{}">{}</a>', reverse("admin:company_legalpageversion_change", args=[kept.pk]),
                       version)
