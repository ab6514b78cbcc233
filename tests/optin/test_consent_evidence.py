"""The evidence of consent kept apart from the subscription (optin/consent_records.py): made when a consent is
asked, it records the confirmation mail's version and send time (noted by the outbox as it really sends) and
the click; it outlives the signup, alert or request it was given for, holds no plain address, and is purged
once its period after the withdrawal has passed."""
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from alerts import price_alerts
from alerts.mails import CONFIRMATION_MAIL_VERSION as ALERT_MAIL_VERSION
from alerts.models import PriceAlert
from company.models import OperatorRecord
from optin import consent_records
from optin.erasure import erase_person
from optin.models import ConsentRecord, ErasureLog
from optin.retention import purge_unconfirmed
from providers.models import ProviderApplication
from signups import unsubscribing
from signups.mails import CONFIRMATION_MAIL_VERSION as SIGNUP_MAIL_VERSION
from signups.models import Signup

from ..alerts.price_alert_steps import ask, confirm_link_of, confirmed_alert
from ..html import assert_page_heading
from ..localized_urls import url_in
from ..signup_helpers import confirmation_path, provider_data, run_mail_worker, signup_data, unsubscribe_path

ADDRESS = "Ana.Lima@example.com"
WITHDRAWN = datetime(2027, 1, 31, 12, 0, tzinfo=UTC)


def evidence_months(months):
    """The operator record's period, filled (or emptied: None) for the test."""
    OperatorRecord.objects.update_or_create(pk=1, defaults={"consent_evidence_retention_months": months})


def assert_no_plain_address(record, address=ADDRESS):
    for field in ConsentRecord._meta.concrete_fields:
        value = str(getattr(record, field.attname)).lower()
        assert address.lower() not in value and address.split("@")[0].lower() not in value, field.name


def sign_up_and_confirm(client, language="de"):
    sent_after = timezone.now()
    assert client.post(url_in(language, "signups:signup"),
                       signup_data(email=ADDRESS, language=language)).status_code == 303
    run_mail_worker()  # the waitlist's chore applies the request; the outbox sends through locmem
    sent_before = timezone.now()
    body = mail.outbox[-1].body
    assert client.post(confirmation_path(body)).status_code == 200
    return Signup.objects.get(), body, (sent_after, sent_before)


def test_add_months_keeps_the_day_or_takes_the_months_last():
    assert consent_records.add_months(WITHDRAWN, 36) == datetime(2030, 1, 31, 12, 0, tzinfo=UTC)
    assert consent_records.add_months(WITHDRAWN, 1) == datetime(2027, 2, 28, 12, 0, tzinfo=UTC)
    assert consent_records.add_months(datetime(2027, 11, 30, tzinfo=UTC), 3) == datetime(2028, 2, 29, tzinfo=UTC)


def test_a_signups_record_holds_what_was_asked_the_mail_sent_and_the_click(client, launch_content):
    signup, _body, (sent_after, sent_before) = sign_up_and_confirm(client)
    record = signup.consent_record
    assert (record.purpose, record.consent_text_version, record.consent_language, record.source_path) == (
        ConsentRecord.Purpose.WAITLIST, signup.consent_text_version, "de", url_in("de", "signups:signup"))
    assert record.privacy_policy_version == signup.privacy_policy_version != ""
    assert record.asked_at == signup.signed_up_at
    assert record.confirmation_mail_version == SIGNUP_MAIL_VERSION
    assert sent_after <= record.confirmation_mail_sent_at <= sent_before
    assert record.confirmed_at == signup.confirmed_at
    assert record.withdrawn_at is None and record.keep_until is None
    assert_no_plain_address(record)
    assert consent_records.records_of("ana.lima@EXAMPLE.com").get() == record


def test_a_mail_not_sent_yet_is_not_recorded_as_sent(client, launch_content):
    with override_settings(EMAIL_BACKEND="tests.optin.test_consent_evidence.RefusingBackend"):
        client.post(url_in("es", "signups:signup"), signup_data(email=ADDRESS))
        run_mail_worker()
    record = Signup.objects.get().consent_record
    assert (record.confirmation_mail_version, record.confirmation_mail_sent_at) == ("", None)


class RefusingBackend:
    """A mail server that refuses every mail."""

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise OSError("connection refused")


