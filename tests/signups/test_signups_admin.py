"""The signups in the admin: filters, CSV export, erasure of one person's data on request."""
import csv
import io
from datetime import timedelta

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse
from django.utils import timezone

from optin import pseudonyms
from optin.models import ErasureLog, OutboxEmail
from providers.models import ProviderApplication
from signups.models import Signup
from workloads.models import Workload

from .. import factories


@pytest.fixture
def admin_client_logged_in(client, db):
    user = get_user_model().objects.create_superuser("admin", "admin@example.com", "a-long-test-password")
    client.force_login(user)
    return client


@pytest.fixture
def signups(launch_content):
    now = timezone.now()
    training = Workload.objects.get(key="llm-training")
    return [
        factories.signup(email="ana@example.com", currency="EUR", language="es", workload=training, confirmed_at=now,
                         consent_text_version="renter-1", source_path="/es/signup/"),
        factories.signup(email="rui@example.com", currency="EUR", language="pt"),
        factories.signup(email="jonas@example.com", currency="GBP", language="de", confirmed_at=now),
        factories.signup(email="=HYPERLINK(1)@example.com", currency="USD", language="en"),
    ]


def listed_emails(client, query=""):
    body = client.get(reverse("admin:signups_signup_changelist") + query).content.decode()
    return {signup.email for signup in Signup.objects.all() if signup.email in body}


@pytest.mark.parametrize("query, expected", [
    ("", {"ana@example.com", "rui@example.com", "jonas@example.com", "=HYPERLINK(1)@example.com"}),
    ("?confirmed=yes", {"ana@example.com", "jonas@example.com"}),
    ("?confirmed=no", {"rui@example.com", "=HYPERLINK(1)@example.com"}),
    ("?language__exact=pt", {"rui@example.com"}),
    ("?currency__exact=EUR", {"ana@example.com", "rui@example.com"}),
    ("?currency__exact=EUR&confirmed=yes", {"ana@example.com"}),
])
def test_signups_filter_by_confirmed_language_and_currency(admin_client_logged_in, signups, query, expected):
    assert listed_emails(admin_client_logged_in, query) == expected


def test_csv_export_of_the_selected_signups(admin_client_logged_in, signups):
    selected = [signups[0], signups[3]]
    response = admin_client_logged_in.post(reverse("admin:signups_signup_changelist"), {
        "action": "export_csv", "_selected_action": [signup.pk for signup in selected],
    })
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [row["email"] for row in rows] == ["ana@example.com", "'=HYPERLINK(1)@example.com"]
    assert rows[0]["workload"] == "llm-training" and rows[0]["currency"] == "EUR"
    assert rows[0]["confirmed_at"] and rows[0]["consent_text_version"] == "renter-1"
    assert rows[0]["source_path"] == "/es/signup/"


def test_signups_cannot_be_edited_or_plainly_deleted(admin_client_logged_in, signups):
    signup = signups[0]
    change_url = reverse("admin:signups_signup_change", args=[signup.pk])
    response = admin_client_logged_in.post(change_url, {"email": "changed@example.com"})
    assert response.status_code == 403
    delete_url = reverse("admin:signups_signup_delete", args=[signup.pk])
    assert admin_client_logged_in.get(delete_url).status_code == 403
    body = admin_client_logged_in.get(reverse("admin:signups_signup_changelist")).content.decode()
    assert "delete_selected" not in body and "erase_personal_data" in body


def test_erasure_asks_for_confirmation_then_removes_every_trace_but_a_pseudonymous_log(admin_client_logged_in,
                                                                                     signups):
    ana = signups[0]
    application = factories.provider_application(email="ANA@example.com")
    factories.outbox_email(recipient="Ana@Example.com")
    factories.outbox_email(recipient="rui@example.com")
    admin_user = get_user_model().objects.get(username="admin")
    LogEntry.objects.log_actions(admin_user.pk, [application], CHANGE, single_object=True)
    url = reverse("admin:signups_signup_changelist")

    asked = admin_client_logged_in.post(url, {"action": "erase_personal_data", "_selected_action": [ana.pk]})
    assert asked.status_code == 200 and "ana@example.com" in asked.content.decode()
    assert Signup.objects.filter(pk=ana.pk).exists()

    before = timezone.now()
    done = admin_client_logged_in.post(url, {"action": "erase_personal_data", "_selected_action": [ana.pk],
                                             "confirm": "yes"})
    assert done.status_code == 302
    assert not Signup.objects.filter(email__iexact="ana@example.com").exists()
    assert not ProviderApplication.objects.exists()
    assert list(OutboxEmail.objects.values_list("recipient", flat=True)) == ["rui@example.com"]
    application_type = ContentType.objects.get_for_model(ProviderApplication)
    assert not LogEntry.objects.filter(content_type=application_type).exists()
    assert Signup.objects.count() == 3
    log = ErasureLog.objects.get()
    assert log.email_hash == pseudonyms.erasure_hash("ana@example.com")
    assert before <= log.erased_at <= timezone.now()
    assert "ana" not in str(ErasureLog.objects.values().get()).lower()


