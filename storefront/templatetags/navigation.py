"""The site header: brand, the workloads menu, the catalogue and calculator links, the language
switcher and the waitlist button. An inclusion tag, so the header receives exactly what it shows and a
page's own context (a view's ``workload``, say) can never change it."""
from django import template
from django.utils import translation

from workloads.snapshot import workload_content

register = template.Library()


@register.inclusion_tag("includes/header.html", takes_context=True)
def site_header(context):
    request = context.get("request")
    workload_links = []
    # A page rendered without the request (the 503 page when the database is down) must not touch the
    # database: its header has no workloads menu.
    if request is not None:
        language = translation.get_language()
        content = workload_content()
        workload_links = [
            {"title": workload.title, "path": path, "is_current": path == request.path}
            for workload, path in content.links(content.with_page_in(language), language)
        ]
    here = getattr(getattr(request, "resolver_match", None), "view_name", None)
    return {
        "workload_links": workload_links,
        "workloads_current": any(link["is_current"] for link in workload_links),
        "current_view": here,
        "alternates": context.get("alternates") or [],
    }
