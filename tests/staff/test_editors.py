"""The editor role and the admin's login lockout (django-axes, staff/login_lockout.py)."""
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import Group
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from catalog.models import GPU
from staff.editor_role import EDITORS_GROUP

from ..editors import PASSWORD, authenticator_code, create_editor, login_data


@pytest.fixture
def editor(db):
    return create_editor()


def test_the_group_exists_after_migrate_with_content_permissions_only(db):
    group = Group.objects.get(name=EDITORS_GROUP)
    labels = {permission.content_type.app_label for permission in group.permissions.all()}
    assert {"catalog", "workloads", "company"} <= labels
    assert "auth" not in labels and "contenttypes" not in labels and "sessions" not in labels
    assert "signups" not in labels, "personal data stays out of the editor role"
    company_models = {p.content_type.model for p in group.permissions.all() if p.content_type.app_label == "company"}
    assert company_models == {"legalpage"}, "the operator record is the operators', not the editors'"


def test_an_editor_changes_content_but_cannot_reach_user_management(client, launch_content, editor):
    client.force_login(editor)
    gpu = GPU.objects.get(slug="h100-sxm")
    assert client.get(reverse("admin:catalog_gpu_change", args=[gpu.pk])).status_code == 200
    assert client.get(reverse("admin:workloads_workload_changelist")).status_code == 200
    assert client.get(reverse("admin:catalog_gpu_import_prices")).status_code == 200
    assert client.get(reverse("admin:auth_user_changelist")).status_code == 403
    assert client.get(reverse("admin:auth_group_changelist")).status_code == 403
    assert client.get(reverse("admin:auth_user_add")).status_code == 403
    index = client.get(reverse("admin:index")).content.decode()
    assert reverse("admin:auth_user_changelist") not in index


@override_settings(LOGIN_MAX_FAILURES_PER_USER=3, AXES_COOLOFF_TIME=timedelta(minutes=10))
def test_repeated_failed_logins_lock_the_account_out_from_that_address(client, editor):
    url = reverse("admin:login")
    for _ in range(2):
        assert client.post(url, {"username": "editor", "password": "wrong"}).status_code == 200
    # The failure that reaches the limit is already answered with the lockout, in the visitor's language.
    response = client.post(url, {"username": "editor", "password": "wrong"}, headers={"Accept-Language": "es"})
    assert response.status_code == 429
    assert "Demasiados intentos fallidos. Vuelva a intentarlo dentro de 10 minutos." in response.content.decode()
    response = client.post(url, {"username": "editor", "password": PASSWORD})
    assert response.status_code == 429
    assert response["Retry-After"] == "600"
    assert "Try again in 10 minutes." in response.content.decode()
    assert "_auth_user_id" not in client.session


@override_settings(LOGIN_MAX_FAILURES_PER_USER=3, LOGIN_MAX_FAILURES_PER_ADDRESS=5)
def test_many_usernames_from_one_address_are_locked_out_too(client, editor):
    url = reverse("admin:login")
    statuses = [client.post(url, {"username": f"guess{number}", "password": "wrong"}).status_code
                for number in range(5)]
    assert statuses == [200] * 4 + [429]
    assert client.post(url, {"username": "editor", "password": PASSWORD}).status_code == 429


@override_settings(LOGIN_MAX_FAILURES_PER_USER=3)
def test_a_username_counts_whatever_its_case_and_spaces(client, editor):
    url = reverse("admin:login")
    for spelling in ("Editor", " EDITOR", "editor "):
        client.post(url, {"username": spelling, "password": "wrong"})
    assert client.post(url, {"username": "editor", "password": PASSWORD}).status_code == 429


@override_settings(LOGIN_MAX_FAILURES_PER_USER=5)
def test_a_stranger_cannot_lock_an_editor_out(client, editor):
    url = reverse("admin:login")
    statuses = [client.post(url, {"username": "editor", "password": "wrong"}, REMOTE_ADDR="203.0.113.9").status_code
                for _ in range(5)]
    assert statuses == [200] * 4 + [429]
    # The guessing address stays locked out, even with the right password...
    assert client.post(url, {"username": "editor", "password": PASSWORD}, REMOTE_ADDR="203.0.113.9").status_code == 429
    # ...while the editor, from their own address, logs in.
    response = client.post(url, login_data(editor), REMOTE_ADDR="198.51.100.20")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(editor.pk)


@override_settings(LOGIN_MAX_FAILURES_PER_USER=3, LOGIN_MAX_FAILURES_PER_ADDRESS=5)
def test_the_addresses_of_one_ipv6_network_count_as_one_address(client, editor):
    url = reverse("admin:login")
    for number in range(1, 6):
        client.post(url, {"username": f"guess{number}", "password": "wrong"}, REMOTE_ADDR=f"2001:db8:1:2::{number}")
    assert client.post(
        url, {"username": "editor", "password": PASSWORD}, REMOTE_ADDR="2001:db8:1:2::99"
    ).status_code == 429
    assert client.post(url, login_data(editor), REMOTE_ADDR="2001:db8:1:3::1").status_code == 302


