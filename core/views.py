from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from .pages import absolute_url


def page_not_found(request, exception):
    return render(request, "404.html", {"page_title": _("Page not found")}, status=404)


def robots_txt(request, allowed_paths=tuple):
    """Everything allowed, the sitemap named; ``allowed_paths()`` yields paths outside the sitemap's pages that
    get an Allow line of their own (the open data feed's, given by the URLconf). The admin's address is not named
    here: it is configurable so that it need not be public."""
    allowed = [f"Allow: {path}" for path in allowed_paths()]
    lines = ["User-agent: *", "Allow: /", *allowed, "", f"Sitemap: {absolute_url('/sitemap.xml')}", ""]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")
