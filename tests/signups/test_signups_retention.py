"""What the privacy policy promises about keeping data: signups never confirmed are deleted
SIGNUP_UNCONFIRMED_RETENTION_DAYS (30) days after they asked, with their mails, by the mail worker's loop
or `manage.py purge_unconfirmed`; consent evidence is kept. The hashes of people's addresses are keyed
with a secret (HMAC): pseudonymous, not a plain SHA-256 anyone could recompute."""
import hashlib
import importlib
import io
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from optin import pseudonyms
from optin.erasure import erase_person, erasures_of
from optin.management.commands import send_outbox
from optin.models import ConsentRecord, ErasureLog, OutboxEmail
from optin.retention import purge_unconfirmed
from providers.models import ProviderApplication
from signups import rate_limit
from signups.models import Signup, WaitlistRequest

from .. import factories, servers
from ..localized_urls import url_in
from ..signup_helpers import confirmation_path, provider_data, run_mail_worker, signup_data


def sign_up(client, email, *, confirm=False):
    """A signup through the form and the mail worker, confirmed through its mailed link if asked."""
    client.post(url_in("es", "signups:signup"), signup_data(email=email))
    run_mail_worker()
    if confirm:
        assert client.post(confirmation_path(mail.outbox[-1].body)).status_code == 200
    return Signup.objects.get(email=email)


def days_later(days):
    return timezone.now() + timedelta(days=days)


def test_an_unconfirmed_signup_is_deleted_with_its_mail_31_days_later(client, launch_content):
    pending = sign_up(client, "pending@example.com")
    assert OutboxEmail.objects.filter(link_kind="signup", link_row_id=pending.pk).count() == 1

    assert purge_unconfirmed(now=days_later(31)).signups == 1
    assert not Signup.objects.exists() and not OutboxEmail.objects.exists()


def test_29_days_later_it_is_kept(client, launch_content):
    sign_up(client, "pending@example.com")
    purged = purge_unconfirmed(now=days_later(29))
    assert (purged.signups, purged.mails, purged.requests) == (0, 0, 0)
    assert Signup.objects.count() == 1 and OutboxEmail.objects.count() == 1


@override_settings(SIGNUP_UNCONFIRMED_RETENTION_DAYS=3)
def test_the_period_is_a_setting(client, launch_content):
    sign_up(client, "pending@example.com")
    # The link is valid for seven days: a visitor who may still confirm keeps their signup.
    assert purge_unconfirmed(now=days_later(4)).signups == 0
    assert purge_unconfirmed(now=days_later(8)).signups == 1


def test_consent_evidence_applications_and_erasures_are_never_purged(client, launch_content):
    confirmed = sign_up(client, "confirmed@example.com", confirm=True)
    left = sign_up(client, "left@example.com")
    client.post(reverse("signups:unsubscribe", kwargs={"key": left.unsubscribe_key}))
    client.post(url_in("es", "providers:application"), provider_data())
    erase_person("gone@example.com")
    sign_up(client, "pending@example.com")

    purged = purge_unconfirmed(now=days_later(400))
    assert purged.signups == 1
    # The unsubscribed signup went at once; the evidence of its consent is kept past the purge.
    assert set(Signup.objects.values_list("email", flat=True)) == {"confirmed@example.com"}
    assert Signup.objects.get(pk=confirmed.pk).consent_text_version == confirmed.consent_text_version
    assert ProviderApplication.objects.count() == 1 and ErasureLog.objects.count() == 1
    assert set(ConsentRecord.objects.values_list("withdrawal", flat=True)) == {
        "", ConsentRecord.Withdrawal.UNSUBSCRIBED, ConsentRecord.Withdrawal.NOT_CONFIRMED}
    assert purged.consent_records == 0


