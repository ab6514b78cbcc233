"""An editor account: staff, in the Editors group, as the README tells an admin to make one."""
from django.contrib.auth import get_user_model

from core.editor_role import ensure_editor_group

PASSWORD = "a-long-editor-password"


def create_editor(username="editor"):
    user = get_user_model().objects.create_user(username, f"{username}@example.com", PASSWORD, is_staff=True)
    user.groups.add(ensure_editor_group())
    return user
