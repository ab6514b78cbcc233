"""Price alerts (alerts/price_alerts.py): asked for on a GPU's alert form, confirmed by POST from the mailed
link, mailed once through the outbox and a real SMTP server when an import brings the best price at or below
the target, then resting until the price has gone back above it; bad input gets localized errors; the
alerts are personal data like signups (erasure, export, retention)."""
import csv
import email
import email.policy
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.validators import EmailValidator
from django.db import connection
from django.forms import Field
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from alerts import price_alerts
from alerts.amounts import amount_text, decimal_separator
from alerts.models import PriceAlert
from catalog import sizing
from catalog.models import GPU
from catalog.price_events import price_changed
from company.cached_record import operator_record
from company.models import LegalPage
from core.formatting import format_usd
from core.pages import absolute_url
from optin.erasure import erase_person
from optin.models import OutboxEmail
from optin.retention import purge_unconfirmed
from prices.price_import import MAX_PRICE_USD_PER_HOUR

from .. import factories
from ..html import Page, form_fields, parse
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..signup_helpers import SAMPLE_UUID, path_of, run_mail_worker, smtp_server, smtp_settings
from .price_alert_steps import DELETE_LINK, SLUG, ask, change, confirm_link_of, confirmed_alert, import_price


def received(mailbox):
    return [email.message_from_bytes(envelope.content, policy=email.policy.default)
            for envelope in mailbox.messages]


# The whole way, through a real SMTP server and a real import.