def test_a_signup_given_a_fresh_link_or_a_mail_still_on_its_way_is_kept(db):
    old = timezone.now() - timedelta(days=40)
    fresh_link = factories.signup(signed_up_at=old, confirmation_token_hash="x" * 64,
                                  confirmation_expires_at=timezone.now() + timedelta(days=2))
    waiting = factories.signup(signed_up_at=old)
    factories.outbox_email(recipient=waiting.email, link_kind="signup", link_row_id=waiting.pk, created_at=old)
    given_up = factories.signup(signed_up_at=old)
    factories.outbox_email(recipient=given_up.email, link_kind="signup", link_row_id=given_up.pk, created_at=old,
                           next_attempt_at=None)

    purged = purge_unconfirmed()
    assert (purged.signups, purged.mails) == (1, 1)
    assert set(Signup.objects.values_list("pk", flat=True)) == {fresh_link.pk, waiting.pk}


def test_old_waiting_requests_and_the_admin_history_of_purged_signups_go_too(db, admin_user):
    factories.waitlist_request(email="old@example.com", received_at=timezone.now() - timedelta(days=31))
    factories.waitlist_request(email="new@example.com", received_at=timezone.now() - timedelta(days=29))
    pending = factories.signup(signed_up_at=timezone.now() - timedelta(days=31))
    LogEntry.objects.log_actions(admin_user.pk, [pending], CHANGE, single_object=True)

    assert purge_unconfirmed().requests == 1
    assert list(WaitlistRequest.objects.values_list("email", flat=True)) == ["new@example.com"]
    assert not LogEntry.objects.exists()


def test_the_command_says_what_it_deleted(db):
    lapsed = factories.signup(signed_up_at=timezone.now() - timedelta(days=31))
    factories.outbox_email(recipient=lapsed.email, link_kind="signup", link_row_id=lapsed.pk, sent_at=timezone.now(),
                           next_attempt_at=None)
    out = io.StringIO()
    call_command("purge_unconfirmed", stdout=out)
    assert out.getvalue().strip() == (
        "Unconfirmed for more than 30 days, deleted: 1 signups, 1 mails, 0 waiting requests, "
        "0 rate-limit counts of ended windows, 0 price alerts, 0 consent records past their period.")
    assert not Signup.objects.exists()


class PassesThenStop:
    """Stands in for the loop's stop event: ``passes`` passes, each ``seconds_apart`` on the clock."""

    def __init__(self, clock, passes, seconds_apart):
        self.clock, self.passes, self.seconds_apart = clock, passes, seconds_apart

    def is_set(self):
        return self.passes == 0

    def set(self):
        self.passes = 0

    def wait(self, _interval):
        self.passes -= 1
        self.clock[0] += self.seconds_apart


