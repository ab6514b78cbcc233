"""The privacy policy and the legal notice: loaded from the data files, in four languages, editable in the
admin, linked from every footer and every form, listed in the sitemap, served from the page cache."""
import io
import re
import tomllib
from pathlib import Path

import pytest
from babel.dates import format_date
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.utils import translation
from django.utils.translation import gettext

from caching.content_version import CONTENT_VERSION_KEY, content_version
from company.legal_text import render_legal_text
from company.loading import load_legal_pages
from company.models import LegalPage
from core.formatting import REGIONAL_LOCALES
from optin.models import OutboxEmail
from signups.models import Signup
from workloads.models import Workload

from ..html import Page
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..signup_helpers import run_mail_worker, signup_data

CONTENT_DIR = Path(__file__).resolve().parents[2] / "company" / "content"
PAGES = {"privacy": "company:privacy", "legal-notice": "company:legal_notice"}


def file_text(language, key):
    with open(CONTENT_DIR / language / "legal-pages.toml", "rb") as handle:
        return tomllib.load(handle)[key]


def file_structure(key):
    with open(CONTENT_DIR / "legal-pages.toml", "rb") as handle:
        return tomllib.load(handle)[key]


# What GDPR Art. 13 (and Art. 21(4), Art. 7(3)) requires the privacy policy to tell, one section each: its
# heading in each language, and a fact its section must state whatever the language (an article number, a
# period, a name). Removing a section, or emptying it, fails the test below.
PRIVACY_SECTIONS = {
    "controller, DPO and EU representative (13(1)(a)-(b), Art. 27)": (
        {"es": "Responsable del tratamiento", "pt": "Responsável pelo tratamento", "de": "Verantwortlicher",
         "en": "Who is responsible"}, "27"),
    "right to object (Art. 21(4))": (
        {"es": "Su derecho de oposición", "pt": "O seu direito de oposição", "de": "Ihr Widerspruchsrecht",
         "en": "Your right to object"}, "21"),
    "purposes (13(1)(c))": (
        {"es": "Qué datos recogemos y para qué", "pt": "Que dados recolhemos e para quê",
         "de": "Welche Daten wir erheben und wozu", "en": "What we collect and why"}, "HMAC"),
    "server logs": (
        {"es": "Registros del servidor", "pt": "Registos do servidor", "de": "Server-Logdateien",
         "en": "Server logs"}, "14"),
    "legal basis and legitimate interests (13(1)(c)-(d))": (
        {"es": "Base jurídica", "pt": "Fundamento jurídico", "de": "Rechtsgrundlage", "en": "Legal basis"},
        "6"),
    "withdrawal of consent (13(2)(c), Art. 7(3))": (
        {"es": "Retirada del consentimiento", "pt": "Retirada do consentimento",
         "de": "Widerruf Ihrer Einwilligung", "en": "Withdrawing your consent"}, "7"),
    "whether the data is required (13(2)(e))": (
        {"es": "¿Está obligado a facilitarnos sus datos?", "pt": "É obrigado a fornecer-nos os seus dados?",
         "de": "Müssen Sie uns Ihre Daten geben?", "en": "Do you have to give us your data?"}, "IP"),
    "automated decisions and profiling (13(2)(f))": (
        {"es": "Sin decisiones automatizadas ni elaboración de perfiles",
         "pt": "Sem decisões automatizadas nem definição de perfis",
         "de": "Keine automatisierte Entscheidungsfindung und kein Profiling",
         "en": "No automated decision-making or profiling"}, "22"),
    "retention (13(2)(a))": (
        {"es": "Cuánto tiempo conservamos sus datos", "pt": "Durante quanto tempo conservamos os seus dados",
         "de": "Wie lange wir Ihre Daten speichern", "en": "How long we keep your data"}, "30"),
    "recipients (13(1)(e))": (
        {"es": "Quién recibe sus datos", "pt": "Quem recebe os seus dados", "de": "Wer Ihre Daten erhält",
         "en": "Who receives your data"}, "28"),
    "transfers and a copy of their safeguards (13(1)(f))": (
        {"es": "Transferencias fuera del Espacio Económico Europeo",
         "pt": "Transferências para fora do Espaço Económico Europeu",
         "de": "Übermittlung in Länder außerhalb des Europäischen Wirtschaftsraums",
         "en": "Transfers outside the European Economic Area"}, "46"),
    "cookies": ({"es": "Cookies", "pt": "Cookies", "de": "Cookies", "en": "Cookies"}, "__Host-csrftoken"),
    "rights (13(2)(b))": (
        {"es": "Sus derechos", "pt": "Os seus direitos", "de": "Ihre Rechte", "en": "Your rights"}, "15"),
    "complaint to a supervisory authority (13(2)(d))": (
        {"es": "Reclamación ante una autoridad de control", "pt": "Reclamação a uma autoridade de controlo",
         "de": "Beschwerde bei einer Aufsichtsbehörde", "en": "Complaints to a supervisory authority"}, "77"),
}
SUPERVISORY_AUTHORITY_HEADINGS = {
    "es": "Autoridad de supervisión", "pt": "Autoridade de supervisão", "de": "Aufsichtsbehörde",
    "en": "Supervisory authority",
}
# The company's details in the texts: names in braces, filled from the operator record (company/).
FIELD = re.compile(r"\{[a-z_]+\}")


