"""One mailbox, one signup: spellings of one address (Unicode or IDNA domain, upper case, full-width
letters) are one row and one mail, and erasing any of them erases it; addresses we cannot or may not mail
are refused with a message in the visitor's language; the data migration merges the rows stored before."""
import importlib
from datetime import timedelta

import pytest
from django.core import mail
from django.core.validators import EmailValidator
from django.utils import timezone, translation
from django.utils.html import escape

from optin import addresses, pseudonyms
from optin.erasure import erase_person
from optin.models import ErasureLog, OutboxEmail
from optin.tokens import new_token, token_hash
from providers.models import ProviderApplication
from signups.models import Signup, WaitlistRequest

from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..signup_helpers import provider_data, run_mail_worker, signup_data

SPELLINGS = [
    "idn@bücher.example", "idn@xn--bcher-kva.example", "IDN@BÜCHER.example",
    "ｉｄｎ@ｂüｃｈｅｒ．ｅｘａｍｐｌｅ",
]
STORED = "idn@xn--bcher-kva.example"


def test_spellings_of_one_mailbox_are_one_signup_and_one_mail(client, launch_content):
    for spelling in SPELLINGS:
        assert client.post(url_in("de", "signups:signup"), signup_data(email=spelling)).status_code == 303
    run_mail_worker()
    assert list(Signup.objects.values_list("email", flat=True)) == [STORED]
    [message] = mail.outbox
    assert message.to == [STORED]


def test_erasing_one_spelling_erases_the_mailbox(client, launch_content):
    client.post(url_in("de", "signups:signup"), signup_data(email=SPELLINGS[0]))
    run_mail_worker()
    client.post(url_in("de", "signups:signup"), signup_data(email=SPELLINGS[1]))  # waiting for the worker
    client.post(url_in("de", "providers:application"), provider_data(email=SPELLINGS[3]))
    erase_person("IDN@BÜCHER.example")
    assert not Signup.objects.exists() and not WaitlistRequest.objects.exists()
    assert not ProviderApplication.objects.exists() and not OutboxEmail.objects.exists()
    assert ErasureLog.objects.get().email_hash == pseudonyms.erasure_hash(STORED)


def test_the_provider_form_stores_the_normalized_address(client, launch_content):
    client.post(url_in("pt", "providers:application"), provider_data(email="Marta@CÓMPUTO.example"))
    run_mail_worker()
    assert ProviderApplication.objects.get().email == "Marta@xn--cmputo-bxa.example"


@pytest.mark.parametrize("address, message", [
    ("x@localhost", addresses.RESERVED_DOMAIN_MESSAGE),
    ("x@[127.0.0.1]", addresses.RESERVED_DOMAIN_MESSAGE),
    ("x@[::1]", addresses.RESERVED_DOMAIN_MESSAGE),
    ("x@intranet", EmailValidator.message),  # Django's own check refuses it first
    ("x@printer.local", addresses.RESERVED_DOMAIN_MESSAGE),
    ("x@app.localhost", addresses.RESERVED_DOMAIN_MESSAGE),
    ("x@site.test", addresses.RESERVED_DOMAIN_MESSAGE),
    ("x@nowhere.invalid", addresses.RESERVED_DOMAIN_MESSAGE),
    ("x@hidden.onion", addresses.RESERVED_DOMAIN_MESSAGE),
    ("x@router.home.arpa", addresses.RESERVED_DOMAIN_MESSAGE),
    ("x@corp.internal", addresses.RESERVED_DOMAIN_MESSAGE),
    ("x@host.123", EmailValidator.message),
    ("İ@example.com", addresses.LOCAL_PART_MESSAGE),
    ("ı@example.com", addresses.LOCAL_PART_MESSAGE),  # dotless i, which Django's own check lets through
])
@pytest.mark.parametrize("view_name", ["signups:signup", "providers:application"])
def test_addresses_we_cannot_mail_are_refused_with_a_clear_message(client, launch_content, address, message,
                                                                   view_name):
    data = signup_data(email=address) if view_name == "signups:signup" else provider_data(email=address)
    response = client.post(url_in("es", view_name), data)
    assert response.status_code == 400
    body = response.content.decode()
    assert 'id="id_email_error"' in body
    with translation.override("es"):
        assert escape(str(message)) in body
    assert not WaitlistRequest.objects.exists() and not ProviderApplication.objects.exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_refusal_is_in_the_visitors_language(client, launch_content, language):
    for address, message in (("x@localhost", addresses.RESERVED_DOMAIN_MESSAGE),
                             ("İ@example.com", addresses.LOCAL_PART_MESSAGE)):
        body = client.post(url_in(language, "signups:signup"), signup_data(email=address)).content.decode()
        with translation.override("en"):
            english = str(message)
        with translation.override(language):
            assert escape(str(message)) in body
            assert language == "en" or str(message) != english, "not translated"


def test_the_test_domains_are_refused_unless_the_setting_allows_them(client, launch_content, settings):
    path, data = url_in("es", "signups:signup"), signup_data(email="ana@shop.example")
    settings.SIGNUP_ALLOWED_RESERVED_TLDS = []
    assert client.post(path, data).status_code == 400
    settings.SIGNUP_ALLOWED_RESERVED_TLDS = ["example"]
    assert client.post(path, data).status_code == 303