def test_the_worker_loop_purges_once_an_hour(db, monkeypatch):
    purges = []
    clock = [1000.0]
    monkeypatch.setattr(send_outbox, "purge_unconfirmed",
                        lambda: purges.append(clock[0]) or purge_unconfirmed())
    monkeypatch.setattr(send_outbox, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    # 2 h in passes 20 min apart: a purge at the start, one hour on, two hours on.
    monkeypatch.setattr(send_outbox, "threading",
                        SimpleNamespace(Event=lambda: PassesThenStop(clock, 7, 1200)))
    monkeypatch.setattr(send_outbox, "signal",
                        SimpleNamespace(signal=lambda *args: None, SIGTERM=0, SIGINT=0))
    monkeypatch.setattr(send_outbox, "close_old_connections", lambda: None)  # the test's transaction stays
    call_command("send_outbox", "--loop", stdout=io.StringIO())
    assert purges == [1000.0, 4600.0, 8200.0]


@pytest.mark.multiprocess
def test_the_running_worker_loop_deletes_a_lapsed_signup(transactional_db):
    factories.signup(email="lapsed@example.com", signed_up_at=timezone.now() - timedelta(days=31))
    factories.signup(email="recent@example.com", signed_up_at=timezone.now() - timedelta(days=29))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "everx.settings.test",
           "DATABASE_URL": servers.test_database_url(),
           "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "send_outbox", "--loop", "--interval", "0.2"],
        cwd=servers.PROJECT_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while Signup.objects.count() == 2 and time.monotonic() < deadline and worker.poll() is None:
            time.sleep(0.1)
    finally:
        worker.send_signal(signal.SIGTERM)
        stdout, stderr = worker.communicate(timeout=15)
    assert worker.returncode == 0, stderr
    assert list(Signup.objects.values_list("email", flat=True)) == ["recent@example.com"]
    assert ("deleted: 1 signups, 0 mails, 0 waiting requests, 0 rate-limit counts of ended windows, "
            "0 price alerts") in stdout


# Keyed hashes.

def test_the_erasure_log_keeps_a_keyed_hash_not_a_plain_one(db):
    erase_person("Ana@Example.com")
    stored = ErasureLog.objects.get().email_hash
    assert stored != hashlib.sha256(b"ana@example.com").hexdigest()
    assert stored == pseudonyms.erasure_hash("ana@example.com")
    with override_settings(SECRET_KEY="another-secret"):
        assert pseudonyms.erasure_hash("ana@example.com") != stored


def test_an_address_finds_its_erasure_after_the_secret_key_is_rotated(db):
    erase_person("ana@example.com")
    erase_person("rui@example.com")
    with override_settings(SECRET_KEY="the-new-secret", SECRET_KEY_FALLBACKS=["test-only-not-secret"]):
        erase_person("eva@example.com")
        assert erasures_of("ANA@example.com").count() == 1
        assert erasures_of("eva@example.com").count() == 1
        assert erasures_of("nobody@example.com").count() == 0


def test_the_admin_finds_an_erasure_by_address(admin_client, db, recorded_templates):
    erase_person("ana@example.com")
    erase_person("rui@example.com")
    url = reverse("admin:optin_erasurelog_changelist")
    found = admin_client.get(url, {"q": "Ana@Example.com"})
    assert found.status_code == 200 and found.context["cl"].result_count == 1
    assert admin_client.get(url, {"q": "eva@example.com"}).context["cl"].result_count == 0


def test_the_migration_keys_the_plain_hashes_logged_before(db):
    ErasureLog.objects.create(email_hash=hashlib.sha256(b"ana@example.com").hexdigest())
    name = ("signups", "0005_keyed_erasure_hashes")
    migration = importlib.import_module(f"{name[0]}.migrations.{name[1]}")
    # The models as the migration saw them (the erasure log has moved to optin since; its table has not).
    migration.key_existing_hashes(MigrationExecutor(connection).loader.project_state([name]).apps, None)
    assert erasures_of("ana@example.com").count() == 1


def test_the_rate_limit_keys_client_addresses_with_the_secret():
    keyed = pseudonyms.client_address_hash("203.0.113.7")
    assert keyed != hashlib.sha256(b"203.0.113.7").hexdigest()[:32]
    assert keyed == pseudonyms.client_address_hash("203.0.113.7")
    assert keyed != pseudonyms.client_address_hash("203.0.113.8")
    with override_settings(SECRET_KEY="another-secret"):
        assert pseudonyms.client_address_hash("203.0.113.7") != keyed


def test_the_keys_of_two_purposes_differ():
    assert pseudonyms.keyed_hash("x", pseudonyms.ERASURE_SALT) != pseudonyms.keyed_hash(
        "x", pseudonyms.CLIENT_ADDRESS_SALT)


def test_the_rate_limit_counts_a_client_by_its_keyed_hash(client, launch_content, monkeypatch):
    keys = []
    monkeypatch.setattr(rate_limit, "count_submission", lambda key, window_ends_at: keys.append(key) or 1)
    client.post(url_in("es", "signups:signup"), signup_data(), REMOTE_ADDR="203.0.113.7")
    [key] = keys
    assert key.endswith(":" + pseudonyms.client_address_hash("203.0.113.7")) and "203.0.113.7" not in key
