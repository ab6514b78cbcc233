"""The editors' admin: Django's admin with login throttling and lockout.

Failed logins are counted in the shared cache per username and per client address; after too many
the login form refuses every attempt, right password or not, until the lockout ends."""
import hashlib

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.core.cache import cache
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .client_ip import client_ip


def failure_keys(request):
    username = request.POST.get("username", "").strip().lower()
    hashed = hashlib.sha256(username.encode()).hexdigest()[:32]
    return (
        (f"login-failures:user:{hashed}", settings.LOGIN_MAX_FAILURES_PER_USER),
        (f"login-failures:ip:{client_ip(request)}", settings.LOGIN_MAX_FAILURES_PER_ADDRESS),
    )


def is_locked_out(request):
    return any((cache.get(key) or 0) >= limit for key, limit in failure_keys(request))


def record_failure(request):
    for key, _limit in failure_keys(request):
        cache.add(key, 0, timeout=settings.LOGIN_LOCKOUT_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=settings.LOGIN_LOCKOUT_SECONDS)


def clear_failures(request):
    cache.delete_many([key for key, _limit in failure_keys(request)])


class EverXAdminSite(admin.AdminSite):
    site_header = gettext_lazy("EverXCloud editors")
    site_title = gettext_lazy("EverXCloud editors")
    index_title = gettext_lazy("Site content")

    def login(self, request, extra_context=None):
        if request.method == "POST" and is_locked_out(request):
            minutes = max(1, settings.LOGIN_LOCKOUT_SECONDS // 60)
            context = {
                **self.each_context(request),
                "title": _("Log in"),
                "lockout_message": _("Too many failed attempts. Try again in %(minutes)s minutes.") % {"minutes": minutes},
                **(extra_context or {}),
            }
            response = TemplateResponse(request, "admin/login_locked.html", context, status=429)
            response["Retry-After"] = str(settings.LOGIN_LOCKOUT_SECONDS)
            return response
        response = super().login(request, extra_context)
        if request.method == "POST":
            if request.user.is_authenticated:
                clear_failures(request)
            else:
                record_failure(request)
        return response


class EverXAdminConfig(AdminConfig):
    default_site = "core.admin_site.EverXAdminSite"
