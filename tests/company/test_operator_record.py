"""The operator record (company/): one place holds the company behind the site, and every legal page, every
mail's signature and the home page's Organization are rendered from it; while a detail is missing the legal
pages are a visible draft and `check --deploy` names it. Values are fictional (tests/operator_record.py);
the expectations are written out here, not derived from the code under test."""
import io
import json
import re
import tomllib
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.utils import translation
from django.utils.translation import gettext

from company.completeness import missing_details
from company.legal_fields import NOT_APPLICABLE, legal_fields
from company.legal_text import render_legal_text
from company.models import OperatorRecord, Recipient
from optin.models import OutboxEmail

from ..html import Head, Page
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..operator_record import FICTIONAL_RECORD, fill_operator_record, operator_record_toml
from ..signup_helpers import provider_data, run_mail_worker, signup_data

CONTENT_DIR = Path(__file__).resolve().parents[2] / "company" / "content"
COMPANY = "Beispiel Rechenzentrum GmbH (fictional)"
COUNTRIES = {
    "es": {"DE": "Alemania", "IE": "Irlanda", "US": "Estados Unidos", "FR": "Francia"},
    "pt": {"DE": "Alemanha", "IE": "Irlanda", "US": "Estados Unidos", "FR": "França"},
    "de": {"DE": "Deutschland", "IE": "Irland", "US": "Vereinigte Staaten", "FR": "Frankreich"},
    "en": {"DE": "Germany", "IE": "Ireland", "US": "United States", "FR": "France"},
}
# 36, 18 and 24 months, 35 days.
PERIODS = {
    "es": ["3 años", "18 meses", "2 años", "35 días"],
    "pt": ["3 anos", "18 meses", "2 anos", "35 dias"],
    "de": ["3 Jahre", "18 Monate", "2 Jahre", "35 Tage"],
    "en": ["3 years", "18 months", "2 years", "35 days"],
}
SUPERVISORY_AUTHORITY_HEADINGS = {
    "es": "Autoridad de supervisión", "pt": "Autoridade de supervisão", "de": "Aufsichtsbehörde",
    "en": "Supervisory authority",
}
# A bracketed placeholder in capitals, such as "[COMPANY LEGAL NAME]" or "[UST-IDNR.]".
BRACKETED_PLACEHOLDER = re.compile(r"\[[A-ZÀ-Ý][A-ZÀ-Ý0-9 ,.()§/:'-]+\]")


def legal_text(client, language, view_name):
    body = client.get(url_in(language, view_name)).content.decode()
    return body, Page(body).document.find("div", "legal-text").squashed_text


def not_filled_marker(language):
    with translation.override(language):
        return gettext("not yet filled: %(detail)s").split(":")[0]


