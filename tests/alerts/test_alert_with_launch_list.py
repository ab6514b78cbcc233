"""Issue 44, item 3: the price alert form's optional launch-list box (its own consent, the balance currency and the
business confirmation) is confirmed by the alert's one confirmation mail, which says so; the form still answers
the same by the same queries whatever the address holds (issue 48)."""
from decimal import Decimal

from django.core import mail
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation
from django.utils.translation import gettext

from alerts.mails import CONFIRMATION_MAIL_VERSION
from alerts.models import AlertRequest, PriceAlert
from catalog.models import GPU
from optin.models import ConsentRecord
from signups.forms import LAUNCH_LIST_CONSENT_TEXT_VERSION
from signups.models import Signup

from .. import factories
from ..html import parse
from ..localized_urls import url_in
from ..queries import query_shapes
from ..signup_helpers import UNSUBSCRIBE_LINK, run_mail_worker
from .price_alert_steps import CONFIRM_LINK, SLUG, alert_data


def with_list(language="es", **overrides):
    return alert_data(language, **{"launch_list": "on", "launch_list_currency": "GBP", "launch_list_business": "on",
                                   **overrides})


def post(client, data, language="es", slug=SLUG):
    return client.post(url_in(language, "alerts:price_alert", slug=slug), data)


def one_mail():
    [message] = mail.outbox
    return message


def test_one_mail_confirms_the_alert_and_the_launch_list(client, launch_content):
    assert post(client, with_list("de", email="Jonas@example.com"), "de").status_code == 303
    assert not Signup.objects.exists()  # the form only stored its request
    run_mail_worker()
    message = one_mail()
    signup, alert = Signup.objects.get(), PriceAlert.objects.get()
    assert (signup.email, signup.currency, signup.language, signup.for_business, signup.gpu) == (
        "Jonas@example.com", "GBP", "de", True, alert.gpu)
    assert signup.confirmed_at is None and signup.confirmation_token_hash is None  # no link of its own
    with translation.override("de"):
        assert gettext("Leave the launch list at any time:") in message.body
    assert UNSUBSCRIBE_LINK.search(message.body).group(0).endswith(f"/{signup.unsubscribe_key}/")
    link = CONFIRM_LINK.search(message.body).group(0)

    page = client.get(link)
    with translation.override("de"):
        assert gettext("The same button also puts this address on the launch list: we email you when the spot "
                       "market opens.") in parse(page.content).squashed_text
    page = client.post(link)
    assert page.status_code == 200
    signup.refresh_from_db()
    alert.refresh_from_db()
    assert signup.is_subscribed and alert.confirmed_at == signup.confirmed_at
    assert alert.launch_list_signup is None
    with translation.override("de"):
        text = parse(page.content).squashed_text
        assert gettext("This address is on the launch list now: we email you when the spot market opens. Every "
                       "email about the launch has a link to unsubscribe.") in text
        assert gettext("Join the launch list: we email you when the spot market opens.") not in text  # nothing to offer
    # Two consents, two records, both confirmed by the one mail.
    records = {record.purpose: record for record in ConsentRecord.objects.all()}
    assert set(records) == {"price_alert", "waitlist"}
    assert records["waitlist"].consent_text_version == LAUNCH_LIST_CONSENT_TEXT_VERSION
    assert records["price_alert"].consent_text_version == "price-alert-2"
    for record in records.values():
        assert record.confirmed_at == alert.confirmed_at
        assert record.confirmation_mail_version == CONFIRMATION_MAIL_VERSION
        assert record.confirmation_mail_sent_at is not None
        assert (record.consent_language, record.source_path) == ("de", url_in("de", "alerts:price_alert", slug=SLUG))
    assert len(mail.outbox) == 1


def test_the_list_needs_its_currency_and_the_business_confirmation_only_when_asked(client, launch_content):
    response = post(client, with_list(launch_list_business=None, launch_list_currency=None))
    assert response.status_code == 400
    errors = parse(response.content).squashed_text
    with translation.override("es"):
        assert gettext("At launch the market sells to business customers only: please confirm that you are "
                       "signing up for a business.") in errors
    assert not AlertRequest.objects.exists()
    # Unticked, the list's fields are ignored: the alert alone, its mail without the list.
    assert post(client, alert_data(launch_list_currency="EUR")).status_code == 303
    run_mail_worker()
    assert not Signup.objects.exists() and not UNSUBSCRIBE_LINK.search(one_mail().body)


