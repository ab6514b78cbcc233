from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from caching.pages import cached_page
from catalog.specs import spec_text
from company.company_line import company_line
from company.structured_data import organization_details
from core.formatting import format_price_per_hour, format_usd
from core.pages import absolute_url, page_context, urls_by_language
from workloads.cached_content import workload_content
from workloads.views import faq_page

from .cached_content import landing_content
from .price_ladder import price_ladder


def organization(request):
    """schema.org Organization for the home page: the brand, and the company behind it from the operator
    record."""
    return {
        "@context": "https://schema.org",
        "@type": "Organization",
        "name": "EverXCloud",
        "url": absolute_url("/"),
        "logo": absolute_url(static("icons/icon-512.png")),
        "description": _("GPU spot market: prepaid balance in EUR, USD or GBP, GPU hours billed by the hour."),
        **organization_details(),
    }


def price_cards(gpus, language):
    """Name, page, memory and starting price of each GPU, in ``language`` (the active one), and the price as a
    whole percentage of the dearest one's (the length of the card's bar: the first screen's price board)."""
    highest = max((gpu.price_usd_per_hour for gpu in gpus), default=None)
    return [
        {
            "name": gpu.name,
            "path": gpu.get_absolute_url(language),
            "memory": f"{spec_text(gpu, 'memory_gb')} {gpu.memory_type}".strip(),
            "price": format_price_per_hour(gpu.price_usd_per_hour),
            "share": max(3, round(gpu.price_usd_per_hour / highest * 100)),
        }
        for gpu in gpus
    ]


def price_ladder_chart(gpus):
    """Every live price as a ladder, cheapest first, in the active language; None without prices."""
    if not gpus:
        return None
    return {
        "title": _("What one GPU-hour costs, cheapest first"),
        "note": _("Best live price per GPU-hour, before tax; each bar starts at zero."),
        "count": len(gpus),
        "lowest": format_usd(min(gpu.price_usd_per_hour for gpu in gpus)),
        "highest": format_usd(max(gpu.price_usd_per_hour for gpu in gpus)),
        "layout": price_ladder([
            (gpu.name, spec_text(gpu, "memory_gb"), gpu.price_usd_per_hour, format_usd(gpu.price_usd_per_hour))
            for gpu in gpus
        ]),
    }


@cached_page
def home(request):
    language = translation.get_language()
    landing = landing_content()
    page = landing.page
    structured_data = [organization(request)]
    if page is not None and page.faqs.all():
        structured_data.append(faq_page(page))
    context = page_context(
        request, urls_by_language("home"),
        title=page.title if page else "EverXCloud",
        description=page.description if page else "",
        structured_data=structured_data,
    )
    content = workload_content()
    priced_gpus = landing.priced_gpus()
    context.update({
        "landing": page,
        "price_cards": price_cards(priced_gpus, language),
        "price_ladder": price_ladder_chart(landing.ladder_gpus),
        "workloads": content.links(content.named_in(language), language),
        "calls_to_action": content.calls_to_action,
        # The provider pitch's link: one place to point it at another page.
        "provider_pitch_path": reverse("providers:page"),
        "company": company_line(),
    })
    return render(request, "storefront/home.html", context)