def test_unsubscribing_deletes_the_signup_and_keeps_the_evidence_for_its_period(client, launch_content):
    evidence_months(None)
    signup, body, _times = sign_up_and_confirm(client)
    with override_settings(CONSENT_EVIDENCE_RETENTION_MONTHS=36):
        assert unsubscribing.unsubscribe(signup.unsubscribe_key, now=WITHDRAWN)
    assert not Signup.objects.exists()
    record = ConsentRecord.objects.get()
    assert (record.withdrawn_at, record.withdrawal, record.keep_until) == (
        WITHDRAWN, ConsentRecord.Withdrawal.UNSUBSCRIBED, datetime(2030, 1, 31, 12, 0, tzinfo=UTC))
    assert record.confirmed_at is not None and record.confirmation_mail_version == SIGNUP_MAIL_VERSION
    assert_no_plain_address(record)
    # The link opened again: the address is off the list, said without the row, with no button.
    for again in (client.get(unsubscribe_path(body)), client.post(unsubscribe_path(body))):
        assert again.status_code == 200
        assert_page_heading(again, "de", "You are unsubscribed")
        assert "<button" not in again.content.decode()
    # Purged once its period has passed, not a second before.
    assert purge_unconfirmed(now=record.keep_until - timedelta(seconds=1)).consent_records == 0
    assert ConsentRecord.objects.exists()
    assert purge_unconfirmed(now=record.keep_until).consent_records == 1
    assert not ConsentRecord.objects.exists()


def test_the_unsubscribe_page_deletes_the_signup_by_its_button(client, launch_content):
    _signup, body, _times = sign_up_and_confirm(client, "es")
    response = client.post(unsubscribe_path(body))
    assert response.status_code == 200
    with translation.override("es"):
        assert gettext("We will not email you about the launch any more.") in response.content.decode()
    assert not Signup.objects.exists()
    assert ConsentRecord.objects.get().withdrawal == ConsentRecord.Withdrawal.UNSUBSCRIBED


def test_the_operator_records_period_wins_over_the_setting(client, launch_content):
    evidence_months(24)
    signup, _body, _times = sign_up_and_confirm(client)
    with override_settings(CONSENT_EVIDENCE_RETENTION_MONTHS=36):
        unsubscribing.unsubscribe(signup.unsubscribe_key, now=WITHDRAWN)
    assert ConsentRecord.objects.get().keep_until == datetime(2029, 1, 31, 12, 0, tzinfo=UTC)


def test_a_deleted_alert_keeps_its_evidence(client, launch_content):
    evidence_months(None)
    alert = confirmed_alert(client, "pt", email=ADDRESS)
    record = alert.consent_record
    assert (record.purpose, record.consent_language, record.confirmation_mail_version) == (
        ConsentRecord.Purpose.PRICE_ALERT, "pt", ALERT_MAIL_VERSION)
    assert record.confirmed_at == alert.confirmed_at and record.confirmation_mail_sent_at is not None
    with override_settings(CONSENT_EVIDENCE_RETENTION_MONTHS=12):
        price_alerts.delete(alert.unsubscribe_key, now=WITHDRAWN)
    assert not PriceAlert.objects.exists()
    record.refresh_from_db()
    assert (record.withdrawal, record.withdrawn_at, record.keep_until) == (
        ConsentRecord.Withdrawal.DELETED_BY_OWNER, WITHDRAWN, datetime(2028, 1, 31, 12, 0, tzinfo=UTC))
    assert_no_plain_address(record)


def test_the_delete_page_keeps_the_evidence_too(client, launch_content):
    alert = confirmed_alert(client, "en")
    response = client.post(url_in("en", "alerts:price_alert_delete", key=alert.unsubscribe_key))
    assert response.status_code == 200 and not PriceAlert.objects.exists()
    assert ConsentRecord.objects.get().withdrawal == ConsentRecord.Withdrawal.DELETED_BY_OWNER


def test_one_click_confirming_several_alerts_records_the_clicked_mail_for_each(client, launch_content):
    ask(client, "es", slug="h100-sxm")
    ask(client, "es", slug="a100-sxm")  # joins the mail on its way: one link confirms both
    run_mail_worker()
    assert len(mail.outbox) == 1
    assert client.post(confirm_link_of(mail.outbox[0].body)).status_code == 200
    records = ConsentRecord.objects.filter(purpose=ConsentRecord.Purpose.PRICE_ALERT)
    assert records.count() == 2
    sent = mail_sent = {record.confirmation_mail_sent_at for record in records}
    assert len(sent) == 1 and None not in mail_sent
    assert all(record.confirmed_at is not None and record.confirmation_mail_version == ALERT_MAIL_VERSION
               for record in records)


