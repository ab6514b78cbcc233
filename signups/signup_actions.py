"""The signup action beside a GPU's price on the catalogue's and workloads' pages
(``catalog.gpu_page_panels``): a link to the signup form with the GPU (and a GPU count) preselected and the
page that led there, carried in the query string and recorded on the signup (``signup_origin.py``).

The link is the same for every visitor (the pages are cached whole): the GPU, the page key and the count
are all the page knows."""
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from catalog.gpu_page_panels import Fragment

# The pages that may carry the signup action, by the key the signup records (``via``), with the name the
# demand report shows. Keys, not paths: the report counts per kind of page, in every language.
SIGNUP_VIA_PAGES = {
    "gpu-page": _("GPU page"),
    "catalogue": _("GPU catalogue"),
    "compare": _("GPU comparison"),
    "workload": _("workload table"),
    "calculator": _("calculator"),
    "home": _("home page"),
}


def signup_url(gpu, via, count=None):
    query = {"gpu": gpu.slug, "via": via}
    if count is not None:
        query["count"] = int(count)
    return f"{reverse('signups:signup')}?{urlencode(query)}"


def signup_action(gpu, via, count=None, style="link"):
    """The link beside a GPU's price on the page ``via``; a key not in ``SIGNUP_VIA_PAGES`` is a mistake in a
    template, refused loudly (tests render every page)."""
    if via not in SIGNUP_VIA_PAGES:
        raise ValueError(f"Unknown signup page key {via!r}: add it to SIGNUP_VIA_PAGES.")
    return Fragment("signups/includes/signup_action.html", {
        "url": signup_url(gpu, via, count), "gpu": gpu.name, "style": style,
    })
