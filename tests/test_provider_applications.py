"""Provider applications ("join the EverXCloud Network"): the form in four languages, the stored application
with its consent evidence, the acknowledgement mail, and the list in the admin with its status."""
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from signups.models import OutboxEmail, ProviderApplication

from .html import Page
from .signup_helpers import provider_data, url_in


@pytest.fixture
def post_application(client, django_capture_on_commit_callbacks):
    def post(page_language="es", **data):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(url_in(page_language, "signups:provider_application"), provider_data(**data))
    return post


@pytest.mark.parametrize("language, germany", [("es", "Alemania"), ("pt", "Alemanha"), ("de", "Deutschland"),
                                               ("en", "Germany")])
def test_form_in_each_language_with_countries_named_in_it(client, launch_content, language, germany):
    response = client.get(url_in(language, "signups:provider_application"))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    body = response.content.decode()
    page = Page(body)
    assert page.lang == language
    with translation.override(language):
        assert page.h1 == [gettext("Join the EverXCloud Network")]
        assert f"<legend>{gettext('Your GPU servers')}</legend>" in body
    assert f'<option value="DE">{germany}</option>' in body
    autocomplete = {"company": "organization", "contact_name": "name", "email": "email", "country": "country"}
    for name, token in autocomplete.items():
        assert re.search(rf'<(input|select)[^>]*name="{name}"[^>]*autocomplete="{token}"', body), name
    assert url_in(language, "signups:privacy") in page.links


def test_an_application_is_stored_with_status_new_and_acknowledged_in_the_visitors_language(
        post_application, launch_content):
    response = post_application("pt", email="ana@dados.example", country="BR", message="Temos 3 centros.")
    assert response.status_code == 303
    assert response["Location"] == url_in("pt", "signups:provider_thanks")
    application = ProviderApplication.objects.get()
    assert application.status == ProviderApplication.Status.NEW
    assert application.company == "Cómputo Ibérico S.L."
    assert (application.country, application.language) == ("BR", "pt")
    assert application.gpus == "16 × H100 SXM, 8 × A100 80 GB"
    assert application.consent_text_version == "provider-1" and application.consent_language == "pt"
    assert application.privacy_policy_version == "1.0"
    [message] = mail.outbox
    assert message.to == ["ana@dados.example"]
    with translation.override("pt"):
        assert message.subject == gettext("We received your application to the EverXCloud Network")
    # The mail repeats nothing the visitor typed: the form cannot relay text to any address.
    assert "Cómputo" not in message.body and "Marta" not in message.body
    assert OutboxEmail.objects.get().sent_at is not None


def test_a_company_may_apply_more_than_once(post_application, launch_content):
    post_application()
    post_application()
    assert ProviderApplication.objects.count() == 2


@pytest.mark.parametrize("field, value", [
    ("country", "XX"), ("country", "EU"), ("email", "nope"), ("consent", None), ("company", ""), ("gpus", ""),
    ("gpus", "x" * 2001), ("company", "x" * 201),
])
def test_invalid_answers_get_a_form_error(post_application, launch_content, field, value):
    response = post_application("de", **{field: value})
    assert response.status_code == 400
    assert f'id="id_{field}_error"' in response.content.decode()
    assert not ProviderApplication.objects.exists() and not mail.outbox


def test_a_filled_honeypot_gets_the_thank_you_page_and_stores_nothing(post_application, launch_content):
    response = post_application(website="spam")
    assert response.status_code == 303 and response["Location"] == url_in("es", "signups:provider_thanks")
    assert not ProviderApplication.objects.exists() and not mail.outbox


def test_the_admin_lists_applications_with_their_status_and_changes_it(client, post_application,
                                                                       launch_content):
    post_application(company="Rechenzentrum Nord GmbH", country="DE")
    post_application(company="Nuvem Lusa Lda", country="PT")
    user = get_user_model().objects.create_superuser("admin", "admin@example.com", "a-long-test-password")
    client.force_login(user)
    url = reverse("admin:signups_providerapplication_changelist")
    body = client.get(url).content.decode()
    assert "Rechenzentrum Nord GmbH" in body and "Nuvem Lusa Lda" in body
    for status in ("new", "contacted", "accepted", "declined"):
        assert f'<option value="{status}"' in body
    nord = ProviderApplication.objects.get(company="Rechenzentrum Nord GmbH")
    lusa = ProviderApplication.objects.get(company="Nuvem Lusa Lda")
    response = client.post(url, {
        "form-TOTAL_FORMS": "2", "form-INITIAL_FORMS": "2",
        "form-0-id": str(lusa.pk), "form-0-status": "new",
        "form-1-id": str(nord.pk), "form-1-status": "contacted",
        "_save": "Save",
    })
    assert response.status_code == 302
    nord.refresh_from_db()
    assert nord.status == "contacted"
    filtered = client.get(url + "?status__exact=contacted").content.decode()
    assert "Rechenzentrum Nord GmbH" in filtered and "Nuvem Lusa Lda" not in filtered
