"""An editor account (staff, in the Editors group, as the README tells an admin to make one, with an authenticator
as ``manage.py staff_totp`` gives one), its login as the admin's page posts it, and what the admin's GPU form
posts."""
import time

from django.contrib.auth import get_user_model
from django.test import Client
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from catalog.models import GPU
from staff.editor_role import ensure_editor_group

PASSWORD = "a-long-editor-password"
_force_login = Client.force_login


def create_editor(username="editor"):
    user = get_user_model().objects.create_user(username, f"{username}@example.com", PASSWORD, is_staff=True)
    user.groups.add(ensure_editor_group())
    add_authenticator(user)
    return user


def add_authenticator(user):
    return TOTPDevice.objects.create(user=user, name="authenticator", confirmed=True)


def authenticator_code(user):
    """The code the account's authenticator app shows, computed from its key as the app does (RFC 6238): the
    current one, or the next one if the current one was used already (a code is accepted once)."""
    device = TOTPDevice.objects.get(user=user)
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits)
    totp.time = max(time.time(), device.t0 + (device.last_t + 1) * device.step)
    return f"{totp.token():0{device.digits}d}"


def login_data(user, password=PASSWORD):
    """What the admin's login page posts for ``user``: username, password and the authenticator's code."""
    return {"username": user.get_username(), "password": password, "otp_token": authenticator_code(user)}


def force_login_with_second_factor(client, user, backend=None):
    """``Client.force_login`` in the tests (tests/conftest.py): a staff session is verified by the account's
    authenticator too, as after the login page (one is added to an account without)."""
    _force_login(client, user, backend)
    if user.is_staff:
        device = TOTPDevice.objects.filter(user=user, confirmed=True).first() or add_authenticator(user)
        session = client.session
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()


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