def test_provider_applications_are_erased_from_their_own_list_too(admin_client_logged_in, db):
    application = factories.provider_application()
    admin_client_logged_in.post(reverse("admin:providers_providerapplication_changelist"), {
        "action": "erase_personal_data", "_selected_action": [application.pk], "confirm": "yes"})
    assert not ProviderApplication.objects.exists() and ErasureLog.objects.count() == 1


def test_outbox_lists_pending_sent_and_given_up_mails_and_can_retry(admin_client_logged_in, db):
    now = timezone.now()
    factories.outbox_email(recipient="pending@example.com", next_attempt_at=now + timedelta(hours=1), attempts=3)
    factories.outbox_email(recipient="sent@example.com", sent_at=now, next_attempt_at=None, attempts=1)
    given_up = factories.outbox_email(recipient="failed@example.com", next_attempt_at=None, attempts=20,
                                      last_error="refused")
    url = reverse("admin:optin_outboxemail_changelist")
    for status, address in (("pending", "pending@"), ("sent", "sent@"), ("failed", "failed@")):
        body = admin_client_logged_in.get(f"{url}?status={status}").content.decode()
        assert address in body and all(other == address or other not in body
                                       for other in ("pending@", "sent@", "failed@")), status
    admin_client_logged_in.post(url, {"action": "retry_now", "_selected_action": [given_up.pk]})
    given_up.refresh_from_db()
    assert given_up.next_attempt_at is not None and given_up.next_attempt_at <= timezone.now()


@pytest.mark.parametrize("key", ["privacy", "legal-notice"])
def test_the_legal_pages_cannot_be_deleted_in_the_admin(admin_client_logged_in, launch_content, key):
    from django.contrib.messages import get_messages
    from django.utils.translation import gettext

    from company.models import LegalPage

    page = LegalPage.objects.get(key=key)
    change_url = reverse("admin:company_legalpage_change", args=[page.pk])
    assert 'class="deletelink"' not in admin_client_logged_in.get(change_url).content.decode()
    changelist = admin_client_logged_in.get(reverse("admin:company_legalpage_changelist")).content.decode()
    assert "delete_selected" not in changelist
    delete_url = reverse("admin:company_legalpage_delete", args=[page.pk])
    attempts = (admin_client_logged_in.get(delete_url), admin_client_logged_in.post(delete_url, {"post": "yes"}))
    for response in attempts:
        assert response.status_code == 302 and response["Location"] == change_url
        assert gettext(
            "The privacy policy and the legal notice cannot be deleted: every form links to the privacy "
            "policy and records the version agreed to. Edit the text and its version instead."
        ) in [str(message) for message in get_messages(response.wsgi_request)]
    assert LegalPage.objects.filter(key=key).exists()


def test_the_model_refuses_to_delete_a_legal_page_too(launch_content):
    from django.db import transaction
    from django.db.models import ProtectedError

    from company.models import LegalPage

    with pytest.raises(ProtectedError), transaction.atomic():
        LegalPage.objects.get(key="privacy").delete()
    with pytest.raises(ProtectedError), transaction.atomic():
        LegalPage.objects.all().delete()
    assert LegalPage.objects.count() == 2


def test_an_editors_attempt_to_delete_the_privacy_policy_leaves_the_consent_link_and_version(client,
                                                                                              launch_content):
    from company.models import LegalPage
    from signups.models import WaitlistRequest

    from ..editors import create_editor
    from ..localized_urls import url_in
    from ..signup_helpers import signup_data

    client.force_login(create_editor())
    privacy = LegalPage.objects.get(key="privacy")
    client.post(reverse("admin:company_legalpage_delete", args=[privacy.pk]), {"post": "yes"})
    client.post(reverse("admin:company_legalpage_changelist"),
                {"action": "delete_selected", "_selected_action": [privacy.pk], "post": "yes"})
    client.logout()
    assert client.get(url_in("es", "company:privacy")).status_code == 200
    client.post(url_in("es", "signups:signup"), signup_data())
    assert WaitlistRequest.objects.get().privacy_policy_version == privacy.version


def test_the_admin_search_finds_an_address_however_it_is_spelt(admin_client_logged_in, db):
    factories.signup(email="idn@xn--bcher-kva.example")
    factories.signup(email="other@example.com")
    url = reverse("admin:signups_signup_changelist")
    for spelling in ("IDN@BÜCHER.example", "idn@ｂüｃｈｅｒ.example", "idn@xn--bcher-kva.example"):
        body = admin_client_logged_in.get(url, {"q": spelling}).content.decode()
        assert "idn@xn--bcher-kva.example" in body and "other@example.com" not in body, spelling
