"""The renter signup: the form, double opt-in by mail (the link's page has a button; only its POST
confirms), unsubscribe, consent evidence, and the same answer whether an address is new or known."""
import hashlib
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import gettext

from company.models import LegalPage
from optin.models import OutboxEmail
from signups.models import Signup, WaitlistRequest
from workloads.models import Workload

from .. import factories
from ..html import Page, assert_page_heading
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..signup_helpers import confirmation_path, run_mail_worker, signup_data, unsubscribe_path


@pytest.fixture
def post_signup(client):
    """POST the signup form on a language's page, then let the mail worker do its part."""
    def post(page_language="es", **data):
        response = client.post(url_in(page_language, "signups:signup"), signup_data(**data))
        run_mail_worker()
        return response
    return post


@pytest.mark.parametrize("language", LANGUAGES)
def test_form_is_in_the_pages_language_with_that_language_preselected_and_consent_unticked(
        client, launch_content, language):
    response = client.get(url_in(language, "signups:signup"))
    assert response.status_code == 200
    body = response.content.decode()
    page = Page(body)
    assert page.lang == language and len(page.h1) == 1
    with translation.override(language):
        assert page.h1 == [gettext("Create your EverXCloud account")]
    assert f'<option value="{language}" selected>' in body
    assert 'name="consent"' in body and "checked" not in body
    assert url_in(language, "company:privacy") in page.links
    # Forms carry a CSRF token: never cached.
    assert "no-store" in response["Cache-Control"] and not response.has_header("ETag")


def test_workload_choices_are_the_workloads_in_the_pages_language(client, launch_content):
    body = client.get(url_in("de", "signups:signup")).content.decode()
    for workload in Workload.objects.all():
        assert f'<option value="{workload.pk}">{workload.title_de}</option>' in body


def test_signup_stores_one_row_and_mails_the_confirmation_in_the_chosen_language(post_signup, launch_content):
    training = Workload.objects.get(key="llm-training")
    response = post_signup("es", email="Ana@Example.com", currency="GBP", language="de", workload=training.pk)
    assert response.status_code == 303
    assert response["Location"] == url_in("es", "signups:signup_thanks")
    signup = Signup.objects.get()
    # The domain is stored normalized; the part before the @ as typed (optin/addresses.py).
    assert (signup.email, signup.currency, signup.language) == ("Ana@example.com", "GBP", "de")
    assert signup.workload == training
    assert signup.confirmed_at is None
    [message] = mail.outbox
    assert message.to == ["Ana@example.com"]
    with translation.override("de"):
        assert message.subject == gettext("Confirm your EverXCloud signup")
    assert message.extra_headers["Content-Language"] == "de"
    assert confirmation_path(message.body).startswith("/de/")
    assert OutboxEmail.objects.get().sent_at is not None


def test_token_is_long_random_stored_only_as_a_hash_and_valid_for_seven_days(post_signup, launch_content):
    before = timezone.now()
    post_signup()
    token = confirmation_path(mail.outbox[0].body).rstrip("/").rsplit("/", 1)[1]
    assert len(token) >= 32
    signup = Signup.objects.get()
    assert signup.confirmation_token_hash == hashlib.sha256(token.encode()).hexdigest()
    # Neither the signup nor the stored mail holds the token itself.
    assert token not in str(Signup.objects.values().get())
    assert token not in str(OutboxEmail.objects.values().get())
    assert before + timedelta(days=7) <= signup.confirmation_expires_at <= timezone.now() + timedelta(days=7)


def test_two_signups_get_different_tokens(post_signup, launch_content):
    post_signup(email="a@example.com")
    post_signup(email="b@example.com")
    first, second = (confirmation_path(message.body) for message in mail.outbox)
    assert first != second


def button_forms(response):
    """The page's forms that POST to the page itself, with their buttons."""
    body = response.content.decode()
    return re.findall(r'<form method="post" action="([^"]+)">.*?<button type="submit">([^<]+)</button>', body)


