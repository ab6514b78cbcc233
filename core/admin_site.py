"""The editors' admin: Django's admin with pages of the apps' own listed beside their models. Its login
asks for a second factor (``core.staff_login``) and is guarded by django-axes (``core.login_lockout``)."""
from collections.abc import Callable
from typing import NamedTuple

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.urls import reverse
from django.utils.translation import gettext_lazy


class AdminPage(NamedTuple):
    """A page of an app's own in the admin (not a model's list), listed with the app's models on the index for
    those ``may_view(request)`` lets in."""
    app_label: str
    name: str
    url_name: str  # in the admin's namespace
    may_view: Callable


_admin_pages = []


def register_admin_page(page):
    """Called from an app's ``AppConfig.ready()``: core names no app above it."""
    if page not in _admin_pages:
        _admin_pages.append(page)


class EverXAdminSite(admin.AdminSite):
    site_header = gettext_lazy("EverXCloud editors")
    site_title = gettext_lazy("EverXCloud editors")
    index_title = gettext_lazy("Site content")
    login_template = "admin/staff_login.html"

    @property
    def login_form(self):
        # Imported when asked for: this module is loaded with the app registry (EverXAdminConfig), before the forms.
        from .staff_login import StaffLoginForm

        return StaffLoginForm

    def has_permission(self, request):
        """Staff whose login passed the second factor (django_otp's ``is_verified``)."""
        return super().has_permission(request) and request.user.is_verified()

    def get_app_list(self, request, app_label=None):
        app_list = super().get_app_list(request, app_label)
        for app in app_list:
            for page in _admin_pages:
                if page.app_label == app["app_label"] and page.may_view(request):
                    app["models"].append({
                        "name": page.name, "object_name": page.url_name, "view_only": True, "add_url": None,
                        "admin_url": reverse(f"{self.name}:{page.url_name}"), "perms": {"view": True},
                    })
        return app_list


class EverXAdminConfig(AdminConfig):
    default_site = "core.admin_site.EverXAdminSite"
