"""A legal page's text cannot change without a new version, and each version's text is kept and shown beside the
consent records that name it (issue 48): so a consent record shows what was agreed to."""
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import translation

from company.models import LegalPage, LegalPageVersion
from optin.models import ConsentRecord

from ..localized_urls import url_in
from ..signup_helpers import run_mail_worker, signup_data


def admin_client(client):
    client.force_login(get_user_model().objects.create_superuser("operator", "op@example.com", "a-long-password-1"))
    return client


def test_a_text_changed_under_the_same_version_is_refused(launch_content):
    privacy = LegalPage.objects.get(key="privacy")
    before = privacy.body_de
    privacy.body_de += "\n\nEin neuer Absatz."
    with pytest.raises(ValidationError) as refused:
        privacy.save()
    assert "version" in refused.value.message_dict
    assert LegalPage.objects.get(key="privacy").body_de == before
    # Whitespace around the text (a form strips it) and line endings are no change.
    privacy.body_de = "\r\n".join(before.strip().split("\n"))
    privacy.save()


def test_the_admin_refuses_it_in_the_editors_language(client, launch_content):
    from ..editors_legal import legal_page_form_data

    privacy = LegalPage.objects.get(key="privacy")
    data = legal_page_form_data(privacy)
    data["body_es"] += "\n\nUn párrafo nuevo."
    response = admin_client(client).post(reverse("admin:company_legalpage_change", args=[privacy.pk]), data,
                                         HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200
    with translation.override("es"):
        from django.utils.translation import gettext
        assert gettext("The text changed (%(languages)s): give this page a new version. Consents recorded the "
                       "version they agreed to, and each version's text is kept.") % {"languages": "es"} in (
            response.content.decode().replace("&#x27;", "'"))
    assert "Un párrafo nuevo" not in LegalPage.objects.get(key="privacy").body_es


def test_each_versions_text_is_kept_and_shown_beside_the_consents_that_name_it(client, launch_content):
    client.post(url_in("de", "signups:signup"), signup_data(email="early@example.com", language="de"))
    run_mail_worker()
    privacy = LegalPage.objects.get(key="privacy")
    first_version, first_text = privacy.version, privacy.body_de
    privacy.body_de = first_text + "\n\nEin neuer Absatz."
    privacy.version, privacy.updated = "99.0", date(2027, 1, 1)
    privacy.save()
    client.post(url_in("de", "signups:signup"), signup_data(email="late@example.com", language="de"))
    run_mail_worker()
    kept = {version.version: version.texts["de"]["body"] for version in LegalPageVersion.objects.filter(key="privacy")}
    assert kept == {first_version: first_text, "99.0": first_text + "\n\nEin neuer Absatz."}
    assert sorted(ConsentRecord.objects.values_list("privacy_policy_version", flat=True)) == sorted(
        [first_version, "99.0"])
    admin = admin_client(client)
    listing = admin.get(reverse("admin:optin_consentrecord_changelist")).content.decode()
    for version in LegalPageVersion.objects.filter(key="privacy"):
        link = reverse("admin:company_legalpageversion_change", args=[version.pk])
        assert f'href="{link}"' in listing
        page = admin.get(link).content.decode()
        assert version.texts["de"]["body"].splitlines()[0][:30] in page.replace("&#x27;", "'")


def test_a_translation_filled_in_later_is_kept_under_the_same_version(launch_content):
    notice = LegalPage.objects.get(key="legal-notice")
    LegalPageVersion.objects.filter(key="legal-notice").update(texts={"de": {"title": "t", "body": notice.body_de}})
    notice.save()  # the other languages were empty in the kept text: filled in, no new version needed
    kept = LegalPageVersion.objects.get(key="legal-notice", version=notice.version)
    assert kept.texts["es"]["body"] == notice.body_es and kept.texts["de"]["body"] == notice.body_de


def test_the_migration_keeps_the_current_texts(migrations_rolled_back):
    others = [(app, name) for app, name in MigrationExecutor(connection).loader.graph.leaf_nodes() if app != "company"]
    old = migrations_rolled_back([*others, ("company", "0002_legal_pages_from_signups")])
    old.get_model("company", "LegalPage").objects.update_or_create(key="privacy", defaults={
        "title": "Datenschutz", "title_de": "Datenschutz", "body": "Alt", "body_de": "Alter Text",
        "version": "privacy-7", "updated": date(2026, 11, 1)})
    new = migrations_rolled_back([*others, ("company", "0003_legal_page_versions")])
    kept = new.get_model("company", "LegalPageVersion").objects.get(key="privacy")
    assert (kept.version, kept.texts["de"]["body"], kept.updated) == ("privacy-7", "Alter Text", date(2026, 11, 1))
