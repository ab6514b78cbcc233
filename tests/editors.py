"""An editor account (staff, in the Editors group, as the README tells an admin to make one), and what the
admin's GPU form posts."""
from django.contrib.auth import get_user_model

from catalog.models import GPU
from core.editor_role import ensure_editor_group

PASSWORD = "a-long-editor-password"


def create_editor(username="editor"):
    user = get_user_model().objects.create_user(username, f"{username}@example.com", PASSWORD, is_staff=True)
    user.groups.add(ensure_editor_group())
    return user


def change_form_data(gpu):
    """Every field of the GPU's admin form as the browser would post it."""
    data = {}
    for field in GPU._meta.get_fields():
        if not getattr(field, "editable", False) or field.auto_created or field.name == "id":
            continue
        value = getattr(gpu, field.attname, None)
        data[field.name] = "" if value is None else value
    data["price_updated_at_0"], data["price_updated_at_1"] = "2026-11-30", "12:00:00"
    data.pop("price_updated_at", None)
    return data