def test_a_request_never_confirmed_keeps_its_evidence_after_the_purge(client, launch_content):
    evidence_months(None)
    client.post(url_in("es", "signups:signup"), signup_data(email=ADDRESS))
    run_mail_worker()
    later = timezone.now() + timedelta(days=60)
    with override_settings(CONSENT_EVIDENCE_RETENTION_MONTHS=36):
        assert purge_unconfirmed(now=later).signups == 1
    record = ConsentRecord.objects.get()
    assert (record.withdrawal, record.withdrawn_at, record.confirmed_at) == (
        ConsentRecord.Withdrawal.NOT_CONFIRMED, later, None)
    assert record.keep_until == consent_records.add_months(later, 36)
    assert record.confirmation_mail_sent_at is not None


def test_erasure_deletes_the_rows_and_keeps_the_evidence_as_erased(client, launch_content):
    sign_up_and_confirm(client)
    ask(client, "de", email=ADDRESS.upper())
    run_mail_worker()
    client.post(url_in("de", "providers:application"), provider_data(email=ADDRESS))
    run_mail_worker()
    assert ConsentRecord.objects.count() == 3
    erase_person("ana.lima@example.com", now=WITHDRAWN)
    assert not Signup.objects.exists() and not PriceAlert.objects.exists()
    assert not ProviderApplication.objects.exists()
    assert ErasureLog.objects.count() == 1
    for record in ConsentRecord.objects.all():
        assert (record.withdrawal, record.withdrawn_at) == (ConsentRecord.Withdrawal.ERASED, WITHDRAWN)
        assert_no_plain_address(record)
    assert {record.purpose for record in ConsentRecord.objects.all()} == set(ConsentRecord.Purpose.values)


def test_a_provider_application_records_its_request(client, launch_content):
    client.post(url_in("es", "providers:application"), provider_data())
    run_mail_worker()
    application = ProviderApplication.objects.get()
    record = application.consent_record
    assert (record.purpose, record.consent_text_version, record.consent_language) == (
        ConsentRecord.Purpose.PROVIDER_APPLICATION, application.consent_text_version, "es")
    assert_no_plain_address(record, "marta@computo.example")


def test_a_record_a_row_still_points_to_is_never_purged(client, launch_content):
    alert = confirmed_alert(client, "en")
    ConsentRecord.objects.filter(pk=alert.consent_record_id).update(keep_until=WITHDRAWN)
    assert consent_records.purge_expired(now=WITHDRAWN + timedelta(days=1)) == 0
    assert PriceAlert.objects.get().consent_record_id is not None


@pytest.mark.parametrize("view_name, kwargs", [
    ("signups:signup", {}), ("providers:application", {}), ("alerts:price_alert", {"slug": "h100-sxm"}),
])
@pytest.mark.parametrize("language", ["es", "pt", "de", "en"])
def test_each_box_names_its_purpose_only_with_the_privacy_policy_linked_beside_it(
        client, launch_content, view_name, kwargs, language):
    page = client.get(url_in(language, view_name, **kwargs)).content.decode()
    label = re.search(r'<label for="id_consent"[^>]*>(.*?)</label>', page, re.DOTALL).group(1)
    assert "<a" not in label
    beside = re.search(r'<p class="helptext" id="id_consent_helptext">(.*?)</p>', page, re.DOTALL).group(1)
    assert f'href="{url_in(language, "company:privacy")}"' in beside
    with translation.override(language):
        assert gettext("How we handle your data:") in beside


def test_the_admin_finds_an_addresses_records_by_the_address_and_shows_no_plain_address(client, launch_content,
                                                                                        recorded_templates):
    """An auditor types the address (however it is spelt) and finds its consents, though the records hold only a
    keyed hash; nobody can add, change or delete a record there."""
    signup, _body, _times = sign_up_and_confirm(client)
    unsubscribing.unsubscribe(signup.unsubscribe_key, now=WITHDRAWN)
    other = consent_records.asked(ConsentRecord.Purpose.PRICE_ALERT, email="other@example.com",
                                  consent={
        "consent_text_version": "price-alert-2", "privacy_policy_version": "1.5", "consent_language": "en",
        "source_path": "/en/"}, asked_at=WITHDRAWN)
    admin = get_user_model().objects.create_superuser("auditor", "auditor@example.com", "a-long-test-password")
    client.force_login(admin)
    changelist = reverse("admin:optin_consentrecord_changelist")
    found = client.get(changelist, {"q": ADDRESS.upper()})
    assert found.status_code == 200
    shown = list(found.context["cl"].result_list)
    assert [record.pk for record in shown] == [ConsentRecord.objects.get(purpose="waitlist").pk] != [other.pk]
    assert ADDRESS not in found.content.decode().replace(f'value="{ADDRESS.upper()}"', "")
    record = shown[0]
    delete = reverse("admin:optin_consentrecord_delete", args=[record.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:optin_consentrecord_add")).status_code == 403
    assert ConsentRecord.objects.filter(pk=record.pk).exists()
