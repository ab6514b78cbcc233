"""The home page of each language (storefront): its text from the database, the waitlist button, the live
starting prices of the featured GPUs, the workloads, steps, facts and FAQ (with its FAQPage JSON-LD); an
editor's change shows on the next request; queries do not grow with the featured GPUs; the launch content
loader fills gaps, keeps editors' changes and resets on request."""
import io
import json
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from caching.content_version import content_version
from catalog.models import GPU
from core.content_files import read_toml
from core.formatting import format_price_per_hour
from staff.editor_role import EDITORS_GROUP
from storefront.loading import CONTENT_DIR, FILE_NAME
from storefront.models import FeaturedGPU, LandingFact, LandingFAQ, LandingPage, ProviderStep, RenterStep
from storefront.translation import LANDING_TEXT_FIELDS
from workloads.models import Workload

from ..html import fetch, parse
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..queries import add_test_gpus

LANDING_MODELS = (LandingPage, FeaturedGPU, RenterStep, ProviderStep, LandingFact, LandingFAQ)


def landing():
    return LandingPage.objects.get(key=LandingPage.Key.HOME)


def featured_gpus():
    return [featured.gpu for featured in landing().featured_gpus.select_related("gpu")]


def expected_cards(language):
    """(name, page, price) of each featured GPU with a price, in the editors' order, in ``language``."""
    with translation.override(language):
        return [(gpu.name, gpu.get_absolute_url(language), format_price_per_hour(gpu.price_usd_per_hour))
                for gpu in featured_gpus() if gpu.price_usd_per_hour is not None]


def shown_cards(document):
    return [(card.find("a", class_="price-card-name").squashed_text,
             card.find("a", class_="price-card-name").attrs["href"],
             card.find(class_="price-card-price").text.strip())
            for card in document.find("ul", class_="price-cards").find_all("li", class_="price-card")]


def json_ld(document):
    return {data["@type"]: data for data in
            (json.loads(script.text) for script in document.find_all("script", type="application/ld+json"))}


def load(**options):
    call_command("load_launch_content", stdout=io.StringIO(), **options)


def rows():
    return {model.__name__: sorted(tuple(row.values()) for row in model.objects.values()) for model in LANDING_MODELS}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_first_screen_shows_the_heading_the_waitlist_button_and_featured_prices(client, launch_content, language):
    page = landing()
    document = fetch(client, url_in(language, "home"))
    assert document.find("html").attrs["lang"] == language
    hero = document.find("section", class_="landing-hero")
    [h1] = document.find_all("h1")
    assert h1.squashed_text == getattr(page, f"heading_{language}")
    assert hero.find(class_="landing-lead").squashed_text == getattr(page, f"lead_{language}")
    button = hero.find(class_="landing-actions").find("a", class_="cta-button")
    assert button.attrs["href"].split("?")[0] == url_in(language, "signups:signup")
    assert button.squashed_text == getattr(page, f"signup_label_{language}")
    secondary = hero.find("a", class_="secondary-link")
    assert secondary.attrs["href"] == url_in(language, "catalog:gpu_list")
    cards = shown_cards(hero)
    assert len(cards) >= 3
    assert cards == expected_cards(language)
    memories = [
        card.find(class_="price-card-memory").squashed_text for card in hero.find_all("li", class_="price-card")
    ]
    for gpu, memory in zip(featured_gpus(), memories, strict=True):
        assert memory.endswith(f"GB {gpu.memory_type}")
    for _name, path, _price in cards:
        assert client.get(path).status_code == 200


@pytest.mark.parametrize("language", LANGUAGES)
def test_below_the_fold_workloads_steps_facts_faq_and_calls_to_action(client, launch_content, language):
    page = landing()
    document = fetch(client, url_in(language, "home"))
    main = document.find("main")
    workload_titles = [item.find("a").squashed_text for item in main.find("ul", class_="workload-links").find_all("li")]
    assert workload_titles == [getattr(w, f"title_{language}") for w in Workload.objects.filter(is_published=True)]
    step_lists = main.find_all("ol", class_="steps")
    for step_list, items in zip(step_lists, (page.renter_steps.all(), page.provider_steps.all()), strict=True):
        assert [(li.find("h3").squashed_text, li.find("p").squashed_text) for li in step_list.find_all("li")] == [
            (getattr(step, f"heading_{language}"), getattr(step, f"body_{language}")) for step in items]
    facts = main.find("ul", class_="facts").find_all("li")
    assert [fact.find("h3").squashed_text for fact in facts] == [
        getattr(f, f"heading_{language}") for f in page.facts.all()]
    # Every section is named by a heading it points to.
    for section in main.find_all("section"):
        heading = document.by_id(section.attrs["aria-labelledby"])
        assert heading is not None and heading.tag in ("h1", "h2") and heading.squashed_text
    assert main.find("section", class_="cta-launch") and main.find("section", class_="cta-provider")
    assert not [element for element in document.iter() if "style" in element.attrs]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_faq_page_json_ld_matches_the_faq_shown(client, launch_content, language):
    document = fetch(client, url_in(language, "home"))
    faq = document.find("section", class_="landing-faq")
    questions = [h3.squashed_text for h3 in faq.find_all("h3")]
    answers = [p.squashed_text for p in faq.find_all("p")]
    assert 4 <= len(questions) <= 6
    assert list(zip(questions, answers, strict=True)) == [
        (getattr(f, f"question_{language}"), getattr(f, f"answer_{language}")) for f in landing().faqs.all()]
    data = json_ld(document)
    assert data["Organization"]["name"] == "EverXCloud"
    faq_page = data["FAQPage"]
    assert faq_page["@context"] == "https://schema.org"
    assert [(q["@type"], q["name"], q["acceptedAnswer"]["@type"], q["acceptedAnswer"]["text"])
            for q in faq_page["mainEntity"]] == [
        ("Question", q, "Answer", a) for q, a in zip(questions, answers, strict=True)]