def test_a_hundred_failures_from_25_addresses_leave_the_account_open_to_its_owner(client, editor):
    """Issue 48: a limit per username from every address would let a stranger lock an editor out for everyone, each
    refused attempt beginning the lockout again. Only the guessing addresses are refused."""
    url = reverse("admin:login")
    statuses = [client.post(url, {"username": "editor", "password": "wrong"},
                            REMOTE_ADDR=f"203.0.113.{number // 4}").status_code for number in range(100)]
    assert statuses == [200] * 100
    assert client.post(url, login_data(editor), REMOTE_ADDR="198.51.100.20").status_code == 302
    assert client.session["_auth_user_id"] == str(editor.pk)
    assert client.get(reverse("admin:index")).status_code == 200


def test_the_right_password_without_the_authenticators_code_does_not_log_in(client, editor):
    url = reverse("admin:login")
    for code in ("", "000000", "not a code"):
        response = client.post(url, {"username": "editor", "password": PASSWORD, "otp_token": code})
        assert response.status_code == 200 and "_auth_user_id" not in client.session, code
        assert "Enter the current code of your authenticator app." in response.content.decode()
    # Each counts as a failed login from that address; and django-otp waits longer after each wrong code.
    assert AccessAttempt.objects.get().failures_since_start == 3
    assert not editor.totpdevice_set.get().verify_is_allowed()[0]
    editor.totpdevice_set.update(throttling_failure_timestamp=None, throttling_failure_count=0)
    response = client.post(url, {**login_data(editor), "otp_token": authenticator_code(editor)},
                           headers={"Accept-Language": "de"})
    assert response.status_code == 302


def test_a_staff_account_without_an_authenticator_cannot_log_in(client, editor):
    editor.totpdevice_set.all().delete()
    response = client.post(reverse("admin:login"), {"username": "editor", "password": PASSWORD, "otp_token": "123456"})
    assert response.status_code == 200 and "_auth_user_id" not in client.session


def test_a_session_without_the_second_factor_does_not_open_the_admin(client, editor):
    client.force_login(editor)
    session = client.session
    del session["otp_device_id"]
    session.save()
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login"))


def test_a_staff_session_lasts_about_a_working_day(client, editor):
    client.post(reverse("admin:login"), login_data(editor))
    expiry = client.session.get_expiry_age()
    assert 11 * 3600 <= expiry <= 13 * 3600, expiry


def test_a_password_needs_twelve_characters(editor):
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="at least 12 characters"):
        validate_password("Tr0ub4d&r-9x"[:11], editor)  # eleven characters, accepted before (8)
    validate_password("Tr0ub4d&r-9x", editor)


def test_staff_totp_gives_a_new_key_that_the_login_accepts(client, editor):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("staff_totp", "editor", stdout=out)
    assert "otpauth://totp/" in out.getvalue()
    assert editor.totpdevice_set.count() == 1
    assert client.post(reverse("admin:login"), login_data(editor)).status_code == 302


def test_a_successful_login_clears_the_failures(client, editor):
    url = reverse("admin:login")
    for _ in range(2):
        client.post(url, {"username": "editor", "password": "wrong"})
    response = client.post(url, login_data(editor))
    assert response.status_code == 302
    client.logout()
    for _ in range(4):
        assert client.post(url, {"username": "editor", "password": "wrong"}).status_code == 200


@override_settings(LOGIN_MAX_FAILURES_PER_ADDRESS=5)
def test_a_successful_login_does_not_clear_its_addresses_guesses_at_other_usernames(client, editor):
    url = reverse("admin:login")
    for number in range(3):
        client.post(url, {"username": f"guess{number}", "password": "wrong"})
    assert client.post(url, login_data(editor)).status_code == 302
    client.logout()
    statuses = [client.post(url, {"username": f"other{number}", "password": "wrong"}).status_code
                for number in range(2)]
    assert statuses == [200, 429]


@override_settings(LOGIN_MAX_FAILURES_PER_USER=3)
def test_a_lockout_ends_its_cool_off_after_the_last_attempt(client, editor):
    url = reverse("admin:login")
    for _ in range(3):
        client.post(url, {"username": "editor", "password": "wrong"})
    assert client.post(url, {"username": "editor", "password": PASSWORD}).status_code == 429
    last_attempt = AccessAttempt.objects.get().attempt_time
    AccessAttempt.objects.update(attempt_time=last_attempt - timedelta(minutes=14))
    assert client.post(url, {"username": "editor", "password": PASSWORD}).status_code == 429, "within 15 minutes"
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    assert client.post(url, login_data(editor)).status_code == 302


def test_the_admin_lives_at_the_configured_url(client, db):
    from django.conf import settings

    assert reverse("admin:index") == "/" + settings.ADMIN_URL