def test_opening_the_link_shows_a_button_and_only_its_post_confirms_once(client, post_signup, launch_content):
    post_signup("pt", language="pt")
    path = confirmation_path(mail.outbox[0].body)
    # What a mail scanner or a link preview does: open the link, even twice. Nothing is confirmed.
    for _opening in range(2):
        shown = client.get(path)
        assert shown.status_code == 200 and shown["X-Robots-Tag"] == "noindex"
        assert_page_heading(shown, "pt", "Confirm your signup")
        with translation.override("pt"):
            assert button_forms(shown) == [(path, gettext("Confirm my signup"))]
    assert Signup.objects.get().confirmed_at is None
    response = client.post(path)
    assert response.status_code == 200
    assert_page_heading(response, "pt", "Your signup is confirmed")
    signup = Signup.objects.get()
    assert signup.confirmed_at is not None and signup.is_subscribed
    # A used link says so, in the visitor's language, whether clicked again or opened.
    for again in (client.post(path), client.get(path)):
        assert again.status_code == 200 and button_forms(again) == []
        assert_page_heading(again, "pt", "Your signup is already confirmed")
    assert Signup.objects.get().confirmed_at == signup.confirmed_at


def test_the_confirmation_post_needs_no_cookie_or_csrf_token(post_signup, launch_content):
    post_signup()
    mail_client = Client(enforce_csrf_checks=True)
    assert mail_client.post(confirmation_path(mail.outbox[0].body)).status_code == 200
    assert Signup.objects.get().is_subscribed


def test_an_expired_link_does_not_confirm_and_says_so(client, post_signup, launch_content):
    post_signup("de", language="de")
    Signup.objects.update(confirmation_expires_at=timezone.now() - timedelta(seconds=1))
    for response in (client.get(confirmation_path(mail.outbox[0].body)),
                     client.post(confirmation_path(mail.outbox[0].body))):
        assert response.status_code == 410
        assert_page_heading(response, "de", "This link is no longer valid")
    assert Signup.objects.get().confirmed_at is None


@pytest.mark.parametrize("token", ["x", "A" * 43, "A" * 500])
def test_made_up_tokens_confirm_nothing_and_get_a_clear_localized_page(client, post_signup, launch_content,
                                                                       token):
    post_signup()
    path = url_in("es", "signups:confirm", token=token)
    for response in (client.get(path), client.post(path)):
        assert response.status_code == 404
        assert_page_heading(response, "es", "This link is not valid")
    assert Signup.objects.get().confirmed_at is None


def test_head_requests_of_link_checkers_confirm_nothing(client, post_signup, launch_content):
    post_signup()
    assert client.head(confirmation_path(mail.outbox[0].body)).status_code == 200
    assert Signup.objects.get().confirmed_at is None


def test_every_list_mail_has_an_unsubscribe_link_and_the_one_click_headers(post_signup, launch_content):
    post_signup()
    message = mail.outbox[0]
    path = unsubscribe_path(message.body)
    assert message.extra_headers["List-Unsubscribe"] == f"<http://127.0.0.1:8000{path}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_unsubscribe_link_shows_a_button_and_only_its_post_unsubscribes(client, post_signup,
                                                                             launch_content):
    post_signup()
    client.post(confirmation_path(mail.outbox[0].body))
    path = unsubscribe_path(mail.outbox[0].body)
    shown = client.get(path)
    assert shown.status_code == 200 and shown["X-Robots-Tag"] == "noindex"
    assert_page_heading(shown, "es", "Unsubscribe from the launch emails")
    with translation.override("es"):
        assert button_forms(shown) == [(path, gettext("Unsubscribe"))]
    assert Signup.objects.get().is_subscribed
    response = client.post(path)
    assert response.status_code == 200
    assert_page_heading(response, "es", "You are unsubscribed")
    # The signup is gone at once (its consent evidence stays: tests/optin/test_consent_evidence.py).
    assert not Signup.objects.exists()
    # Used: opening or sending it again says the address is off the list, without a button.
    for again in (client.get(path), client.post(path)):
        assert again.status_code == 200 and button_forms(again) == []
        assert_page_heading(again, "es", "You are unsubscribed")
        with translation.override("es"):
            off = gettext("The address of this link is not on the launch list (any more): we will not email you "
                          "about the launch. If you unsubscribed already, there is nothing more to do.")
            assert off in again.content.decode()


