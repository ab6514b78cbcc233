"""The site header (brand, the workloads menu, the catalogue and calculator links, the language switcher and
the waitlist button) and the site footer (the main sections, each workload page, the page in other languages,
the legal pages). Inclusion tags, so each receives exactly what it shows and a page's own context (a view's
``workload``, say) can never change it."""
from django import template
from django.utils import translation
from django.utils.translation import gettext as _

from core.site_parts import path_of
from workloads.cached_content import workload_content

register = template.Library()

# The signup flow's own pages: their header action leads on to the prices, never back to the signup.
SIGNUP_FLOW_PAGES = ("signups:signup", "signups:signup_thanks", "signups:confirm")
# Pages for providers: the header's action is the application, where other pages offer the renter's signup.
PROVIDER_PAGES = ("providers:page", "providers:application", "providers:thanks")


def header_action(context, here):
    """The header's one action: a page may set its own (``header_action``: {"label", "path"}, a provider page's
    "apply"); the signup flow's pages lead on to the prices; every other page offers the signup. Only its label
    and target change: the slot keeps its place on every page and width."""
    action = context.get("header_action")
    if action:
        return action
    if here in PROVIDER_PAGES:
        return {"label": _("Apply to join the network"), "path": path_of("providers:application")}
    if here in SIGNUP_FLOW_PAGES:
        return {"label": _("Compare GPUs"), "path": path_of("catalog:compare")}
    return {"label": _("Create your account"), "path": path_of("signups:signup")}


def workload_links_for(request):
    """Each workload page in the active language, marked when it is the requested one. A page rendered without
    the request (the 503 page when the database is down) must not touch the database: it lists none."""
    if request is None:
        return []
    return [{"title": title, "path": path, "is_current": path == request.path}
            for title, path in workload_content().page_links(translation.get_language())]


@register.inclusion_tag("includes/storefront/header.html", takes_context=True)
def site_header(context):
    request = context.get("request")
    workload_links = workload_links_for(request)
    here = getattr(getattr(request, "resolver_match", None), "view_name", None)
    return {
        "workload_links": workload_links,
        "workloads_current": any(link["is_current"] for link in workload_links),
        "current_view": here,
        "action": header_action(context, here),
        "alternates": context.get("alternates") or [],
    }


@register.inclusion_tag("includes/footer.html", takes_context=True)
def site_footer(context):
    return {
        "sections": [
            {"title": _("All GPU models"), "path": path_of("catalog:gpu_list")},
            {"title": _("Calculator"), "path": path_of("estimator:calculator")},
            {"title": _("Compare GPUs"), "path": path_of("catalog:compare")},
        ],
        "workload_links": workload_links_for(context.get("request")),
        "legal_links": [
            {"title": _("Privacy policy"), "path": path_of("company:privacy")},
            {"title": _("Legal notice"), "path": path_of("company:legal_notice")},
        ],
        "home_path": path_of("home"),
        "alternates": context.get("alternates") or [],
    }
