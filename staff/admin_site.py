"""The editors' admin: Django's admin, whose model admins the apps above extend (pages of their own, listed beside
the models; a step around an editor's save) instead of registering them again. Its login asks for a second factor
(``staff.staff_login``) and is guarded by django-axes (``staff.login_lockout``)."""
from collections.abc import Callable
from functools import partial, wraps
from typing import NamedTuple

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.core.exceptions import NON_FIELD_ERRORS, FieldDoesNotExist, ValidationError
from django.db.models.base import ModelBase
from django.urls import path, reverse
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext_lazy
from modeltranslation.utils import build_localized_fieldname

from serving.database_limits import staff_query_limits, web_server


class AddedView(NamedTuple):
    """A page an app above adds under a lower app's model admin (``ExtensibleModelAdmin.add_view``): served at
    ``route`` under the model's admin URLs as ``url_name`` (in the admin's namespace) by ``view(model_admin,
    request)``; with ``button``, linked above the model's list; with ``index_name``, listed beside the model on
    the admin's index for those ``may_view(request)`` lets in."""
    route: str
    url_name: str
    view: Callable
    button: str | None = None
    index_name: str | None = None
    may_view: Callable | None = None


class ExtensibleModelAdmin:
    """A model admin mixin for the lower app that owns the model: the apps above extend its admin from their own
    ``admin.py`` instead of registering it again (which made the result depend on the order of INSTALLED_APPS).
    ``add_view`` adds a page under its URLs; ``add_save_step`` wraps an editor's save with a step of their own,
    called as ``step(model_admin, request, obj, form, change, save)``, which calls ``save()`` once."""

    added_views = ()
    save_steps = ()
    change_list_template = "admin/change_list_with_added_views.html"

    @classmethod
    def add_view(cls, view):
        if view not in cls.added_views:
            cls.added_views = (*cls.added_views, view)

    @classmethod
    def add_save_step(cls, step):
        if step not in cls.save_steps:
            cls.save_steps = (*cls.save_steps, step)

    def get_urls(self):
        return [
            *(path(view.route, self.admin_site.admin_view(partial(view.view, self)), name=view.url_name)
              for view in self.added_views),
            *super().get_urls(),
        ]

    def changelist_view(self, request, extra_context=None):
        buttons = [(view.button, reverse(f"{self.admin_site.name}:{view.url_name}"))
                   for view in self.added_views if view.button]
        return super().changelist_view(request, {**(extra_context or {}), "added_view_buttons": buttons})

    def save_model(self, request, obj, form, change):
        save = partial(super().save_model, request, obj, form, change)
        for step in reversed(self.save_steps):
            save = partial(step, self, request, obj, form, change, save)
        save()


class ModelErrorsOnFormFields:
    """A model form mixin: an error that a model's ``clean()`` raises for a field the form does not show is put
    where the editor sees it instead of failing the request (Django's ``add_error`` raises ``ValueError``). A
    translated field's error goes to its field in the active language, else the default language, else any
    language's field; any other field's error becomes a non-field error that names the field."""

    def add_error(self, field, error):
        if field is None and isinstance(error, ValidationError) and hasattr(error, "error_dict"):
            placed = {}
            for key, messages in error.error_dict.items():
                target = self.form_field_for_model_field(key)
                if target == NON_FIELD_ERRORS and key != NON_FIELD_ERRORS:
                    label = self.model_field_label(key)
                    placed.setdefault(target, []).extend(
                        ValidationError("%(field)s: %(message)s", params={"field": label, "message": message})
                        for message in ValidationError(messages).messages)
                else:
                    placed.setdefault(target, []).extend(messages)
            error = ValidationError(placed)
        super().add_error(field, error)

    def form_field_for_model_field(self, name):
        if name in self.fields or name == NON_FIELD_ERRORS:
            return name
        languages = dict.fromkeys([get_language(), settings.MODELTRANSLATION_DEFAULT_LANGUAGE,
                                   *settings.MODELTRANSLATION_LANGUAGES])
        for language in languages:
            if language and (localized := build_localized_fieldname(name, language)) in self.fields:
                return localized
        return NON_FIELD_ERRORS

    def model_field_label(self, name):
        try:
            return capfirst(self._meta.model._meta.get_field(name).verbose_name)
        except FieldDoesNotExist:
            return name


def with_model_errors_on_form_fields(form_class):
    """``form_class`` with ``ModelErrorsOnFormFields`` mixed in (itself if it has it already)."""
    if issubclass(form_class, ModelErrorsOnFormFields):
        return form_class
    return type(form_class.__name__, (ModelErrorsOnFormFields, form_class), {"__module__": form_class.__module__})


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

    def admin_view(self, view, cacheable=False):
        """Django's, whose view, for a user it lets in, runs under the staff's database limits in the web server
        (``serving.database_limits.staff_query_limits``: the price import and the CSV files take long)."""
        checked = super().admin_view(view, cacheable)

        @wraps(checked)
        def with_staff_limits(request, *args, **kwargs):
            if not (web_server() and self.has_permission(request)):
                return checked(request, *args, **kwargs)  # no limits to lift, or the login page's redirect
            with staff_query_limits():
                response = checked(request, *args, **kwargs)
                if hasattr(response, "render"):  # a TemplateResponse's queries run as it renders
                    response.render()
                return response

        return with_staff_limits

    def register(self, model_or_iterable, admin_class=None, **options):
        """Every model admin's form and its inlines' forms place a model's own validation errors on fields the
        form shows (``ModelErrorsOnFormFields``), whichever app registers it."""
        super().register(model_or_iterable, admin_class, **options)
        for model in [model_or_iterable] if isinstance(model_or_iterable, ModelBase) else model_or_iterable:
            model_admin = self._registry[model]
            model_admin.form = with_model_errors_on_form_fields(model_admin.form)
            for inline in model_admin.inlines:
                inline.form = with_model_errors_on_form_fields(inline.form)

    def get_app_list(self, request, app_label=None):
        """The models of each app, and beside them the pages added under their admins that name an index entry
        (``AddedView.index_name``), for those who may view them."""
        app_list = super().get_app_list(request, app_label)
        apps = {app["app_label"]: app for app in app_list}
        for model, model_admin in self._registry.items():
            for view in getattr(model_admin, "added_views", ()):
                app = apps.get(model._meta.app_label)
                if app and view.index_name and view.may_view(request):
                    app["models"].append({
                        "name": view.index_name, "object_name": view.url_name, "view_only": True, "add_url": None,
                        "admin_url": reverse(f"{self.name}:{view.url_name}"), "perms": {"view": True},
                    })
        return app_list


class EverXAdminConfig(AdminConfig):
    default_site = "staff.admin_site.EverXAdminSite"
