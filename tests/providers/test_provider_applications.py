"""Provider applications ("join the EverXCloud Network"): the form in four languages, the stored application
with its consent evidence, the acknowledgement mail, and the list in the admin with its status."""
import io
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from company.models import LegalPage
from optin.models import OutboxEmail
from providers.models import ProviderApplication

from ..html import Page
from ..localized_urls import url_in
from ..signup_helpers import provider_data, run_mail_worker


def submission_key(client, language="es"):
    """The idempotency key of a freshly shown form."""
    body = client.get(url_in(language, "providers:application")).content.decode()
    return re.search(r'name="submission" value="([^"]+)"', body).group(1)


@pytest.fixture
def post_application(client):
    """Show the form (a fresh submission key), post it, and let the mail worker send the acknowledgement."""
    def post(page_language="es", **data):
        data.setdefault("submission", submission_key(client, page_language))
        response = client.post(url_in(page_language, "providers:application"), provider_data(**data))
        run_mail_worker()
        return response
    return post


@pytest.mark.parametrize("language, germany", [("es", "Alemania"), ("pt", "Alemanha"), ("de", "Deutschland"),
                                               ("en", "Germany")])
def test_form_in_each_language_with_countries_named_in_it(client, launch_content, language, germany):
    response = client.get(url_in(language, "providers:application"))
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
    assert url_in(language, "company:privacy") in page.links


def test_an_application_is_stored_with_status_new_and_acknowledged_in_the_visitors_language(
        post_application, launch_content):
    response = post_application("pt", email="ana@dados.example", country="BR", message="Temos 3 centros.")
    assert response.status_code == 303
    assert response["Location"] == url_in("pt", "providers:thanks")
    application = ProviderApplication.objects.get()
    assert application.status == ProviderApplication.Status.NEW
    assert application.company == "Cómputo Ibérico S.L."
    assert (application.country, application.language) == ("BR", "pt")
    assert (application.gpus, application.server_locations) == ("", "")
    assert [(row.gpu.slug if row.gpu else None, row.name, row.count, row.location)
            for row in application.offered_gpus.all()] == [
        ("h100-sxm", "H100 SXM", 16, "Madrid, España"), (None, "A100 80 GB", 8, "Bilbao, España")]
    assert application.consent_text_version == "provider-2" and application.consent_language == "pt"
    assert application.privacy_policy_version == LegalPage.objects.get(key=LegalPage.Key.PRIVACY).version
    [message] = mail.outbox
    assert message.to == ["ana@dados.example"]
    with translation.override("pt"):
        assert message.subject == gettext("We received your application to the EverXCloud Network")
    # The mail repeats nothing the visitor typed: the form cannot relay text to any address.
    assert "Cómputo" not in message.body and "Marta" not in message.body
    assert OutboxEmail.objects.get().sent_at is not None


def test_the_same_form_sent_twice_is_one_application_and_one_mail(client, post_application, launch_content):
    key = submission_key(client)
    first = post_application(submission=key)
    again = post_application(submission=key)
    assert (first.status_code, first["Location"]) == (again.status_code, again["Location"])
    assert ProviderApplication.objects.count() == 1 and len(mail.outbox) == 1


def test_the_same_company_and_address_again_within_a_day_is_one_application(post_application, launch_content):
    post_application(email="marta@computo.example", company="Cómputo Ibérico S.L.")
    # The form filled in again after going back: a fresh key, the same application.
    response = post_application(email="MARTA@Computo.Example", company="cómputo ibérico s.l.")
    assert response.status_code == 303
    assert ProviderApplication.objects.count() == 1 and len(mail.outbox) == 1
    # Another company from the same address is another application.
    post_application(email="marta@computo.example", company="Nube Norte S.A.")
    assert ProviderApplication.objects.count() == 2


def test_a_company_may_apply_again_after_a_day(post_application, launch_content):
    post_application()
    ProviderApplication.objects.update(submitted_at=timezone.now() - timedelta(days=1, minutes=1))
    post_application()
    assert ProviderApplication.objects.count() == 2 and len(mail.outbox) == 2


def test_a_double_click_sends_the_form_twice_at_once_and_stores_it_once(transactional_db, settings):
    from django.core.management import call_command

    call_command("load_launch_content", stdout=io.StringIO())
    first = Client()
    key = submission_key(first)
    start = threading.Barrier(2, timeout=30)

    def submit(_click):
        browser = Client()
        browser.handler = first.handler
        try:
            start.wait()
            return browser.post(url_in("es", "providers:application"),
                                provider_data(submission=key)).status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=2) as pool:
        assert list(pool.map(submit, range(2))) == [303, 303]
    run_mail_worker()  # both requests are stored; the worker applies the first and drops the repeat
    assert ProviderApplication.objects.count() == 1 and OutboxEmail.objects.count() == 1


@pytest.mark.parametrize("field, value", [
    ("country", "XX"), ("country", "EU"), ("email", "nope"), ("consent", None), ("company", ""), ("company", "x" * 201),
    ("gpu_1", "invented-gpu"), ("count_1", "0"), ("count_1", "1,5"), ("count_1", "100001"), ("location_1", ""),
    ("name_2", ""), ("name_2", "x" * 81),
])
def test_invalid_answers_get_a_form_error(post_application, launch_content, field, value):
    response = post_application("de", **{field: value})
    assert response.status_code == 400
    assert f'id="id_{field}_error"' in response.content.decode()
    assert not ProviderApplication.objects.exists() and not mail.outbox


def test_a_filled_honeypot_gets_the_thank_you_page_and_stores_nothing(post_application, launch_content):
    response = post_application(website="spam")
    assert response.status_code == 303 and response["Location"] == url_in("es", "providers:thanks")
    assert not ProviderApplication.objects.exists() and not mail.outbox


def test_the_admin_lists_applications_with_their_status_and_changes_it(client, post_application,
                                                                       launch_content):
    post_application(company="Rechenzentrum Nord GmbH", country="DE")
    post_application(company="Nuvem Lusa Lda", country="PT")
    user = get_user_model().objects.create_superuser("admin", "admin@example.com", "a-long-test-password")
    client.force_login(user)
    url = reverse("admin:providers_providerapplication_changelist")
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
