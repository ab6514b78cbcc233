"""Bad input gets a form error or an error page in the visitor's language, never a 500, and stores nothing."""
import re

import pytest
from django.core import mail
from django.core.validators import EmailValidator
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from optin.models import OutboxEmail
from providers.models import ApplicationRequest, ProviderApplication
from signups.models import Signup, WaitlistRequest

from ..html import Page, assert_page_heading
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..signup_helpers import provider_data, signup_data


def assert_nothing_stored():
    assert not Signup.objects.exists() and not ProviderApplication.objects.exists()
    assert not WaitlistRequest.objects.exists() and not ApplicationRequest.objects.exists()
    assert not OutboxEmail.objects.exists() and not mail.outbox


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_invalid_email_gets_a_localized_form_error(client, launch_content, language):
    response = client.post(url_in(language, "signups:signup"), signup_data(email="not-an-address"))
    assert response.status_code == 400
    with translation.override(language):
        assert str(EmailValidator.message) in response.content.decode()
    assert Page(response.content.decode()).lang == language
    assert_nothing_stored()


def test_an_over_long_email_gets_a_form_error(client, launch_content):
    address = "a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".com"
    assert len(address) > 254
    response = client.post(url_in("es", "signups:signup"), signup_data(email=address))
    assert response.status_code == 400
    assert 'id="id_email_error"' in response.content.decode()
    assert_nothing_stored()


@pytest.mark.parametrize("field, value", [
    ("currency", "BRL"), ("currency", "eur"), ("language", "fr"), ("language", ""),
])
def test_unknown_currency_or_language_gets_a_form_error(client, launch_content, field, value):
    response = client.post(url_in("pt", "signups:signup"), signup_data(**{field: value}))
    assert response.status_code == 400
    assert f'id="id_{field}_error"' in response.content.decode()
    assert_nothing_stored()


def test_missing_consent_gets_a_form_error_tied_to_the_box(client, launch_content):
    response = client.post(url_in("de", "signups:signup"), signup_data(consent=None))
    body = response.content.decode()
    assert response.status_code == 400
    with translation.override("de"):
        assert gettext("Please tick this box to continue.") in body
    # The box names its error (and the privacy policy's link beside it) for a screen reader.
    described_by = re.search(r'<input type="checkbox" name="consent"[^>]*aria-describedby="([^"]+)"', body)
    assert described_by and "id_consent_error" in described_by[1].split() and 'id="id_consent_error"' in body
    assert_nothing_stored()


def test_missing_csrf_token_gets_a_localized_403_page(launch_content):
    browser = Client(enforce_csrf_checks=True)
    response = browser.post(url_in("pt", "signups:signup"), signup_data())
    assert response.status_code == 403
    assert_page_heading(response, "pt", "The form has expired")
    assert_nothing_stored()


def test_a_form_with_its_csrf_token_passes(launch_content):
    browser = Client(enforce_csrf_checks=True)
    browser.get(url_in("es", "signups:signup"))
    token = browser.cookies["csrftoken"].value
    response = browser.post(url_in("es", "signups:signup"), signup_data(csrfmiddlewaretoken=token))
    assert response.status_code == 303 and WaitlistRequest.objects.count() == 1


@pytest.mark.parametrize("view_name", ["signups:signup", "providers:application"])
def test_a_ten_megabyte_body_gets_a_localized_400_page(launch_content, view_name):
    browser = Client(enforce_csrf_checks=True)
    browser.get(url_in("de", view_name))  # the CSRF cookie, as a browser holds it
    body = b"email=" + b"a" * (10 * 1024 * 1024)
    response = browser.post(url_in("de", view_name), body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert_page_heading(response, "de", "The request could not be processed")
    assert_nothing_stored()


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
@pytest.mark.parametrize("view_name", [
    "signups:signup", "providers:application", "signups:signup_thanks", "company:privacy",
])
def test_a_wrong_method_gets_a_localized_405_page(client, launch_content, method, view_name):
    response = getattr(client, method)(url_in("es", view_name))
    assert response.status_code == 405
    assert "GET" in response["Allow"]
    assert_page_heading(response, "es", "This page cannot do that")


def test_too_many_submissions_from_one_address_get_a_localized_429(client, launch_content, settings):
    settings.SIGNUP_RATE_LIMIT = 3
    settings.SIGNUP_RATE_LIMIT_WINDOW = 600
    for number in range(3):
        data = signup_data(email=f"p{number}@example.com")
        response = client.post(url_in("es", "signups:signup"), data)
        assert response.status_code == 303
    response = client.post(url_in("es", "signups:signup"), signup_data(email="p3@example.com"))
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 600
    assert_page_heading(response, "es", "Too many attempts")
    assert WaitlistRequest.objects.count() == 3
    # Counted per address: another visitor is not affected.
    other = client.post(url_in("es", "signups:signup"), signup_data(email="q@example.com"),
                        REMOTE_ADDR="192.0.2.7")
    assert other.status_code == 303


def test_the_provider_form_is_rate_limited_too(client, launch_content, settings):
    settings.SIGNUP_RATE_LIMIT = 1
    assert client.post(url_in("en", "providers:application"), provider_data()).status_code == 303
    assert client.post(url_in("en", "providers:application"), provider_data()).status_code == 429
    assert ApplicationRequest.objects.count() == 1


FIELD_NAMES = [
    "email", "currency", "language", "workload", "consent", "source", "website", "csrfmiddlewaretoken",
]


@hypothesis_settings(max_examples=60, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.dictionaries(st.sampled_from(FIELD_NAMES), st.text(max_size=300), max_size=8))
def test_no_form_data_whatever_gets_a_server_error(client, launch_content, settings, data):
    settings.SIGNUP_RATE_LIMIT = 10_000
    response = client.post(url_in("es", "signups:signup"), data)
    assert response.status_code in (303, 400)
