"""The signup action beside a GPU's price on the catalogue's and workloads' pages
(``catalog.gpu_page_panels``): a link to the signup form with the GPU (and a GPU count) preselected and the
page that led there, carried in the query string and recorded on the signup (``signup_origin.py``).

The link is the same for every visitor (the pages are cached whole): the GPU, the page key and the count
are all the page knows."""
from urllib.parse import urlencode

from django.urls import reverse

from catalog.gpu_page_panels import Fragment


def signup_url(gpu, via, count=None):
    query = {"gpu": gpu.slug, "via": via}
    if count is not None:
        query["count"] = int(count)
    return f"{reverse('signups:signup')}?{urlencode(query)}"


def signup_action(gpu, via, count=None, style="link"):
    return Fragment("signups/includes/signup_action.html", {
        "url": signup_url(gpu, via, count), "gpu": gpu.name, "style": style,
    })
