from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TabbedTranslationAdmin

from core.formatting import format_usd
from staff.admin_blocks import block_inline
from staff.admin_preview import preview_links

from .models import FeaturedGPU, LandingFact, LandingFAQ, LandingPage, ProviderStep, RenterStep


class FeaturedGPUInline(admin.TabularInline):
    model = FeaturedGPU
    extra = 0
    autocomplete_fields = ("gpu",)
    fields = ("order", "gpu", "price")
    readonly_fields = ("price",)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("gpu")

    @admin.display(description=_("price"))
    def price(self, featured):
        """The price the page shows now; a GPU without one is left out."""
        if featured.gpu_id is None or featured.gpu.price_usd_per_hour is None:
            return None
        return format_usd(featured.gpu.price_usd_per_hour)


@admin.register(LandingPage)
class LandingPageAdmin(TabbedTranslationAdmin):
    """The home page on one screen: its text in one tab per language, the featured GPUs, the steps, facts and
    FAQs, each list ordered by its order numbers."""

    list_display = ("heading", "key", "updated_at")
    readonly_fields = ("public_pages", "updated_at")
    fieldsets = (
        (None, {"fields": ("key", "public_pages", "updated_at")}),
        (_("Page"), {"fields": ("title", "description")}),
        (_("First screen"), {"fields": ("heading", "lead", "signup_label", "catalogue_label", "prices_heading",
                                        "prices_note")}),
        (_("Section headings"), {"fields": ("workloads_heading", "renters_heading", "providers_heading",
                                            "facts_heading", "faq_heading")}),
    )
    inlines = (FeaturedGPUInline, *map(block_inline, (RenterStep, ProviderStep, LandingFact, LandingFAQ)))

    def has_add_permission(self, request):
        return super().has_add_permission(request) and LandingPage.objects.count() < len(LandingPage.Key)

    def has_delete_permission(self, request, obj=None):
        # Without its row the home page loses all its text; editors change it instead.
        return False

    def get_readonly_fields(self, request, obj=None):
        return (*self.readonly_fields, "key") if obj else self.readonly_fields

    @admin.display(description=_("public pages"))
    def public_pages(self, landing):
        return preview_links(landing)