def sections(client, language, view_name):
    """The rendered page's sections: {its <h2> heading: the text up to the next heading}, in page order."""
    text = Page(client.get(url_in(language, view_name)).content.decode()).document.find("div", "legal-text")
    found = {}
    heading = None
    for element in text.children:
        if not isinstance(element, str) and element.tag == "h2":
            heading = element.squashed_text
            found[heading] = ""
        elif heading is not None:
            found[heading] += element if isinstance(element, str) else element.squashed_text + " "
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", PAGES)
def test_each_page_exists_in_each_language_with_the_files_text(client, launch_content, language, key):
    response = client.get(url_in(language, PAGES[key]))
    assert response.status_code == 200
    page = Page(response.content.decode())
    text = file_text(language, key)
    assert page.lang == language
    assert page.h1 == [text["title"]]
    assert page.title.strip().startswith(text["title"])
    body = "".join(page.text)
    first_heading = next(line[3:] for line in text["body"].splitlines() if line.startswith("## "))
    assert first_heading in body
    assert file_structure(key)["version"] in body
    # With the operator record still empty, the page is a draft that says which details are missing, and
    # never shows a bracketed placeholder.
    with translation.override(language):
        assert gettext("Draft:") in body and gettext("not yet filled: %(detail)s").split(":")[0] in body
    assert not re.search(r"\[[A-ZÀ-Ý]", body)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_privacy_policy_has_a_section_for_each_thing_gdpr_art_13_requires(client, launch_content, language):
    found = sections(client, language, "company:privacy")
    for topic, (headings, fact) in PRIVACY_SECTIONS.items():
        heading = headings[language]
        assert heading in found, f"{language}: no section on {topic} ({heading!r})"
        assert fact in found[heading], f"{language}: the section on {topic} does not state {fact!r}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_right_to_object_is_a_section_of_its_own_near_the_top(client, launch_content, language):
    headings = list(sections(client, language, "company:privacy"))
    right_to_object = PRIVACY_SECTIONS["right to object (Art. 21(4))"][0][language]
    assert right_to_object in headings[:2]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_legal_notice_has_a_section_for_a_supervisory_authority(client, launch_content, language):
    """Not yet decided in the empty operator record: the section says so (tests/company/test_operator_record.py
    fills it, and leaves it out when the activity needs no authorisation)."""
    found = sections(client, language, "company:legal_notice")
    with translation.override(language):
        marker = gettext("not yet filled: %(detail)s").split(":")[0]
    assert marker in found[SUPERVISORY_AUTHORITY_HEADINGS[language]]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", PAGES)
def test_the_date_is_written_as_every_other_page_writes_dates(client, launch_content, language, key):
    """CLDR's long date, as the GPU pages' "prices updated" time: lower-case months in Portuguese (as since
    the 1990 spelling agreement), "December 1, 2026" in English."""
    meta = Page(client.get(url_in(language, PAGES[key])).content.decode()).document.find("p", "legal-meta")
    updated = file_structure(key)["updated"]
    expected = format_date(updated, "long", locale=REGIONAL_LOCALES[language])
    assert expected in meta.squashed_text
    if language == "pt":
        assert re.search(r"\d+ de [a-zç]+ de \d{4}", meta.squashed_text)
    if language == "en":
        assert re.search(r"[A-Z][a-z]+ \d{1,2}, \d{4}", meta.squashed_text)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", PAGES)
def test_the_page_shows_every_character_of_the_files_text(client, launch_content, language, key):
    """Only the markup goes ("## ", "- ", line breaks) and the company's details come in (each part of the
    text between them is shown, in order): Django's urlize drops punctuation after a link followed by ")",
    as in "(https://www.aepd.es), in Portugal", so the texts avoid that."""
    page = Page(client.get(url_in(language, PAGES[key])).content.decode())
    shown = "".join(page.document.find("div", "legal-text").visible_text.split())
    written = re.sub(r"^(## |- )", "", file_text(language, key)["body"], flags=re.MULTILINE)
    position = 0
    for part in ("".join(text.split()) for text in FIELD.split(written)):
        found = shown.find(part, position)
        assert found >= 0, part[:80]
        position = found + len(part)


