"""The provider page (the earnings estimate at today's best offers, what qualifies, onboarding, terms) and the
application with its follow-up page."""
from decimal import Decimal

from django.shortcuts import render
from django.urls import reverse, reverse_lazy
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from caching.pages import cached_page, canonical_page
from catalog.models import GPU
from catalog.views import query_paths
from core.errors import message_page
from core.middleware import allow_methods
from core.pages import page_context
from signups.views import PublicFormView

from . import applications
from .earnings import monthly_earnings
from .forms import EstimateForm, ProviderApplicationForm
from .page import estimate_figures, offer_rows, page_sections

# The counts of the presets the page links to (a GPU model with a count): cached like the page without a query.
PRESET_COUNTS = (1, 8)
PRESET_LINK_COUNT = 8

PAGE_TITLE = gettext_lazy("Sell your GPU hours on EverXCloud")
PAGE_DESCRIPTION = gettext_lazy("What your GPU servers would earn at today's best offers on the EverXCloud spot "
                                "market, what qualifies and how to apply to the EverXCloud Network.")


def priced_gpus():
    """The catalogue's GPUs with a live offer: the only ones an estimate can price."""
    return list(GPU.objects.filter(price_usd_per_hour__isnull=False).only(
        "slug", "name", "vendor", "price_usd_per_hour", "max_power_w"))


def preset_pairs(request, gpus):
    """The page's canonical query: none, or a preset's GPU and count exactly as the page's links write them.
    None for any other input: the page is rendered for it and not kept."""
    pairs = sorted((name, value) for name, values in request.GET.lists() if name in EstimateForm.base_fields
                   for value in values)
    if not pairs:
        return []
    slugs = {gpu.slug for gpu in gpus}
    presets = {("count", str(count)) for count in PRESET_COUNTS}
    if len(pairs) == 2 and pairs[0] in presets and pairs[1][0] == "gpu" and pairs[1][1] in slugs:
        return pairs
    return None


def preset_query(gpu, count):
    return urlencode([("gpu", gpu.slug), ("count", count)])


@cached_page(query=EstimateForm.base_fields)
def provider_page(request):
    gpus = priced_gpus()
    submitted = any(name in request.GET for name in EstimateForm.base_fields)
    form = EstimateForm(request.GET if submitted else None, gpus=gpus)
    estimate = None
    if submitted and form.is_valid():
        chosen = form.cleaned_data
        utilization = chosen["utilization"]
        earnings = monthly_earnings(
            usd_per_gpu_hour=chosen["gpu"].price_usd_per_hour, gpu_count=chosen["count"],
            utilization=Decimal(1) if utilization is None else utilization / 100,
            max_power_w=chosen["gpu"].max_power_w, usd_per_kwh=chosen["electricity"], pue=chosen["pue"],
        )
        estimate = estimate_figures(chosen, earnings)
        estimate["apply_query"] = preset_query(chosen["gpu"], chosen["count"])
    query = form.query_pairs() if submitted else []
    context = {
        "form": form, "estimate": estimate, "sections": page_sections(),
        "offers": offer_rows(gpus, lambda gpu: preset_query(gpu, PRESET_LINK_COUNT)),
        "preset_count": PRESET_LINK_COUNT,
        **page_context(request, query_paths("providers:page", query), title=str(PAGE_TITLE),
                       description=str(PAGE_DESCRIPTION)),
    }
    return canonical_page(render(request, "providers/provider_page.html", context), preset_pairs(request, gpus))


class ProviderApplicationView(PublicFormView):
    form_class = ProviderApplicationForm
    template_name = "providers/application_form.html"
    view_name = "providers:application"
    success_url = reverse_lazy("providers:thanks")
    title = gettext_lazy("Join the EverXCloud Network")
    description = gettext_lazy("Companies with GPU servers: apply to sell GPU hours through the EverXCloud "
                               "spot market.")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "gpus": list(GPU.objects.only("slug", "name"))}

    def get_initial(self):
        """From the estimate the visitor just made (its "apply" link): the GPU and the count in the first row."""
        initial = super().get_initial()
        if self.request.method != "POST":
            gpu, count = self.request.GET.get("gpu"), self.request.GET.get("count")
            if isinstance(gpu, str) and GPU.objects.filter(slug=gpu[:60]).exists():
                initial["gpu_1"] = gpu
                if count and count.isascii() and count.isdigit() and len(count) <= 6:
                    initial["count_1"] = int(count)
        return initial

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "provider_page_path": reverse("providers:page")}

    def save(self, form, consent):
        """The request is stored for the mail worker (one insert whatever the address holds: ``applications``)."""
        applications.request_application(**form.answers(), offered=form.offered,
                                         submission=form.cleaned_data["submission"], language=get_language(),
                                         consent=consent)


application = ProviderApplicationView.as_view()


@allow_methods("GET", "HEAD")
def thanks(request):
    return message_page(request, _("Thank you for your application"), [
        _("We have received it and sent an acknowledgement to the address you entered. "
          "We will reply to you personally."),
    ], next_steps=[{"url": reverse("providers:page"), "label": _("Back to the provider page")},
                   {"url": reverse("catalog:gpu_list"), "label": _("All GPU models")}])
