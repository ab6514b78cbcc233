"""The address of a page in one of the site's languages (its URL segments are translated)."""
from urllib.parse import urlencode

from django.urls import reverse
from django.utils import translation


def url_in(language, view_name, query=None, **kwargs):
    """The path of ``view_name`` (with ``kwargs``) in ``language``, with ``query`` (a dict or a list of
    pairs) as its query string when given."""
    with translation.override(language):
        path = reverse(view_name, kwargs=kwargs or None)
    return f"{path}?{urlencode(query)}" if query else path