def test_the_legal_notice_names_the_laws_of_each_audience(launch_content):
    notice = LegalPage.objects.get(key="legal-notice")
    assert "DDG" in notice.body_de and "LSSI-CE" in notice.body_es and "7/2004" in notice.body_pt
    assert "7.962/2013" in notice.body_en


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_footer_links_both_pages(client, launch_content, language):
    workload = Workload.objects.get(key="llm-training")
    paths = [url_in(language, "home"), workload.get_absolute_url(language)] + [
        url_in(language, view_name)
        for view_name in ("signups:signup", "providers:application", "company:privacy")
    ]
    for path in paths:
        links = Page(client.get(path).content.decode()).links
        assert url_in(language, "company:privacy") in links, path
        assert url_in(language, "company:legal_notice") in links, path


def test_both_pages_are_in_the_sitemap_with_their_alternates(client, launch_content):
    sitemap = client.get("/sitemap.xml").content.decode()
    for view_name in PAGES.values():
        for language in LANGUAGES:
            assert f"{settings.SITE_URL}{url_in(language, view_name)}" in sitemap


def test_pages_are_served_from_the_page_cache_with_an_etag(client, launch_content, django_assert_num_queries):
    path = url_in("es", "company:privacy")
    first = client.get(path)
    assert first.has_header("ETag") and first["Cache-Control"].startswith("public")
    with django_assert_num_queries(0):
        assert client.get(path).status_code == 200
    assert client.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_an_editors_change_shows_at_once_in_the_cached_page(client, launch_content):
    path = url_in("de", "company:legal_notice")
    client.get(path)
    notice = LegalPage.objects.get(key="legal-notice")
    notice.body_de = notice.body_de.replace("Telefon: {phone}", "Telefon: +49 40 1234567")
    notice.version = "1.1"
    notice.save()
    body = client.get(path).content.decode()
    assert "+49 40 1234567" in body and "1.1" in body


def test_signups_and_mails_do_not_empty_the_page_cache(client, launch_content):
    version = content_version()
    client.post(url_in("es", "signups:signup"), signup_data())
    run_mail_worker()
    assert Signup.objects.exists() and OutboxEmail.objects.get().sent_at is not None
    assert cache.get(CONTENT_VERSION_KEY) == version


def test_the_admin_edits_each_language_in_its_own_tab(client, launch_content):
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    user = get_user_model().objects.create_superuser("editor", "editor@example.com", "a-long-test-password")
    client.force_login(user)
    privacy = LegalPage.objects.get(key="privacy")
    body = client.get(reverse("admin:company_legalpage_change", args=[privacy.pk])).content.decode()
    for language in LANGUAGES:
        assert f'name="title_{language}"' in body and f'name="body_{language}"' in body
    assert 'name="version"' in body and 'name="updated"' in body


def test_loading_is_idempotent_keeps_editors_changes_and_reset_restores_the_files(empty_database):
    load_legal_pages()
    first = list(LegalPage.objects.values())
    load_legal_pages()
    assert list(LegalPage.objects.values()) == first
    privacy = LegalPage.objects.get(key="privacy")
    privacy.title_es = "Privacidad (revisada por el abogado)"
    privacy.save()
    call_command("load_launch_content", stdout=io.StringIO())
    assert LegalPage.objects.get(key="privacy").title_es == "Privacidad (revisada por el abogado)"
    call_command("load_launch_content", reset=True, stdout=io.StringIO())
    assert LegalPage.objects.get(key="privacy").title_es == file_text("es", "privacy")["title"]


def test_the_text_format_makes_headings_lists_and_links_and_escapes_everything_else():
    html = render_legal_text("Intro <b>bold</b>\nsecond line\n\n## Rights\n\n- one\n- see https://www.aepd.es\n",
                             fields={})
    assert html == (
        "<p>Intro &lt;b&gt;bold&lt;/b&gt;<br>second line</p>\n<h2>Rights</h2>\n"
        '<ul><li>one</li><li>see <a href="https://www.aepd.es">https://www.aepd.es</a></li></ul>'
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_pages_description_is_its_first_paragraph(client, launch_content, language):
    body = client.get(url_in(language, "company:privacy")).content.decode()
    first = file_text(language, "privacy")["body"].strip().split("\n\n")[0]
    assert f'<meta name="description" content="{first[:40]}' in body
    with translation.override(language):
        assert gettext("Privacy policy") in body


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_privacy_policy_states_the_periods_the_site_keeps(client, launch_content, settings, language):
    """The periods of unconfirmed requests, confirmation links and price alerts come from the settings the code
    keeps them by, in the page's language: change a setting and the policy says the new period."""
    settings.SIGNUP_UNCONFIRMED_RETENTION_DAYS, settings.CONFIRMATION_LINK_VALID_DAYS = 45, 3
    settings.PRICE_ALERT_LIFETIME_DAYS, settings.PRICE_ALERT_RENEWAL_NOTICE_DAYS = 90, 10
    text = " ".join(Page(client.get(url_in(language, "company:privacy")).content.decode()).text)
    with translation.override(language):
        for days in (45, 3, 90, 10):
            period = translation.ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
            assert period in text, (language, period)