def test_the_currency_proposed_follows_the_language(client, launch_content):
    for language, currency in (("es", "EUR"), ("pt", "EUR"), ("de", "EUR"), ("en", "USD")):
        page = client.get(url_in(language, "alerts:price_alert", slug=SLUG))
        boxes = parse(page.content).find_all("input", name="launch_list_currency")
        assert [box.attrs["value"] for box in boxes if "checked" in box.attrs] == [currency], language


def test_an_address_on_the_list_already_gets_the_alert_mail_alone(client, launch_content):
    factories.signup(email="ana@example.com", currency="EUR", confirmed_at=timezone.now())
    assert post(client, with_list()).status_code == 303
    run_mail_worker()
    assert not UNSUBSCRIBE_LINK.search(one_mail().body)
    assert Signup.objects.get().currency == "EUR"
    assert PriceAlert.objects.get().launch_list_signup is None


def test_without_an_alert_mail_the_list_sends_its_own(client, launch_content):
    """An alert confirmed already, asked again with the same target, mails nothing: the list's box then gets
    the list's own confirmation mail, so it is never silently dropped."""
    now = timezone.now()
    factories.price_alert(email="ana@example.com", gpu=GPU.objects.get(slug=SLUG), target_usd_per_hour="2.50",
                          confirmed_at=now, renewed_at=now)
    assert post(client, with_list()).status_code == 303
    run_mail_worker()
    with translation.override("es"):
        assert one_mail().subject == gettext("Confirm your EverXCloud signup")
    assert Signup.objects.get().consent_text_version == LAUNCH_LIST_CONSENT_TEXT_VERSION


def test_with_the_box_ticked_a_known_and_a_new_address_get_the_same_answer_by_the_same_queries(
        client, launch_content, settings):
    settings.SIGNUP_RATE_LIMIT = 1000
    now = timezone.now()
    known = "known@example.com"
    factories.signup(email=known, confirmed_at=now)
    factories.price_alert(email=known, gpu=GPU.objects.get(slug=SLUG), target_usd_per_hour="0.50", confirmed_at=now,
                          renewed_at=now)
    assert post(client, with_list(email="first@example.com")).status_code == 303
    answers = {}
    for label, email in (("new", "new@example.com"), ("known", known)):
        with CaptureQueriesContext(connection) as queries:
            response = post(client, with_list(email=email))
        answers[label] = (response.status_code, response["Location"], response.content,
                          query_shapes(queries.captured_queries))
    assert answers["new"] == answers["known"]
    assert not any("signups_signup" in shape for shape in answers["new"][3])
    assert AlertRequest.objects.filter(launch_list_currency="GBP").count() == 3


def test_the_migration_keeps_the_alerts_and_the_waiting_requests(migrations_rolled_back):
    others = [(app, name) for app, name in MigrationExecutor(connection).loader.graph.leaf_nodes() if app != "alerts"]
    old = migrations_rolled_back([*others, ("alerts", "0005_alert_requests")])
    gpu = old.get_model("catalog", "GPU").objects.create(
        slug="old-gpu", vendor="V", name="Old GPU", architecture="A", memory_gb=Decimal(80), derived_source="")
    consent = {"consent_text_version": "price-alert-2", "consent_language": "de", "source_path": "/de/"}
    old.get_model("alerts", "PriceAlert").objects.create(
        email="old@example.com", gpu=gpu, target_usd_per_hour=Decimal("2.50"), language="de", **consent)
    old.get_model("alerts", "AlertRequest").objects.create(
        email="waiting@example.com", gpu=gpu, target_usd_per_hour=Decimal("1.50"), language="de", **consent)
    new = migrations_rolled_back([*others, ("alerts", "0006_launch_list_with_the_alert")])
    alert = new.get_model("alerts", "PriceAlert").objects.get()
    assert (alert.email, alert.launch_list_signup_id) == ("old@example.com", None)
    request = new.get_model("alerts", "AlertRequest").objects.get()
    assert (request.email, request.launch_list_currency, request.launch_list_consent_text_version) == (
        "waiting@example.com", "", "")
