from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from .pages import absolute_url


def page_not_found(request, exception):
    return render(request, "404.html", {"page_title": _("Page not found")}, status=404)


def robots_txt(request):
    # The admin's address is not named here: it is configurable so that it need not be public.
    lines = ["User-agent: *", "Allow: /", "", f"Sitemap: {absolute_url('/sitemap.xml')}", ""]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")
