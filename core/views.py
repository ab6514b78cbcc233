from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from .pages import absolute_url
from .public_pages import robots_allowed_paths


def page_not_found(request, exception):
    return render(request, "404.html", {"page_title": _("Page not found")}, status=404)


def robots_txt(request):
    # The admin's address is not named here: it is configurable so that it need not be public.
    allowed = [f"Allow: {path}" for path in robots_allowed_paths()]
    lines = ["User-agent: *", "Allow: /", *allowed, "", f"Sitemap: {absolute_url('/sitemap.xml')}", ""]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")
