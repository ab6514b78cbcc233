"""The signup action beside a price (``{% gpu_signup_action %}``, registered by ``signups``) and what it brings
to the signup: the GPU preselected and shown, the page and GPU recorded on the signup (hidden inputs, nothing
typed), anything unknown dropped and never an error; the business confirmation, required and stored; the
form's own error markup; the demand report's signups per page, GPU and language; and the migration that adds
the fields to a filled database."""
import csv
import io
import re
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from catalog.models import GPU
from demand import figures
from signups.models import Signup
from signups.signup_actions import SIGNUP_VIA_PAGES

from .. import factories
from ..html import Page
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..signup_helpers import run_mail_worker, signup_data

# The one label of the primary action, in each language (from the deck's call to action).
PRIMARY_LABEL = {"en": "Create your account", "es": "Cree su cuenta", "pt": "Crie a sua conta", "de": "Konto erstellen"}


BUSINESS_ONLY = ("For business customers only: at launch the market sells to companies and professionals, not to "
                 "consumers.")


def text_of(page):
    return re.sub(r"\s+", " ", "".join(page.text))


def render(text, **context):
    return Template("{% load gpu_page_panels %}" + text).render(Context(context))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tag_links_to_the_signup_with_the_gpu_and_page_and_the_one_label(launch_content, language):
    gpu = GPU.objects.get(slug="h100-sxm")
    with translation.override(language):
        html = render('{% gpu_signup_action gpu via="catalogue" %}', gpu=gpu)
        with_count = render('{% gpu_signup_action gpu via="calculator" count=8 style="button" %}', gpu=gpu)
    [link] = Page(html).document.find_all("a")
    url = urlsplit(link.attrs["href"])
    assert url.path == url_in(language, "signups:signup")
    assert parse_qs(url.query) == {"gpu": ["h100-sxm"], "via": ["catalogue"]}
    assert link.squashed_text == PRIMARY_LABEL[language]
    [button] = Page(with_count).document.find_all("a")
    assert parse_qs(urlsplit(button.attrs["href"]).query) == {"gpu": ["h100-sxm"], "via": ["calculator"],
                                                              "count": ["8"]}
    assert "cta-button" in button.attrs["class"]


def test_the_tag_refuses_a_page_key_it_does_not_know(launch_content):
    gpu = GPU.objects.get(slug="h100-sxm")
    with pytest.raises(ValueError, match="SIGNUP_VIA_PAGES"):
        render('{% gpu_signup_action gpu via="somewhere" %}', gpu=gpu)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_gpu_page_has_the_signup_action_the_alert_and_the_business_statement(client, launch_content, language):
    gpu = GPU.objects.get(slug="h100-sxm")
    body = client.get(gpu.get_absolute_url(language)).content.decode()
    block = Page(body).document.find_all("section", class_="live-price")[0]
    links = {link.squashed_text: link.attrs["href"] for link in block.find_all("a")}
    assert links[PRIMARY_LABEL[language]] == f"{url_in(language, 'signups:signup')}?gpu=h100-sxm&via=gpu-page"
    with translation.override(language):
        assert links[gettext("Set a price alert")] == "#price-alert-heading"
        assert gettext(BUSINESS_ONLY) in block.squashed_text
    assert 'id="price-alert-heading"' in body
    # The same bytes for every visitor: nothing in the action depends on who asks.
    other = client.__class__()
    other.cookies["sessionid"] = "someone-else"
    assert other.get(gpu.get_absolute_url(language)).content.decode() == body


def test_a_preselected_gpu_is_shown_and_changeable_and_recorded(client, launch_content):
    form_path = url_in("es", "signups:signup")
    response = client.get(form_path, {"gpu": "h100-sxm", "via": "calculator", "count": "8"})
    assert response.status_code == 200
    page = Page(response.content.decode())
    with translation.override("es"):
        assert gettext("You chose %(number)s × %(gpu)s.") % {"number": 8, "gpu": "H100 SXM"} in text_of(page)
    select = page.document.find_all("select", name="gpu")[0]
    selected = [option.attrs["value"] for option in select.find_all("option") if "selected" in option.attrs]
    assert selected == ["h100-sxm"]
    hidden = {field.attrs["name"]: field.attrs.get("value") for field in page.document.find_all("input")
              if field.attrs.get("type") == "hidden"}
    assert hidden["via"] == "calculator" and hidden["count"] == "8"

    response = client.post(form_path, signup_data(gpu="a100-sxm", via="calculator", count="8"))
    assert response.status_code == 303
    run_mail_worker()
    signup = Signup.objects.get()
    assert (signup.gpu.slug, signup.gpu_count, signup.via, signup.for_business) == ("a100-sxm", 8, "calculator", True)


def test_without_a_gpu_the_form_has_no_extra_field(client, launch_content):
    page = Page(client.get(url_in("en", "signups:signup")).content.decode())
    assert page.document.find_all("select", name="gpu") == []
    assert "You chose" not in text_of(page)
    client.post(url_in("en", "signups:signup"), signup_data())
    run_mail_worker()
    signup = Signup.objects.get()
    assert (signup.gpu, signup.gpu_count, signup.via) == (None, None, "")