def test_an_editors_change_to_a_price_or_to_the_text_shows_on_the_next_request(client, launch_content):
    address = url_in("es", "home")
    fetch(client, address)
    with CaptureQueriesContext(connection) as queries:
        fetch(client, address)
    assert len(queries) == 0, "the second request is served from the page cache"

    gpu = featured_gpus()[1]
    gpu.price_usd_per_hour += Decimal("0.12")
    gpu.save()
    cards = shown_cards(fetch(client, address))
    with translation.override("es"):
        assert (gpu.name, gpu.get_absolute_url("es"), format_price_per_hour(gpu.price_usd_per_hour)) in cards
    assert cards == expected_cards("es")

    page = landing()
    page.heading_es = "Horas de GPU, revisado por un editor"
    page.save()
    step = page.renter_steps.first()
    step.body_es = "Un paso reescrito por un editor."
    step.save()
    document = fetch(client, address)
    assert document.find("h1").squashed_text == "Horas de GPU, revisado por un editor"
    assert "Un paso reescrito por un editor." in document.find("ol", class_="steps").squashed_text
    # The other languages keep their own text.
    assert fetch(client, url_in("de", "home")).find("h1").squashed_text == page.heading_de


def test_a_featured_gpu_without_a_price_is_left_out(client, launch_content):
    unpriced = featured_gpus()[0]
    unpriced.price_usd_per_hour = None
    unpriced.save()
    cards = shown_cards(fetch(client, url_in("pt", "home")))
    assert unpriced.name not in [name for name, _path, _price in cards]
    assert cards == expected_cards("pt") and len(cards) == len(featured_gpus()) - 1


def test_editors_choose_and_order_the_featured_gpus(client, launch_content):
    page = landing()
    page.featured_gpus.all().delete()
    chosen = list(GPU.objects.exclude(price_usd_per_hour=None).order_by("-memory_gb")[:3])
    for order, gpu in enumerate(chosen, start=1):
        page.featured_gpus.create(gpu=gpu, order=order)
    assert [name for name, _path, _price in shown_cards(fetch(client, url_in("en", "home")))] == [
        g.name for g in chosen]


@pytest.fixture
def page_cache_off(settings):
    settings.PAGE_CACHE_ENABLED = False


def home_queries(client, address):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(address).status_code == 200
    return len(queries)


def test_queries_do_not_grow_with_more_featured_gpus(client, launch_content, page_cache_off):
    address = url_in("de", "home")
    first_render = home_queries(client, address)  # loads the workload and landing content of this version
    again = home_queries(client, address)
    page = landing()
    add_test_gpus(40)
    for order, gpu in enumerate(GPU.objects.filter(vendor="Test"), start=100):
        page.featured_gpus.create(gpu=gpu, order=order)
    document = fetch(client, address)
    assert len(shown_cards(document)) == len(expected_cards("de")) >= 40
    assert home_queries(client, address) == again == 0
    page.save()  # a new content version: the next render loads everything again
    assert home_queries(client, address) == first_render
    assert first_render <= 15, f"{first_render} queries for the home page"


def test_the_launch_content_has_every_landing_text_in_every_language(launch_content):
    page = landing()
    for language in LANGUAGES:
        for field in LANDING_TEXT_FIELDS:
            assert getattr(page, f"{field}_{language}"), (field, language)
        for items, fields in ((page.renter_steps, ("heading", "body")), (page.provider_steps, ("heading", "body")),
                              (page.facts, ("heading", "body")), (page.faqs, ("question", "answer"))):
            for item in items.all():
                for field in fields:
                    assert getattr(item, f"{field}_{language}"), (item, field, language)
    assert page.renter_steps.count() == page.provider_steps.count() == 3
    assert page.facts.count() == 4 and 4 <= page.faqs.count() <= 6
    assert [gpu.slug for gpu in featured_gpus()] == read_toml(CONTENT_DIR / FILE_NAME)["featured_gpus"]