def draft_banner(language):
    with translation.override(language):
        return gettext("Draft:")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_filled_record_shows_on_the_privacy_policy(client, launch_content, language):
    fill_operator_record()
    body, text = legal_text(client, language, "company:privacy")
    countries = COUNTRIES[language]
    for value in (COMPANY, f"Musterstraße 1 (fictional), 99999 Nirgendwo, {countries['DE']}",
                  "privacy@everx.example", "Datenschutz Beispiel (fictional), dpo@everx.example",
                  "Beispiel-Landesbehörde für Datenschutz (fictional)", *PERIODS[language],
                  f"Beispiel Hosting AG (fictional) ({countries['DE']})",
                  f"Example Mail Relay Ltd (fictional) ({countries['IE']})",
                  f"Example Edge Inc. (fictional) ({countries['US']})",
                  f"Example Logs SAS (fictional) ({countries['FR']})"):
        assert value in text, (language, value)
    # The EU representative does not apply: its line is left out.
    assert "27" not in text.split("dpo@everx.example")[1].split(".")[1]
    assert 'href="mailto:privacy@everx.example"' in body
    assert_published(body, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_filled_record_shows_on_the_legal_notice(client, launch_content, language):
    fill_operator_record()
    body, text = legal_text(client, language, "company:legal_notice")
    for value in (COMPANY, "contact@everx.example", "+49 000 0000000", "Amtsgericht Beispielstadt (fictional)",
                  "HRB 000000", "DE000000000", "Erika Mustermann (fictional), Musterstraße 1, 99999 Nirgendwo"):
        assert value in text, (language, value)
    # One line each: the address's parts, the representatives.
    assert f"Musterstraße 1 (fictional)<br>99999 Nirgendwo<br>{COUNTRIES[language]['DE']}" in body
    assert "Erika Mustermann (fictional)<br>Max Mustermann (fictional)" in body
    # No CNPJ and no authorisation: the line and the section are left out.
    assert "CNPJ" not in text
    headings = [h2.squashed_text for h2 in Page(body).document.find("div", "legal-text").find_all("h2")]
    assert SUPERVISORY_AUTHORITY_HEADINGS[language] not in headings
    with translation.override(language):
        assert gettext("We are neither willing nor obliged to take part in dispute resolution proceedings "
                       "before a consumer arbitration board.") in text
    assert_published(body, language)


def assert_published(body, language):
    assert draft_banner(language) not in body and not_filled_marker(language) not in body
    assert not BRACKETED_PLACEHOLDER.search(body)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("view_name", ["company:privacy", "company:legal_notice"])
def test_an_empty_record_makes_each_legal_page_a_draft_naming_what_is_missing(
        client, launch_content, language, view_name):
    body, text = legal_text(client, language, view_name)
    assert draft_banner(language) in Page(body).document.find("p", "draft-banner").squashed_text
    with translation.override(language):
        company_name = str(OperatorRecord._meta.get_field("legal_name").verbose_name)
    assert f"{not_filled_marker(language)}: {company_name}" in text
    assert not BRACKETED_PLACEHOLDER.search(body)


def test_a_detail_that_applies_is_shown_and_needed(client, launch_content):
    fill_operator_record(cnpj_applies="applies", cnpj="00.000.000/0000-00",
                         licensing_authority_applies="applies", licensing_authority="")
    assert [detail.field for detail in missing_details(OperatorRecord.current())] == ["licensing_authority"]
    body, text = legal_text(client, "pt", "company:legal_notice")
    assert "CNPJ (Brasil): 00.000.000/0000-00" in text
    assert draft_banner("pt") in body


def test_the_deploy_check_names_each_missing_detail(launch_content):
    with pytest.raises(SystemCheckError) as raised:
        call_command("check", deploy=True, tags=["company"], stdout=io.StringIO(), stderr=io.StringIO())
    message = str(raised.value)
    for field in ("legal_name", "street", "vat_id", "privacy_email", "dpo_applies", "dispute_resolution",
                  "consent_evidence_retention_months", "backup_retention_days", "recipients:hosting",
                  "recipients:email", "recipients:cdn", "recipients:logs"):
        assert f"({field}) is empty" in message, field
    fill_operator_record()
    call_command("check", deploy=True, tags=["company"], stdout=io.StringIO(), stderr=io.StringIO())
    # A recipient outside the EEA needs a transfer safeguard.
    Recipient.objects.filter(role="cdn").update(safeguard="")
    with pytest.raises(SystemCheckError, match=r"recipients:cdn:safeguard"):
        call_command("check", deploy=True, tags=["company"], stdout=io.StringIO(), stderr=io.StringIO())


def test_the_deploy_check_is_only_a_deploy_check(launch_content):
    call_command("check", stdout=io.StringIO(), stderr=io.StringIO())


def test_mails_carry_the_sender_identity_in_their_language(client, launch_content):
    fill_operator_record()
    client.post(url_in("es", "signups:signup"), signup_data(email="ana@example.com", language="es"))
    client.post(url_in("de", "providers:application"), provider_data())
    client.post(url_in("pt", "alerts:price_alert", slug="h100-sxm"),
                {"email": "rui@example.com", "target": "2,50", "consent": "on"})
    run_mail_worker()
    mails = list(OutboxEmail.objects.all())
    assert len(mails) == 3, [mail.subject for mail in mails]
    for mail in mails:
        signature = mail.body.rstrip().splitlines()[-3:]
        assert signature[0] == f"EverXCloud · {COMPANY}"
        assert signature[1].startswith("Musterstraße 1 (fictional), 99999 Nirgendwo, ")
        assert signature[1].rsplit(", ", 1)[1] in {"Alemania", "Deutschland", "Alemanha"}
        assert signature[2] == "contact@everx.example"


def test_the_home_pages_organization_names_the_company(client, launch_content):
    def organization():
        body = client.get("/de/").content.decode()
        return next(item for item in map(json.loads, Head(body).json_ld) if item["@type"] == "Organization")

    assert {"legalName", "address", "email", "telephone", "vatID"}.isdisjoint(organization())
    fill_operator_record()
    found = organization()
    assert found["name"] == "EverXCloud" and found["legalName"] == COMPANY
    assert found["address"] == {"@type": "PostalAddress", "streetAddress": "Musterstraße 1 (fictional)",
                                "postalCode": "99999", "addressLocality": "Nirgendwo", "addressCountry": "DE"}
    assert (found["email"], found["telephone"], found["vatID"]) == (
        "contact@everx.example", "+49 000 0000000", "DE000000000")


def test_a_change_to_the_record_shows_at_once_in_the_cached_page(client, launch_content):
    fill_operator_record()
    path = url_in("en", "company:legal_notice")
    assert "+49 000 0000000" in client.get(path).content.decode()
    record = OperatorRecord.current()
    record.phone = "+49 000 1111111"
    record.save()
    assert "+49 000 1111111" in client.get(path).content.decode()


def test_operators_fill_the_record_from_a_file(launch_content, tmp_path):
    path = tmp_path / "operator-record.toml"
    path.write_text(operator_record_toml(), encoding="utf-8")
    out = io.StringIO()
    call_command("load_operator_record", str(path), stdout=out)
    assert "complete" in out.getvalue()
    record = OperatorRecord.current()
    assert missing_details(record) == []
    assert record.legal_name == FICTIONAL_RECORD["legal_name"] and record.recipients.count() == 4


def test_the_example_file_loads_and_leaves_everything_missing(launch_content):
    example = Path(__file__).resolve().parents[2] / "company" / "operator-record.example.toml"
    out = io.StringIO()
    call_command("load_operator_record", str(example), stdout=out)
    assert "Still missing" in out.getvalue() and "(legal_name)" in out.getvalue()


def test_every_field_the_legal_texts_name_is_one_the_record_fills(db):
    known = set(legal_fields(OperatorRecord()))
    for language in LANGUAGES:
        with open(CONTENT_DIR / language / "legal-pages.toml", "rb") as handle:
            pages = tomllib.load(handle)
        for page in pages.values():
            named = set(re.findall(r"\{([a-z_]+)\}", page["body"]))
            assert named and named <= known, (language, named - known)
            assert not BRACKETED_PLACEHOLDER.search(page["body"])


def test_the_text_format_fills_fields_drops_what_does_not_apply_and_escapes_values():
    fields = {"name": "A & B <GmbH>", "cnpj": NOT_APPLICABLE, "authority": NOT_APPLICABLE,
              "list": ["one", "two"], "mail": "x@everx.example"}
    html = render_legal_text(
        "Provider: {name}\nCNPJ: {cnpj}\nWrite to {mail}.\n\n## Authority\n\n{authority}\n\n## Recipients\n\n{list}",
        fields=fields)
    assert html == (
        "<p>Provider: A &amp; B &lt;GmbH&gt;<br>"
        'Write to <a href="mailto:x@everx.example">x@everx.example</a>.</p>\n'
        "<h2>Recipients</h2>\n<ul><li>one</li><li>two</li></ul>"
    )


def test_operators_fill_the_one_record_in_the_admin(client, launch_content):
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    client.force_login(get_user_model().objects.create_superuser("operator", "op@example.com", "a-long-password-1"))
    response = client.get(reverse("admin:company_operatorrecord_changelist"))
    change = reverse("admin:company_operatorrecord_change", args=[1])
    assert response.status_code == 302 and response["Location"] == change
    page = client.get(change).content.decode()
    assert 'name="legal_name"' in page and 'name="recipients-TOTAL_FORMS"' in page
    assert client.get(reverse("admin:company_operatorrecord_add")).status_code == 403
    assert client.get(reverse("admin:company_operatorrecord_delete", args=[1])).status_code == 403
