from django.http import HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _

from workloads.snapshot import workload_content

from .page_cache import cached_page
from .pages import page_context, urls_by_language


def organization(request):
    """schema.org Organization for the home page."""
    return {
        "@context": "https://schema.org",
        "@type": "Organization",
        "name": "EverXCloud",
        "url": request.build_absolute_uri("/"),
        "logo": request.build_absolute_uri(static("icons/icon-512.png")),
        "description": _("GPU spot market: prepaid balance in EUR, USD or GBP, GPU hours billed by the hour."),
    }


@cached_page
def home(request):
    language = translation.get_language()
    context = page_context(
        request, urls_by_language("home"),
        title=_("EverXCloud: rent the right GPU by the hour"),
        description=_("A GPU spot market opening soon: which GPU fits which job, with exact numbers and live prices."),
        structured_data=[organization(request)],
    )
    content = workload_content()
    context.update({
        "workloads": content.links(content.named_in(language), language),
        "calls_to_action": content.calls_to_action,
    })
    return render(request, "core/home.html", context)


def page_not_found(request, exception):
    return render(request, "404.html", {"page_title": _("Page not found")}, status=404)


def robots_txt(request):
    # The admin's address is not named here: it is configurable so that it need not be public.
    lines = ["User-agent: *", "Allow: /", "", f"Sitemap: {request.build_absolute_uri('/sitemap.xml')}", ""]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")