@pytest.mark.parametrize("query", [
    {"gpu": "no-such-gpu", "via": "catalogue", "count": "8"},
    {"gpu": "h100-sxm", "via": "elsewhere", "count": "-3"},
    {"gpu": "h100-sxm", "count": "99999999999999999999"},
    {"gpu": "x" * 5000, "via": "<script>", "count": "８"},
    {"count": "4"},
])
def test_unknown_values_are_dropped_never_an_error(client, launch_content, query):
    form_path = url_in("en", "signups:signup")
    response = client.get(form_path, query)
    assert response.status_code == 200
    body = response.content.decode()
    assert "<script>" not in body and "no-such-gpu" not in body
    response = client.post(form_path, signup_data(**query))
    assert response.status_code == 303
    run_mail_worker()
    signup = Signup.objects.get()
    known_gpu = query.get("gpu") == "h100-sxm"
    assert signup.gpu == (GPU.objects.get(slug="h100-sxm") if known_gpu else None)
    assert signup.via == (query.get("via") if query.get("via") in SIGNUP_VIA_PAGES else "")
    assert signup.gpu_count is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_business_confirmation_is_required_with_errors_in_the_forms_own_markup(client, launch_content, language):
    response = client.post(url_in(language, "signups:signup"), signup_data(business=None, consent=None))
    assert response.status_code == 400
    body = response.content.decode()
    assert "errorlist" not in body
    document = Page(body).document
    for name in ("business", "consent"):
        box = document.by_id(f"id_{name}")
        assert f"id_{name}_error" in box.attrs["aria-describedby"].split()
        assert document.by_id(f"id_{name}_error").squashed_text
        # The box and its label share one row, before the error.
        row = document.find_all("span", class_="checkbox-row")
        assert any(r.find_all("input", name=name) and r.find_all("label") for r in row)
    with translation.override(language):
        assert gettext("I am signing up for a business.") in text_of(Page(body))
    assert not Signup.objects.exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_signup_page_says_what_is_kept_now_and_what_happens_at_launch(client, launch_content, language):
    page = Page(client.get(url_in(language, "signups:signup")).content.decode())
    button = page.document.find_all("form", class_="public-form")[0].find_all("button")[0]
    assert button.squashed_text == PRIMARY_LABEL[language]
    with translation.override(language):
        assert gettext(BUSINESS_ONLY) in text_of(page)
        assert page.h1 == [gettext("Create your EverXCloud account")]


def test_the_header_and_calls_to_action_use_the_one_label(client, launch_content):
    for language in LANGUAGES:
        page = Page(client.get(url_in(language, "home")).content.decode())
        signup_path = url_in(language, "signups:signup")
        labels = {link.squashed_text for link in page.document.find_all("a")
                  if link.attrs.get("href", "").startswith(signup_path)}
        assert labels == {PRIMARY_LABEL[language]}, language


def test_the_demand_report_counts_signups_per_page_gpu_and_language(client, launch_content, django_user_model):
    h100, a100 = GPU.objects.get(slug="h100-sxm"), GPU.objects.get(slug="a100-sxm")
    moment = datetime(2026, 11, 20, tzinfo=UTC)
    rows = [("gpu-page", h100, "de", True), ("gpu-page", h100, "de", False), ("catalogue", h100, "es", True),
            ("calculator", a100, "de", False), ("", None, "en", True)]
    for via, gpu, language, confirmed in rows:
        factories.signup(language=language, via=via, gpu=gpu, for_business=True, signed_up_at=moment,
                         confirmed_at=moment + timedelta(minutes=1) if confirmed else None)
    expected = {}
    for via, gpu, language, confirmed in rows:
        key = (via, gpu.slug if gpu else "", language)
        done, total = expected.get(key, (0, 0))
        expected[key] = (done + confirmed, total + 1)
    shown = {(row.via, row.gpu_slug, row.language): (row.confirmed, row.total) for row in figures.demand().origin_rows}
    assert shown == expected
    client.force_login(django_user_model.objects.create_superuser("founder", "f@example.com", "a-long-pass-1"))
    main = Page(client.get(reverse("admin:signups_demand")).content.decode()).document.by_id("content-main")
    origin = main.find_all("table")[-1]
    texts = [[cell.visible_text.strip() for cell in row.cells()] for row in origin.rows()]
    assert ["GPU page", "H100 SXM", "German", "1 / 2"] in texts
    assert "@" not in main.text
    csv_text = client.get(reverse("admin:signups_demand_csv")).content.decode()
    assert "signups_by_origin,total,via=gpu-page gpu=h100-sxm language=de,all,2" in csv_text


def test_the_migration_adds_the_fields_to_a_filled_database(migrations_rolled_back):
    before, after = [("signups", "0006_price_alerts")], [("signups", "0007_signup_origin_and_business")]
    old = migrations_rolled_back(before)
    workload = None
    old.get_model("signups", "Signup").objects.create(
        email="old@example.com", currency="USD", language="pt", workload=workload,
        signed_up_at=datetime(2026, 10, 1, tzinfo=UTC), consent_text_version="renter-1", consent_language="pt",
        source_path="/pt/",
    )
    old.get_model("signups", "WaitlistRequest").objects.create(
        email="waiting@example.com", currency="EUR", language="es", consent_text_version="renter-1",
        consent_language="es", source_path="/es/",
    )
    new = migrations_rolled_back(after)
    signup = new.get_model("signups", "Signup").objects.get()
    assert (signup.email, signup.gpu_id, signup.gpu_count, signup.via, signup.for_business) == (
        "old@example.com", None, None, "", False)
    waiting = new.get_model("signups", "WaitlistRequest").objects.get()
    assert (waiting.via, waiting.for_business) == ("", False)


def test_the_signups_export_carries_the_gpu_page_and_business_confirmation(client, launch_content, django_user_model):
    h100 = GPU.objects.get(slug="h100-sxm")
    signup = factories.signup(gpu=h100, gpu_count=8, via="calculator", for_business=True)
    client.force_login(django_user_model.objects.create_superuser("founder", "f@example.com", "a-long-pass-1"))
    response = client.post(reverse("admin:signups_signup_changelist"),
                           {"action": "export_csv", "_selected_action": [signup.pk]})
    [row] = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert (row["gpu"], row["gpu_count"], row["via"], row["for_business"]) == ("h100-sxm", "8", "calculator", "True")