def test_an_unknown_unsubscribe_key_gets_a_clear_localized_page(client, launch_content):
    from ..signup_helpers import SAMPLE_UUID

    # A used link names no signup any more, as an unknown one: either way the address is not on the list.
    response = client.post(url_in("de", "signups:unsubscribe", key=SAMPLE_UUID))
    assert response.status_code == 200
    assert_page_heading(response, "de", "You are unsubscribed")
    assert client.get(url_in("de", "signups:unsubscribe", key=SAMPLE_UUID).replace(SAMPLE_UUID, "not-a-key")
                      ).status_code == 404


def test_one_click_unsubscribe_by_post_needs_no_csrf_token(post_signup, launch_content):
    post_signup()
    mail_client = Client(enforce_csrf_checks=True)
    assert not mail_client.cookies
    response = mail_client.post(unsubscribe_path(mail.outbox[0].body), {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert not Signup.objects.exists()


def test_unsubscribing_before_confirming_voids_the_confirmation_link(client, post_signup, launch_content):
    post_signup()
    body = mail.outbox[0].body
    client.post(unsubscribe_path(body))
    assert client.post(confirmation_path(body)).status_code == 404
    assert not Signup.objects.exists()


def test_consent_evidence_is_kept(client, post_signup, launch_content):
    workload_path = Workload.objects.get(key="fine-tuning").get_absolute_url("pt")
    before = timezone.now()
    post_signup("pt", language="en", source=workload_path + "?utm=x")
    client.post(confirmation_path(mail.outbox[0].body))
    signup = Signup.objects.get()
    assert before <= signup.signed_up_at <= signup.confirmed_at <= timezone.now()
    assert signup.consent_text_version == "renter-2"
    assert signup.privacy_policy_version == LegalPage.objects.get(key=LegalPage.Key.PRIVACY).version
    assert signup.consent_language == "pt" and signup.language == "en"
    assert signup.source_path == workload_path


@pytest.mark.parametrize("source", [
    "https://evil.example/es/", "//evil.example/es/", "/\\evil.example", "javascript:alert(1)", "es/",
    "/nowhere/", "/es/" + "a" * 400,
])
def test_the_forms_page_is_only_ever_a_path_on_this_site(post_signup, launch_content, source):
    post_signup(source=source)
    assert Signup.objects.get().source_path == url_in("es", "signups:signup")


def test_a_path_that_matches_a_url_pattern_but_is_no_page_is_not_recorded(post_signup, launch_content):
    from ..signup_helpers import SAMPLE_UUID

    invented = [
        url_in("es", "catalog:gpu_detail", slug="no-such-gpu"),
        url_in("es", "workload", slug="no-such-workload"),
        url_in("es", "signups:confirm", token="made-up"),
        url_in("es", "signups:unsubscribe", key=SAMPLE_UUID),
        url_in("es", "signups:signup_thanks"),
    ]
    real = Workload.objects.get(key="llm-training").get_absolute_url("es")
    for number, source in enumerate([*invented, real]):
        post_signup(email=f"visitor{number}@example.com", source=source)
    recorded = list(Signup.objects.order_by("email").values_list("source_path", flat=True))
    assert recorded == [url_in("es", "signups:signup")] * len(invented) + [real]


def test_the_page_a_visitor_came_from_fills_the_source(client, launch_content):
    workload_path = Workload.objects.get(key="llm-training").get_absolute_url("es")
    body = client.get(url_in("es", "signups:signup"), HTTP_REFERER=f"http://testserver{workload_path}").content.decode()
    assert f'name="source" value="{workload_path}"' in body
    elsewhere = client.get(url_in("es", "signups:signup"), HTTP_REFERER="https://evil.example/es/").content.decode()
    assert 'name="source" id="id_source"' in elsewhere


@pytest.mark.parametrize("address, again", [
    ("ana@example.com", "ANA@example.COM"),
    # Python and PostgreSQL lowercase "İ" differently: the domain is IDNA-encoded before either compares.
    ("ana@İstanbul.example", "ANA@İSTANBUL.EXAMPLE"),
])
def test_the_same_address_twice_answers_as_a_new_one_and_keeps_one_row(client, post_signup, launch_content,
                                                                        address, again):
    first = post_signup(email=address)
    second = post_signup(email=again, currency="USD")
    assert (first.status_code, first["Location"]) == (second.status_code, second["Location"])
    assert Signup.objects.count() == 1
    assert Signup.objects.get().currency == "EUR"
    thanks = client.get(first["Location"]).content.decode().lower()
    assert "already registered" not in thanks and "ya registrad" not in thanks
    # Within minutes, a second mail would only let anyone flood a mailbox.
    assert len(mail.outbox) == 1


def test_a_pending_address_asking_again_later_gets_a_fresh_link_and_the_old_one_dies(client, post_signup,
                                                                                     launch_content):
    post_signup(currency="EUR")
    Signup.objects.update(signed_up_at=timezone.now() - timedelta(hours=1))
    post_signup(currency="USD", language="pt")
    assert Signup.objects.count() == 1 and len(mail.outbox) == 2
    signup = Signup.objects.get()
    assert (signup.currency, signup.language) == ("USD", "pt")
    assert client.post(confirmation_path(mail.outbox[0].body)).status_code == 404
    assert client.post(confirmation_path(mail.outbox[1].body)).status_code == 200
    assert Signup.objects.get().is_subscribed


def test_a_confirmed_address_is_left_as_it_is(client, post_signup, launch_content):
    post_signup(currency="EUR")
    client.post(confirmation_path(mail.outbox[0].body))
    Signup.objects.update(signed_up_at=timezone.now() - timedelta(days=1))
    response = post_signup(currency="GBP")
    assert response.status_code == 303
    signup = Signup.objects.get()
    assert signup.currency == "EUR" and signup.is_subscribed
    assert len(mail.outbox) == 1


def test_an_unsubscribed_address_signing_up_again_must_confirm_again(client, post_signup, launch_content):
    post_signup()
    client.post(confirmation_path(mail.outbox[0].body))
    client.post(unsubscribe_path(mail.outbox[0].body))
    post_signup()
    signup = Signup.objects.get()
    assert signup.confirmed_at is None
    # The first mail's link does not confirm the new signup: only the new mail's link does.
    assert client.post(confirmation_path(mail.outbox[0].body)).status_code == 404
    assert client.post(confirmation_path(mail.outbox[1].body)).status_code == 200
    assert Signup.objects.get().is_subscribed


def test_the_database_refuses_a_second_row_for_the_same_address_in_other_case(db):
    factories.signup(email="ana@example.com")
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.signup(email="Ana@Example.com")


def test_a_filled_honeypot_gets_the_thank_you_page_and_stores_nothing(post_signup, launch_content):
    response = post_signup(website="http://spam.example")
    assert response.status_code == 303 and response["Location"] == url_in("es", "signups:signup_thanks")
    assert not Signup.objects.exists() and not OutboxEmail.objects.exists() and not mail.outbox
    assert not WaitlistRequest.objects.exists()


def test_the_thank_you_page_is_in_the_visitors_language(client, launch_content):
    response = client.get(url_in("de", "signups:signup_thanks"))
    assert response.status_code == 200
    assert_page_heading(response, "de", "Check your inbox")


@pytest.mark.parametrize("language", LANGUAGES)
def test_calls_to_action_link_to_both_forms_in_the_visitors_language(client, launch_content, language):
    workload = Workload.objects.get(key="llm-training")
    for path in (url_in(language, "home"), workload.get_absolute_url(language)):
        page = Page(client.get(path).content.decode())
        assert f"{url_in(language, 'signups:signup')}?from={path}" in page.links, path
        assert f"{url_in(language, 'providers:application')}?from={path}" in page.links, path
        # The header's "Create your account" goes to the form.
        assert url_in(language, "signups:signup") in page.links


def test_a_call_to_actions_button_label_comes_from_the_admin_when_set(client, launch_content):
    from workloads.models import CallToAction

    launch = CallToAction.objects.get(key="launch")
    launch.button_label_es = "Quiero estar en la lista"
    launch.save()
    assert "Quiero estar en la lista" in client.get(url_in("es", "home")).content.decode()
