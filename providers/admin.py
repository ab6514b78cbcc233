"""Applications in the admin: read only but for their status, each with its GPU rows and, for one sent before
there were rows, the free text it was sent with beside them; and the provider page's sections for editors."""
from django.contrib import admin
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TabbedTranslationAdmin

from optin.admin import AddressSearchMixin
from signups.admin import ErasePersonalDataMixin
from signups.countries import country_name

from .models import OfferedGPU, ProviderApplication, ProviderPageText


class OfferedGPUInline(admin.TabularInline):
    model = OfferedGPU
    fields = ("gpu", "name", "count", "location")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(ProviderApplication)
class ProviderApplicationAdmin(AddressSearchMixin, ErasePersonalDataMixin, admin.ModelAdmin):
    list_display = ("company", "contact_name", "email", "country_display", "offered", "status", "submitted_at")
    list_editable = ("status",)
    list_filter = ("status", "country", "language")
    search_fields = ("company", "contact_name", "email")
    date_hierarchy = "submitted_at"
    readonly_fields = (
        "company", "contact_name", "email", "country", "gpus", "server_locations", "message", "language",
        "submitted_at", "consent_text_version", "privacy_policy_version", "consent_language", "source_path",
    )
    inlines = (OfferedGPUInline,)

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("offered_gpus")

    def get_fields(self, request, obj=None):
        """The free text of an application sent before there were rows, beside them; none for a newer one."""
        fields = [*self.readonly_fields, "status"]
        if obj is not None and not obj.gpus and not obj.server_locations:
            fields = [field for field in fields if field not in ("gpus", "server_locations")]
        return fields

    def has_add_permission(self, request):
        return False

    @admin.display(description=_("country"), ordering="country")
    def country_display(self, obj):
        return country_name(obj.country, get_language())

    @admin.display(description=_("GPUs offered"))
    def offered(self, obj):
        rows = ", ".join(str(row) for row in obj.offered_gpus.all())
        return rows or obj.gpus


@admin.register(ProviderPageText)
class ProviderPageTextAdmin(TabbedTranslationAdmin):
    list_display = ("heading", "topic", "order")
    list_filter = ("topic",)
    fields = ProviderPageText.edited_fields