def test_a_confirmed_alert_mails_once_per_drop_below_its_target_through_a_real_smtp_server(client, launch_content,
                                                                                         settings):
    # Every drop, however soon after the last mail: no cooldown here (it has its own tests, test_alert_cooldown.py).
    settings.PRICE_ALERT_COOLDOWN_HOURS = 0
    gpu = GPU.objects.get(slug=SLUG)
    assert gpu.price_usd_per_hour > Decimal("2.50")
    with smtp_server() as (port, mailbox), override_settings(**smtp_settings(port)):
        response = ask(client, "es", source=gpu.get_absolute_url("es"))
        assert response.status_code == 303
        assert response["Location"] == url_in("es", "alerts:price_alert_thanks", slug=SLUG)
        assert mailbox.messages == []  # the request only stored the alert and its mail
        run_mail_worker()
        [confirmation] = received(mailbox)
        with translation.override("es"):
            assert confirmation["Subject"] == gettext("Confirm your EverXCloud price alert for the %(gpu)s") % {
                "gpu": gpu.name}
            assert format_usd(Decimal("2.50")) in confirmation.get_content()
        assert confirmation["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        link = confirm_link_of(confirmation.get_content())

        # Opening the link (as mail scanners do) shows a button and confirms nothing.
        page = client.get(link)
        assert page.status_code == 200 and b'method="post"' in page.content
        assert PriceAlert.objects.get().confirmed_at is None
        # No mail for a drop while unconfirmed.
        import_price(SLUG, "2.40")
        run_mail_worker()
        assert len(mailbox.messages) == 1
        import_price(SLUG, "2.90")

        assert client.post(link).status_code == 200
        alert = PriceAlert.objects.get()
        assert alert.confirmed_at is not None and alert.state == PriceAlert.State.ACTIVE
        assert (alert.consent_text_version, alert.consent_language, alert.source_path) == (
            "price-alert-2", "es", gpu.get_absolute_url("es"))

        import_price(SLUG, "2.45")
        run_mail_worker()
        [_confirmation, notice] = received(mailbox)
        assert mailbox.messages[1].rcpt_tos == ["ana@example.com"]
        with translation.override("es"):
            price = format_usd(Decimal("2.45"))
            assert notice["Subject"] == gettext("The %(gpu)s is at %(price)s per GPU-hour") % {
                "gpu": gpu.name, "price": price}
        body = notice.get_content()
        with translation.override("es"):
            assert price in body and format_usd(Decimal("2.50")) in body
        assert absolute_url(gpu.get_absolute_url("es")) in body
        assert notice["Content-Language"] == "es"
        assert notice["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        delete_link = DELETE_LINK.search(body).group(0)
        assert notice["List-Unsubscribe"].strip() == f"<{delete_link}>"
        assert PriceAlert.objects.get().state == PriceAlert.State.RESTING

        # Lower again while resting: no mail.
        import_price(SLUG, "2.20")
        run_mail_worker()
        assert len(mailbox.messages) == 2
        # Back above the target, then below it: one mail again.
        import_price(SLUG, "2.70")
        assert PriceAlert.objects.get().state == PriceAlert.State.ACTIVE
        run_mail_worker()
        assert len(mailbox.messages) == 2
        import_price(SLUG, "2.50")
        run_mail_worker()
        assert len(mailbox.messages) == 3
        with translation.override("es"):
            assert format_usd(Decimal("2.50")) in received(mailbox)[2]["Subject"]

    # One click (RFC 8058) deletes the alert: no cookie, no CSRF token.
    assert client.post(path_of(delete_link), {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert not PriceAlert.objects.exists()
    assert client.get(path_of(delete_link)).status_code == 404


def test_the_admins_price_edit_triggers_the_alert_too(client, launch_content):
    from ..editors import change_form_data

    confirmed_alert(client, "de", target="2,50")
    user = get_user_model().objects.create_superuser("admin", "admin@example.com", "a-long-test-password")
    client.force_login(user)
    gpu = GPU.objects.get(slug=SLUG)
    data = {**change_form_data(gpu), "price_usd_per_hour": "2.10"}
    data["price_updated_at_0"], data["price_updated_at_1"] = timezone.now().strftime("%Y-%m-%d"), "00:00:00"
    response = client.post(reverse("admin:catalog_gpu_change", args=[gpu.pk]), data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    [notice] = OutboxEmail.objects.filter(link_kind="", recipient="ana@example.com")
    with translation.override("de"):
        assert format_usd(Decimal("2.10")) in notice.subject and notice.language == "de"


def test_a_withdrawn_offer_changes_nothing(client, launch_content):
    alert = confirmed_alert(client)
    gpu = GPU.objects.get(slug=SLUG)
    mails = OutboxEmail.objects.count()
    price_changed.send(sender=GPU, changes=[change(gpu, None, gpu.price_usd_per_hour)])
    assert OutboxEmail.objects.count() == mails
    assert PriceAlert.objects.get(pk=alert.pk).state == PriceAlert.State.ACTIVE


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_alert_mail_is_in_the_alerts_language_with_the_new_price_and_the_gpu_page(
        client, launch_content, language):
    confirmed_alert(client, language)
    gpu = GPU.objects.get(slug=SLUG)
    outcome = price_alerts.apply_price_changes([change(gpu, Decimal("2.35"))])
    assert (outcome.notified, outcome.rearmed) == (1, 0)
    notice = OutboxEmail.objects.latest("pk")
    with translation.override(language):
        price, target = format_usd(Decimal("2.35")), format_usd(Decimal("2.50"))
        assert notice.subject == gettext("The %(gpu)s is at %(price)s per GPU-hour") % {"gpu": gpu.name,
                                                                                        "price": price}
        assert gettext("Delete the alert:") in notice.body
    assert price in notice.body and target in notice.body
    assert absolute_url(gpu.get_absolute_url(language)) in notice.body
    assert DELETE_LINK.search(notice.body).group(0).startswith(absolute_url(f"/{language}/"))


def test_confirming_when_the_price_is_already_at_the_target_mails_at_once(client, launch_content):
    from django.core import mail

    gpu = GPU.objects.get(slug=SLUG)
    ask(client, "pt", target=amount_text(gpu.price_usd_per_hour, "pt"))
    run_mail_worker()
    page = client.post(confirm_link_of(mail.outbox[-1].body)).content.decode()
    alert = PriceAlert.objects.get()
    assert alert.state == PriceAlert.State.RESTING and alert.last_notified_at is not None
    assert OutboxEmail.objects.filter(link_kind="").count() == 1
    with translation.override("pt"):
        assert gettext(
            "The best price of the %(gpu)s is already at or below %(target)s per GPU-hour: we are emailing you "
            "now, and again once it has gone back above your target and come down to it again."
        ) % {"gpu": gpu.name, "target": format_usd(gpu.price_usd_per_hour)} in page


def test_only_the_alerts_of_the_changed_gpu_and_at_or_above_the_new_price_mail(client, launch_content):
    low = confirmed_alert(client, "es", target="2,00", email="low@example.com")
    high = confirmed_alert(client, "es", target="2,60", email="high@example.com")
    other = confirmed_alert(client, "es", slug="a100-sxm", target="9,00", email="other@example.com")
    import_price(SLUG, "2.60")
    states = dict(PriceAlert.objects.values_list("pk", "state"))
    assert states[high.pk] == "resting" and states[low.pk] == "active"
    assert states[other.pk] == "resting"  # confirmed while its price was already below its target
    assert OutboxEmail.objects.filter(recipient="low@example.com", link_kind="").count() == 0


def test_a_price_change_costs_the_same_queries_for_one_gpu_or_twenty(client, launch_content):
    gpus = list(GPU.objects.exclude(price_usd_per_hour=None).order_by("pk"))[:10]
    for gpu in gpus:
        for _person in range(3):
            factories.price_alert(gpu=gpu, target_usd_per_hour=gpu.price_usd_per_hour, confirmed_at=timezone.now())

    def queries(changes):
        with CaptureQueriesContext(connection) as captured:
            outcome = price_alerts.apply_price_changes(changes)
        return len(captured), outcome

    operator_record()  # the mails' sender identity, loaded once per content version in each process
    one, outcome = queries([change(gpus[0], gpus[0].price_usd_per_hour - 1)])
    assert outcome.notified == 3
    many, outcome = queries([change(gpu, gpu.price_usd_per_hour - 1) for gpu in gpus[1:]])
    assert outcome.notified == 27
    assert many == one
    rearm, outcome = queries([change(gpu, gpu.price_usd_per_hour + 1) for gpu in gpus])
    assert outcome.rearmed == 30 and rearm <= one


# Asking again, and the bound per mailbox.

def test_asking_again_for_the_same_gpu_changes_the_target_of_an_unconfirmed_alert(client, launch_content):
    assert ask(client, "es", target="2,50").status_code == 303
    # A second request within minutes sends no second mail and changes nothing.
    assert ask(client, "es", target="1,50").status_code == 303
    assert PriceAlert.objects.get().target_usd_per_hour == Decimal("2.50")
    assert OutboxEmail.objects.count() == 1
    OutboxEmail.objects.update(created_at=timezone.now() - timedelta(minutes=16))
    assert ask(client, "pt", email="ANA@example.com", target="1,50").status_code == 303
    alert = PriceAlert.objects.get()
    assert (alert.target_usd_per_hour, alert.language, alert.email) == (Decimal("1.50"), "pt", "ANA@example.com")
    # The mail not sent yet named the old target: a new one replaces it.
    [replacement] = OutboxEmail.objects.all()
    with translation.override("pt"):
        assert format_usd(Decimal("1.50")) in replacement.body and replacement.language == "pt"


def test_a_confirmed_alert_keeps_its_target_until_the_new_one_is_confirmed(client, launch_content):
    from django.core import mail

    alert = confirmed_alert(client, "es", target="2,50")
    OutboxEmail.objects.update(created_at=timezone.now() - timedelta(minutes=16))
    assert ask(client, "es", target="2,00").status_code == 303
    alert.refresh_from_db()
    assert (alert.target_usd_per_hour, alert.requested_target_usd_per_hour) == (Decimal("2.50"), Decimal("2.00"))
    run_mail_worker()
    link = confirm_link_of(mail.outbox[-1].body)
    with translation.override("es"):
        assert format_usd(Decimal("2.00")) in mail.outbox[-1].body
        assert format_usd(Decimal("2.00")) in client.get(link).content.decode()
    # Until then the old target holds.
    price_alerts.apply_price_changes([change(alert.gpu, Decimal("2.40"))])
    assert PriceAlert.objects.get().state == PriceAlert.State.RESTING
    assert client.post(link).status_code == 200
    alert.refresh_from_db()
    assert (alert.target_usd_per_hour, alert.requested_target_usd_per_hour) == (Decimal("2.00"), None)
    assert alert.state == PriceAlert.State.ACTIVE  # 2.40 is above the new target
    assert client.post(link).status_code == 200  # used: says so
    with translation.override("es"):
        assert gettext("Your price alert is already on") in client.get(link).content.decode()


@override_settings(PRICE_ALERTS_PER_ADDRESS=2)
@pytest.mark.parametrize("language", LANGUAGES)
def test_one_alert_too_many_for_a_mailbox_is_refused_by_mail_and_the_page_tells_nothing(
        client, launch_content, language):
    slugs = list(GPU.objects.values_list("slug", flat=True).order_by("slug"))[:3]
    # Only confirmed alerts fill the slots (see the tests of the mail budget).
    confirmed_alert(client, language, slugs[0])
    confirmed_alert(client, language, slugs[1], email="Ana@example.com")
    held = list(PriceAlert.objects.select_related("gpu").order_by("gpu__name"))
    mails_before = OutboxEmail.objects.count()
    response = ask(client, language, slugs[2], target=amount_text("1.25", language))
    # The same answer as for an alert that was set: a stranger learns nothing of what the address holds.
    assert response.status_code == 303
    assert response["Location"] == url_in(language, "alerts:price_alert_thanks", slug=slugs[2])
    assert PriceAlert.objects.count() == 2
    [refusal] = OutboxEmail.objects.order_by("pk")[mails_before:]
    gpu = GPU.objects.get(slug=slugs[2])
    with translation.override(language):
        subject = gettext("Your EverXCloud price alert for the %(gpu)s was not set") % {"gpu": gpu.name}
        limit_text = ngettext(
            "Someone, probably you, asked for an email at this address when the best price of the %(gpu)s is at "
            "or below %(target)s per GPU-hour. This address already has %(held)s price alert, the most one "
            "address can have, so we did not set this one.",
            "Someone, probably you, asked for an email at this address when the best price of the %(gpu)s is at "
            "or below %(target)s per GPU-hour. This address already has %(held)s price alerts, the most one "
            "address can have, so we did not set this one.", 2,
        ) % {"gpu": gpu.name, "target": format_usd(Decimal("1.25")), "held": 2}
        lines = [gettext("%(name)s at %(target)s:") % {"name": alert.gpu.name,
                                                       "target": format_usd(alert.target_usd_per_hour)}
                 + f" {absolute_url(url_in(language, 'alerts:price_alert_delete', key=alert.unsubscribe_key))}"
                 for alert in held]
    assert (refusal.recipient, refusal.subject, refusal.language) == ("ana@example.com", subject, language)
    assert " ".join(refusal.body.split()).count(" ".join(limit_text.split())) == 1
    assert all(f"- {line}" in refusal.body for line in lines)
    # The same GPU again is no new alert.
    assert ask(client, language, slugs[0]).status_code == 303
    assert PriceAlert.objects.count() == 2


# Bad input.

def bad_inputs(language):
    """(form data overrides, the message the form must show) in ``language``, computed in it."""
    separator = decimal_separator(language)
    other = "." if separator == "," else ","
    example = amount_text("8.50", language)
    with translation.override(language):
        malformed = gettext("Enter a price in figures, as in %(example)s.") % {"example": example}
        return [
            ({"email": "not-an-address"}, str(EmailValidator.message)),
            ({"target": ""}, str(Field.default_error_messages["required"])),
            ({"target": "0"}, gettext("Enter a price above zero.")),
            ({"target": f"0{separator}00"}, gettext("Enter a price above zero.")),
            ({"target": "-1"}, malformed),
            ({"target": "abc"}, malformed),
            ({"target": "NaN"}, malformed),
            ({"target": "Infinity"}, malformed),
            ({"target": "1e3"}, malformed),
            ({"target": "9" * 12}, malformed),
            ({"target": "1000000"}, gettext("Enter a price of at most %(max)s.") % {
                "max": format_usd(MAX_PRICE_USD_PER_HOUR)}),
            ({"target": f"2{other}50"}, gettext(
                "Write the cents after “%(separator)s”, without thousands separators, as in %(example)s."
            ) % {"separator": separator, "example": example}),
            ({"target": f"2{separator}505"}, gettext("Enter at most two decimals, as in %(example)s.") % {
                "example": example}),
            ({"consent": None}, gettext("Please tick this box to continue.")),
        ]


def assert_nothing_stored():
    assert not PriceAlert.objects.exists() and not OutboxEmail.objects.exists()


@override_settings(SIGNUP_RATE_LIMIT=1000)
@pytest.mark.parametrize("language", LANGUAGES)
def test_bad_input_gets_a_localized_error_and_stores_nothing(client, launch_content, language):
    for overrides, message in bad_inputs(language):
        response = ask(client, language, **overrides)
        body = response.content.decode()
        assert response.status_code == 400, overrides
        assert message in body, (overrides, message)
        assert Page(body).lang == language
    assert_nothing_stored()


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unknown_gpu_is_a_localized_404(client, launch_content, language):
    for response in (client.get(url_in(language, "alerts:price_alert", slug="no-such-gpu")),
                     ask(client, language, slug="no-such-gpu"),
                     client.get(url_in(language, "alerts:price_alert_thanks", slug="no-such-gpu"))):
        assert response.status_code == 404 and Page(response.content.decode()).lang == language
    assert_nothing_stored()


def test_the_honeypot_gets_the_thank_you_page_and_stores_nothing(client, launch_content):
    response = ask(client, "de", website="https://spam.example")
    assert response.status_code == 303
    assert response["Location"] == url_in("de", "alerts:price_alert_thanks", slug=SLUG)
    assert_nothing_stored()


@override_settings(SIGNUP_RATE_LIMIT=2)
def test_too_many_forms_from_one_connection_get_429(client, launch_content):
    assert ask(client, "pt", email="a@example.com").status_code == 303
    assert ask(client, "pt", email="b@example.com", target="abc").status_code == 400
    response = ask(client, "pt", email="c@example.com")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert PriceAlert.objects.count() == 1


@override_settings(SIGNUP_RATE_LIMIT=1000)
@hypothesis_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=st.text(max_size=30))
def test_no_typed_target_gives_a_server_error(client, launch_content, target):
    response = ask(client, "de", target=target)
    assert response.status_code in (303, 400), target


@pytest.mark.parametrize("path, status", [
    (url_in("es", "alerts:price_alert_confirm", token="x" * 43), 404),
    (url_in("es", "alerts:price_alert_confirm", token="x" * 300), 404),
    (url_in("es", "alerts:price_alert_delete", key=SAMPLE_UUID), 404),
])
def test_unknown_links_say_so(client, launch_content, path, status):
    assert client.get(path).status_code == status and client.post(path).status_code == status


def test_an_expired_link_is_410_and_confirms_nothing(client, launch_content):
    from django.core import mail

    ask(client, "es")
    run_mail_worker()
    link = confirm_link_of(mail.outbox[-1].body)
    PriceAlert.objects.update(confirmation_expires_at=timezone.now() - timedelta(seconds=1))
    assert client.post(link).status_code == 410
    assert PriceAlert.objects.get().confirmed_at is None


# The pages.

def sign_side(written, number):
    """Which side of ``number`` the currency sign of ``written`` (a formatted amount) is on, and the sign."""
    before, found, after = written.partition(number)
    assert found, (written, number)
    return ("before", before.strip("\xa0 ")) if before.strip("\xa0 ") else ("after", after.strip("\xa0 "))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_form_writes_the_currency_and_the_decimals_as_the_visitors_language_does(
        client, launch_content, language):
    gpu = GPU.objects.get(slug=SLUG)
    response = client.get(url_in(language, "alerts:price_alert", slug=SLUG, query={"target": "12.50"}))
    assert response.status_code == 200
    field = parse(response.content).by_id("id_target")
    number = amount_text("12.50", language)
    assert field.attrs["value"] == number and field.attrs["inputmode"] == "decimal"
    with translation.override(language):
        side, sign = sign_side(format_usd(Decimal("12.50")), number)
        today = format_usd(gpu.price_usd_per_hour)
    parts = [child for child in field.parent.children if not isinstance(child, str)]
    signs = [part for part in parts if "amount-sign" in part.classes]
    assert [part.text for part in signs] == [sign]
    assert parts.index(signs[0]) == (0 if side == "before" else parts.index(field) + 1)
    assert today in field.parent.parent.by_id("id_target_helptext").text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_gpu_page_offers_the_alert_with_a_get_form_and_no_token(client, launch_content, language):
    gpu = GPU.objects.get(slug=SLUG)
    body = client.get(gpu.get_absolute_url(language)).content.decode()
    assert "csrfmiddlewaretoken" not in body
    action = url_in(language, "alerts:price_alert", slug=SLUG)
    form = parse(body).find("form", action=action)
    assert form.attrs["method"] == "get"
    with translation.override(language):
        assert " ".join(format_usd(gpu.price_usd_per_hour).split()) in form.squashed_text
    fields = form_fields(body, action=action)
    assert fields == {"from": gpu.get_absolute_url(language), "target": ""}
    # Sent with a target typed in the visitor's format, the form page shows it and records the GPU page.
    typed = amount_text("2.50", language)
    page = client.get(action, {"from": fields["from"], "target": typed})
    assert page.status_code == 200
    prefilled = form_fields(page.content.decode(), action=action)
    assert prefilled["target"] == typed and prefilled["source"] == gpu.get_absolute_url(language)


# Personal data: erasure, export, retention, the privacy policy.

def test_erasure_deletes_the_alerts_and_their_mails(client, launch_content):
    confirmed_alert(client, "es")
    ask(client, "es", slug="a100-sxm", email="ANA@example.com")
    assert PriceAlert.objects.count() == 2
    erase_person("ana@EXAMPLE.com")
    assert not PriceAlert.objects.exists() and not OutboxEmail.objects.exists()


def test_the_admin_exports_a_persons_alerts_as_csv(client, launch_content):
    confirmed_alert(client, "es", source=GPU.objects.get(slug=SLUG).get_absolute_url("es"))
    user = get_user_model().objects.create_superuser("admin", "admin@example.com", "a-long-test-password")
    client.force_login(user)
    changelist = reverse("admin:alerts_pricealert_changelist")
    assert "ana@example.com" in client.get(changelist, {"q": "ANA@example.com"}).content.decode()
    response = client.post(changelist, {
        "action": "export_csv", "_selected_action": list(PriceAlert.objects.values_list("pk", flat=True)),
    })
    assert response["Content-Type"].startswith("text/csv")
    [row] = csv.DictReader(io.StringIO(response.content.decode()))
    assert (row["email"], row["gpu"], row["target_usd_per_hour"], row["state"]) == (
        "ana@example.com", SLUG, "2.50", "active")
    assert row["confirmed_at"] and row["consent_text_version"] == "price-alert-2"
    assert row["privacy_policy_version"] == LegalPage.objects.get(key="privacy").version


def test_unconfirmed_alerts_are_purged_like_unconfirmed_signups(client, launch_content):
    confirmed_alert(client, "es", email="kept@example.com")
    ask(client, "es", email="pending@example.com")
    run_mail_worker()
    later = timezone.now() + timedelta(days=31)
    assert purge_unconfirmed(now=timezone.now() + timedelta(days=29)).alerts == 0
    purged = purge_unconfirmed(now=later)
    assert purged.alerts == 1
    assert list(PriceAlert.objects.values_list("email", flat=True)) == ["kept@example.com"]
    assert not OutboxEmail.objects.filter(recipient="pending@example.com").exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_privacy_policy_tells_about_price_alerts(client, launch_content, language):
    policy = LegalPage.objects.get(key="privacy")
    body = getattr(policy, f"body_{language}")
    with translation.override(language):
        assert gettext("Price alert").lower() in body.lower()
    assert ask(client, language).status_code == 303
    assert PriceAlert.objects.get().privacy_policy_version == policy.version


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_secrets_of_the_alert_links_stay_out_of_the_logs(language):
    from optin.tokens import new_token
    from serving.access_log import redacted_path
    from signups.log_redaction import secret_path_prefixes

    token, key = new_token(), SAMPLE_UUID
    confirm = url_in(language, "alerts:price_alert_confirm", token=token)
    delete = url_in(language, "alerts:price_alert_delete", key=key)
    assert redacted_path(confirm, secret_path_prefixes()) == confirm.replace(token, "…")
    assert redacted_path(delete, secret_path_prefixes()) == delete.replace(key, "…")
    form = url_in(language, "alerts:price_alert", slug=SLUG)
    assert redacted_path(form, secret_path_prefixes()) == form


def test_a_gpu_without_a_live_offer_takes_alerts_that_mail_once_an_offer_reaches_them(client, launch_content):
    gpu = GPU.objects.get(slug=SLUG)
    gpu.price_usd_per_hour = None
    gpu.save()
    action = url_in("es", "alerts:price_alert", slug=SLUG)
    panel = parse(client.get(gpu.get_absolute_url("es")).content).find("form", action=action)
    with translation.override("es"):
        assert gettext("No live offer for this GPU right now.") in panel.squashed_text
    alert = confirmed_alert(client, "es")
    assert alert.state == PriceAlert.State.ACTIVE and alert.last_notified_at is None
    import_price(SLUG, "2.40")
    assert OutboxEmail.objects.filter(recipient="ana@example.com", link_kind="").count() == 1


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_calculators_recommended_configuration_links_to_its_gpus_alert(client, launch_content, language):
    """Only the recommended row (the cheapest configuration that holds the model) carries the alert link, beside
    the signup action for that GPU and count."""
    body = client.get(url_in(language, "estimator:calculator", {"size": "70", "method": "full_adam"})).content
    document = parse(body)
    links = {link.attrs["href"] for link in document.find_all("a", "row-alert-link")}
    priced = [gpu for gpu in GPU.objects.exclude(price_usd_per_hour=None)
              if sizing.fewest_gpus(sizing.required_memory_gb(70, 16), gpu.memory_gb) is not None]
    count = {gpu.slug: sizing.fewest_gpus(sizing.required_memory_gb(70, 16), gpu.memory_gb) for gpu in priced}
    cheapest = min(priced, key=lambda gpu: (count[gpu.slug] * gpu.price_usd_per_hour, count[gpu.slug],
                                            -gpu.memory_gb, gpu.name))
    assert links == {url_in(language, "alerts:price_alert", slug=cheapest.slug)}
    action = document.find("div", class_="recommended").find("a", class_="signup-action")
    assert f"gpu={cheapest.slug}" in action.attrs["href"] and f"count={count[cheapest.slug]}" in action.attrs["href"]
    # A target in a link (the GPU page's field sends one) arrives in the visitor's format.
    page = client.get(url_in(language, "alerts:price_alert", {"target": f"{cheapest.price_usd_per_hour:.2f}"},
                             slug=cheapest.slug))
    assert parse(page.content).by_id("id_target").attrs["value"] == amount_text(cheapest.price_usd_per_hour,
                                                                                 language)


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_the_alert_form_answers_methods_like_the_other_forms(client, launch_content, method):
    """405 with the localized page and the same Allow as the signup form: a PUT is not taken as a POST."""
    alert_form = url_in("es", "alerts:price_alert", slug="h100-sxm")
    response = getattr(client, method)(alert_form, "email=a@example.com&target=1",
                                       content_type="application/x-www-form-urlencoded")
    signup_form = getattr(client, method)(url_in("es", "signups:signup"))
    assert response.status_code == signup_form.status_code == 405
    assert set(response["Allow"].split(", ")) == set(signup_form["Allow"].split(", ")) == {"GET", "HEAD", "POST"}
    assert not PriceAlert.objects.exists()
    options, signup_options = client.options(alert_form), client.options(url_in("es", "signups:signup"))
    assert (options.status_code, options["Allow"]) == (signup_options.status_code, signup_options["Allow"])