@pytest.mark.parametrize("typed, stored", [
    ("Ana@Example.COM", "Ana@example.com"),
    ("  ana@example.com. ", "ana@example.com"),
    ("ｉｄｎ@ｂüｃｈｅｒ．ｅｘａｍｐｌｅ", STORED),
    ("ana@İstanbul.example", "ana@xn--istanbul-o0e.example"),
    ("\u212aelvin@example.com", "Kelvin@example.com"),  # KELVIN SIGN: NFKC makes it a K
])
def test_normalization(typed, stored):
    assert addresses.normalize(typed) == stored
    assert addresses.key(typed) == stored.lower()


BEFORE_MERGE = [("signups", "0003_waitlist_requests_and_application_keys")]


def migration():
    return importlib.import_module("signups.migrations.0004_normalize_addresses")


@pytest.fixture
def before_merge(migrations_rolled_back):
    """The models as they were before the data migration (0004), on a database migrated back to them in the
    test's transaction."""
    return migrations_rolled_back(BEFORE_MERGE)


def consent(version, language, path):
    return {"consent_text_version": version, "privacy_policy_version": version, "consent_language": language,
            "source_path": path}


def test_the_data_migration_merges_one_mailboxs_rows_and_keeps_the_earliest_consent(before_merge):
    Signup, OutboxEmail = before_merge.get_model("signups", "Signup"), before_merge.get_model("signups", "OutboxEmail")
    ProviderApplication = before_merge.get_model("signups", "ProviderApplication")
    start = timezone.now() - timedelta(days=10)
    token = new_token()
    # Signed up and confirmed; signed up again in another spelling; unsubscribed; signed up again.
    first = Signup.objects.create(
        email="idn@bücher.example", currency="EUR", language="de", signed_up_at=start,
        confirmed_at=start + timedelta(hours=1), **consent("renter-0", "de", "/de/"))
    second = Signup.objects.create(
        email="idn@ｂüｃｈｅｒ.example", currency="GBP", language="en", signed_up_at=start + timedelta(days=1),
        unsubscribed_at=start + timedelta(days=3), **consent("renter-1", "en", "/en/"))
    third = Signup.objects.create(
        email="IDN@xn--bcher-kva.example", currency="USD", language="es",
        signed_up_at=start + timedelta(days=5),
        confirmation_token_hash=token_hash(token), confirmation_expires_at=timezone.now() + timedelta(days=2),
        **consent("renter-1", "es", "/es/"))
    other = Signup.objects.create(email="ana@example.com", currency="EUR", language="es",
                                  **consent("renter-1", "es", "/es/"))
    OutboxEmail.objects.create(recipient=second.email, subject="s", body="b", language="en",
                               confirmation_for=second)
    OutboxEmail.objects.create(recipient=third.email, subject="s", body="b", language="es",
                               confirmation_for=third, sent_at=timezone.now(), next_attempt_at=None)
    ProviderApplication.objects.create(
        company="C", contact_name="M", email="Marta@CÓMPUTO.example", country="ES", gpus="8",
        server_locations="M", language="es", **consent("provider-1", "es", "/es/"))

    migration().merge_signups(before_merge, None)
    migration().normalize_other_addresses(before_merge, None)

    assert set(Signup.objects.values_list("pk", flat=True)) == {first.pk, other.pk}
    merged = Signup.objects.get(pk=first.pk)
    # The earliest consent evidence and unsubscribe link; the newest answers and spelling.
    evidence = (merged.signed_up_at, merged.consent_text_version, merged.consent_language, merged.source_path)
    assert evidence == (start, "renter-0", "de", "/de/")
    assert merged.unsubscribe_key == first.unsubscribe_key
    assert (merged.email, merged.currency, merged.language) == ("IDN@xn--bcher-kva.example", "USD", "es")
    # Signed up again after unsubscribing: pending, and the newest mail's link confirms.
    assert merged.confirmed_at is None and merged.unsubscribed_at is None
    assert merged.confirmation_token_hash == token_hash(token) and merged.confirmation_expires_at > timezone.now()
    # The merged rows' waiting mail is dropped; the sent one is kept, now about the merged row.
    assert list(OutboxEmail.objects.values_list("recipient", "confirmation_for")) == [
        ("IDN@xn--bcher-kva.example", first.pk)]
    assert ProviderApplication.objects.get().email == "Marta@xn--cmputo-bxa.example"
    assert Signup.objects.get(pk=other.pk).email == "ana@example.com"


def test_the_data_migration_keeps_a_mailbox_subscribed_when_its_last_word_was_a_confirmation(before_merge):
    Signup = before_merge.get_model("signups", "Signup")
    start = timezone.now() - timedelta(days=10)
    Signup.objects.create(email="ana@EXAMPLE.com", currency="EUR", language="es", signed_up_at=start,
                          unsubscribed_at=start + timedelta(days=1), **consent("renter-1", "es", "/es/"))
    Signup.objects.create(email="ana@example.com.", currency="EUR", language="es",
                          signed_up_at=start + timedelta(days=2), confirmed_at=start + timedelta(days=3),
                          **consent("renter-1", "es", "/es/"))
    migration().merge_signups(before_merge, None)
    merged = Signup.objects.get()
    assert merged.confirmed_at == start + timedelta(days=3) and merged.unsubscribed_at is None
    assert merged.email == "ana@example.com"
