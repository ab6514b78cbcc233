"""Each model's admin is registered once, by the app that owns the model: an app above extends a lower app's admin
through its extension points (``staff.admin_site.ExtensibleModelAdmin``), so the admin does not depend on the order
of INSTALLED_APPS."""
import ast

from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from ..project_source import LAYERS, PROJECT


def admin_unregister_calls(source):
    """The lines of ``source`` that call ``unregister`` on an admin site (``admin.site``, ``self.admin_site``, …)."""
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "unregister"
                and ast.unparse(node.func.value).endswith("site")):
            yield node.lineno


def test_no_module_unregisters_an_admin():
    found = [f"{path.relative_to(PROJECT)}:{line}"
             for layer in LAYERS for path in sorted((PROJECT / layer).rglob("*.py"))
             for line in admin_unregister_calls(path.read_text(encoding="utf-8"))]
    assert found == []


def test_the_check_sees_an_unregister_call():
    source = "from django.contrib import admin\nadmin.site.unregister(GPU)\nself.poller.unregister(client)\n"
    assert list(admin_unregister_calls(source)) == [2]


def test_each_projects_model_admin_is_defined_by_the_app_that_owns_the_model():
    registered = {model._meta.label: type(admin.site.get_model_admin(model)).__module__.split(".")[0]
                  for model in apps.get_models() if model._meta.app_label in LAYERS and admin.site.is_registered(model)}
    assert registered["catalog.GPU"] == "catalog"
    assert registered["signups.Signup"] == "signups"
    assert {label: app for label, app in registered.items() if apps.get_model(label)._meta.app_label != app} == {}


def test_the_apps_above_add_their_pages_and_price_edit_to_the_lower_admins():
    gpu_admin, signup_admin = (admin.site.get_model_admin(apps.get_model(label))
                               for label in ("catalog.GPU", "signups.Signup"))
    assert [step.__module__ for step in gpu_admin.save_steps] == ["prices.admin"]
    assert reverse("admin:catalog_gpu_import_prices") == "/admin/catalog/gpu/import-prices/"
    assert reverse("admin:signups_demand") == "/admin/signups/signup/demand/"
    assert reverse("admin:signups_demand_csv") == "/admin/signups/signup/demand/csv/"
    assert [view.button for view in gpu_admin.added_views] == ["Import prices"]
    assert [view.index_name for view in signup_admin.added_views] == ["Demand (aggregates)", None]


def test_the_gpu_list_links_the_price_import_and_the_index_lists_the_demand_page(admin_client):
    gpu_list = admin_client.get(reverse("admin:catalog_gpu_changelist")).content.decode()
    assert f'<li><a href="{reverse("admin:catalog_gpu_import_prices")}">Import prices</a></li>' in gpu_list
    index = admin_client.get(reverse("admin:index")).content.decode()
    assert f'href="{reverse("admin:signups_demand")}"' in index