def test_loading_twice_changes_nothing(empty_database):
    load()
    first = rows()
    load()
    assert rows() == first


def test_loading_again_keeps_editors_changes_and_reset_restores_the_files(empty_database):
    load()
    page = landing()
    page.heading_de = "Überschrift einer Redakteurin"
    page.save()
    faq = page.faqs.get(order=2)
    faq.answer_es = "Respuesta de un editor."
    faq.save()
    page.featured_gpus.exclude(order=1).delete()
    page.provider_steps.create(order=4, heading_en="An editor's extra step", body_en="Its text.")
    load()
    page = landing()
    assert page.heading_de == "Überschrift einer Redakteurin"
    assert page.faqs.get(order=2).answer_es == "Respuesta de un editor."
    assert page.featured_gpus.count() == 1
    assert page.provider_steps.count() == 4

    load(reset=True)
    page = landing()
    files = {language: read_toml(CONTENT_DIR / language / FILE_NAME) for language in LANGUAGES}
    assert page.heading_de == files["de"]["heading"]
    assert page.faqs.get(order=2).answer_es == files["es"]["faqs"][1]["answer"]
    assert [gpu.slug for gpu in featured_gpus()] == read_toml(CONTENT_DIR / FILE_NAME)["featured_gpus"]
    assert [step.heading_en for step in page.provider_steps.all()] == [
        s["heading"] for s in files["en"]["provider_steps"]]


def test_loading_fills_a_translation_an_editor_emptied(empty_database):
    load()
    page = landing()
    page.lead_pt = ""
    page.save()
    load()
    assert landing().lead_pt == read_toml(CONTENT_DIR / "pt" / FILE_NAME)["lead"]


def test_editors_may_edit_the_landing_page_and_every_save_makes_pages_fresh(client, launch_content):
    group = Group.objects.get(name=EDITORS_GROUP)
    codenames = set(group.permissions.filter(content_type__app_label="storefront").values_list("codename", flat=True))
    for model in LANDING_MODELS:
        assert f"change_{model._meta.model_name}" in codenames
    for model in (RenterStep, ProviderStep, LandingFact, LandingFAQ, FeaturedGPU):
        before = content_version()
        model.objects.first().save()
        assert content_version() != before, model


def test_the_admin_shows_the_landing_page_with_its_lists(admin_client, launch_content):
    page = landing()
    response = admin_client.get(reverse("admin:storefront_landingpage_change", args=[page.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    for field in ("heading_es", "lead_pt", "faq_heading_de", "signup_label_en"):
        assert f'name="{field}"' in body
    for prefix in ("featured_gpus", "renter_steps", "provider_steps", "facts", "faqs"):
        assert f'name="{prefix}-TOTAL_FORMS"' in body
    assert f'href="{url_in("es", "home")}"' in body


def test_without_the_launch_content_the_home_page_still_renders(client, empty_database):
    document = parse(client.get(url_in("es", "home")).content)
    assert document.find("h1").squashed_text == "EverXCloud"
    assert document.find("ul", class_="price-cards") is None


def test_the_company_line_shows_the_operator_record_only_once_complete(client, launch_content):
    """Issue 44: who is behind the site, from the operator record (never invented), hidden while incomplete."""
    from caching.content_version import content_changed
    from company.models import OperatorRecord

    from ..operator_record import fill_operator_record

    OperatorRecord.objects.all().delete()
    content_changed()
    assert fetch(client, url_in("en", "home")).find("p", class_="company-line") is None
    record = fill_operator_record()
    content_changed()
    line = fetch(client, url_in("de", "home")).find("p", class_="company-line")
    assert record.legal_name in line.squashed_text and record.city in line.squashed_text
    assert line.find("a").attrs["href"] == f"mailto:{record.contact_email}"
    OperatorRecord.objects.filter(pk=record.pk).update(city="")
    content_changed()
    assert fetch(client, url_in("en", "home")).find("p", class_="company-line") is None


def test_the_first_screen_has_the_price_board_and_the_provider_pitch_links_on(client, launch_content):
    document = fetch(client, url_in("es", "home"))
    hero = document.find("section", class_="landing-hero")
    board = hero.find("section", class_="price-board")
    bars = [int(card.find("rect", class_="bar-fill").attrs["width"]) for card in board.find_all("li")]
    assert max(bars) == 100 and all(3 <= bar <= 100 for bar in bars)
    pitch = document.find("section", class_="provider-pitch")
    assert pitch.find("a").attrs["href"] == url_in("es", "providers:page")
