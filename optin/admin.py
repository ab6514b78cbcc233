"""The outbox, the consent records and the erasure log in the admin: read only. Staff find a person's rows by
address however it is spelt (``AddressSearchMixin``, which the forms' admins use too)."""
from django.contrib import admin
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from company.admin import legal_page_version_link

from . import addresses, consent_records
from .erasure import erasures_of
from .models import ConsentRecord, ErasureLog, OutboxEmail


class AddressSearchMixin:
    """The search finds an address however it is spelt (``IDN@BÜCHER.example`` finds the stored
    ``IDN@xn--bcher-kva.example``): how staff look a person up to export or erase their data."""

    address_field = "email"

    def get_search_results(self, request, queryset, search_term):
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        if "@" in search_term:
            spellings = {addresses.key(search_term), addresses.legacy_key(search_term)}
            results |= queryset.filter(**{f"{self.address_field}__lower__in": spellings})
        return results, may_have_duplicates


class OutboxStatusFilter(admin.SimpleListFilter):
    title = _("status")
    parameter_name = "status"
    CONDITIONS = {
        "pending": Q(sent_at__isnull=True, next_attempt_at__isnull=False),
        "sent": Q(sent_at__isnull=False),
        "failed": Q(sent_at__isnull=True, next_attempt_at__isnull=True),
    }

    def lookups(self, request, model_admin):
        return [("pending", _("waiting to be sent")), ("sent", _("sent")), ("failed", _("given up"))]

    def queryset(self, request, queryset):
        condition = self.CONDITIONS.get(self.value())
        return queryset.filter(condition) if condition else queryset


@admin.register(OutboxEmail)
class OutboxEmailAdmin(AddressSearchMixin, admin.ModelAdmin):
    address_field = "recipient"
    list_display = (
        "subject", "recipient", "language", "created_at", "attempts", "next_attempt_at", "sent_at",
    )
    list_filter = (OutboxStatusFilter, "language")
    search_fields = ("recipient",)
    actions = ["retry_now"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_retry_permission(self, request):
        return request.user.has_perm("optin.change_outboxemail")

    @admin.action(description=_("Send again now (also mails that were given up)"), permissions=["retry"])
    def retry_now(self, request, queryset):
        count = queryset.filter(sent_at__isnull=True).update(next_attempt_at=timezone.now())
        self.message_user(request, ngettext(
            "%(count)d mail will be sent by the next outbox run.",
            "%(count)d mails will be sent by the next outbox run.", count,
        ) % {"count": count})


class ReadOnlyAdmin(admin.ModelAdmin):
    """Evidence is shown, never added, changed or deleted by hand: its own periods delete it."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ErasureLog)
class ErasureLogAdmin(ReadOnlyAdmin):
    list_display = ("erased_at", "email_hash")
    search_fields = ("email_hash",)
    search_help_text = _("Type an email address to find out whether its data was erased.")

    def get_search_results(self, request, queryset, search_term):
        """An address finds its erasures: the hashes are keyed, so nobody can work them out by hand."""
        if "@" in search_term:
            return queryset & erasures_of(search_term), False
        return super().get_search_results(request, queryset, search_term)


@admin.register(ConsentRecord)
class ConsentRecordAdmin(ReadOnlyAdmin):
    """What an auditor or the person asks to see: each consent of an address (found by typing it: the records hold
    only a keyed hash), what was asked, the mail that carried the link, the click, and how and when it ended."""

    list_display = ("purpose", "asked_at", "consent_text_version", "privacy_policy", "consent_language",
                    "confirmation_mail_sent_at", "confirmed_at", "withdrawn_at", "withdrawal", "keep_until")
    readonly_fields = ("privacy_policy",)

    @admin.display(description=_("privacy policy agreed to"))
    def privacy_policy(self, obj):
        """The version, linked to its text as it was (``company.LegalPageVersion``)."""
        return legal_page_version_link("privacy", obj.privacy_policy_version)
    list_filter = ("purpose", "withdrawal", "consent_language")
    date_hierarchy = "asked_at"
    search_fields = ("address_hash",)
    search_help_text = _("Type an email address to find the records of its consents.")

    def get_search_results(self, request, queryset, search_term):
        if "@" in search_term:
            return queryset & consent_records.records_of(search_term), False
        return super().get_search_results(request, queryset, search_term)
