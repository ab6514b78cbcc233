"""The provider page (issue 45): at its translated address in four languages, with the header's action for
providers; the estimate answered on the page from a plain GET form, its figures equal to ones worked out here
from the catalogue's offer and power, typed in the page's number format; presets kept by the page cache and any
other input rendered per request; the editors' sections, or until they are written the line that says they are
announced before launch; the application pre-filled from the estimate, keeping what was typed on an error."""
import re
from decimal import Decimal

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.utils.translation import gettext

from caching.pages import page_cache_key
from catalog.models import GPU
from core.formatting import format_number, format_usd
from providers.models import ProviderPageText

from ..html import Page, form_fields
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..queries import add_test_gpus

SLUGS = {"es": "/es/proveedores/", "pt": "/pt/fornecedores/", "de": "/de/anbieter/", "en": "/en/providers/"}
# What a visitor types for 0,15 US$ per kWh and a PUE of 1,3, in the page's number format.
TYPED = {"es": ("0,15", "1,3", "62,5"), "pt": ("0,15", "1,3", "62,5"), "de": ("0,15", "1,3", "62,5"),
         "en": ("0.15", "1.3", "62.5")}


def estimate_url(language, **query):
    return url_in(language, "providers:page", {**query, "nf": language} if query else None)


def expected_figures(gpu, count, utilization, usd_per_kwh, pue):
    """Worked out here from the catalogue's row, apart from ``providers.earnings``: 730 h a month."""
    hours = Decimal(730) * count * utilization
    gross = (gpu.price_usd_per_hour * hours).quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    kwh = Decimal(gpu.max_power_w) / 1000 * pue * hours
    cost = (kwh * usd_per_kwh).quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    return hours, gross, kwh, cost, gross - cost


def estimate_lines(body):
    section = Page(body).document.by_id("estimate")
    return dict(zip([dt.visible_text for dt in section.find_all("dt")],
                    [dd.visible_text for dd in section.find_all("dd")], strict=True))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_at_its_translated_address_with_the_application_in_the_header(client, launch_content, language):
    response = client.get(url_in(language, "providers:page"))
    assert response.status_code == 200 and url_in(language, "providers:page") == SLUGS[language]
    page = Page(response.content.decode())
    assert page.lang == language
    with translation.override(language):
        assert page.h1 == [gettext("Sell your GPU hours on EverXCloud")]
        cta = page.document.find("a", class_="header-cta")
        assert cta.attrs["href"] == url_in(language, "providers:application")
        assert cta.visible_text == gettext("Apply to join the network")
    # Every language's address in the switcher and hreflang, and the page in the sitemap.
    hreflang = re.findall(r'<link rel="alternate" hreflang="(\w+)" href="[^"]+(/\w\w/[^"]*)"',
                          response.content.decode())
    assert {code: path for code, path in hreflang if code in SLUGS} == SLUGS
    assert SLUGS[language] in client.get("/sitemap.xml").content.decode()
    # Elsewhere the header offers the renter's signup; the home page's provider pitch links this page.
    home = Page(client.get(url_in(language, "home")).content.decode())
    assert home.document.find("a", class_="header-cta").attrs["href"] == url_in(language, "signups:signup")
    assert url_in(language, "providers:page") in home.links


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_estimate_equals_the_catalogues_offer_and_power_worked_out_here(client, launch_content, language):
    gpu = GPU.objects.get(slug="h100-sxm")
    electricity, pue, utilization = TYPED[language]
    response = client.get(estimate_url(language, gpu="h100-sxm", count="8", utilization=utilization,
                                       electricity=electricity, pue=pue))
    assert response.status_code == 200
    assert response["Cache-Control"].startswith("private")  # any input but a preset: rendered per request
    hours, gross, kwh, cost, margin = expected_figures(gpu, 8, Decimal("0.625"), Decimal("0.15"), Decimal("1.3"))
    with translation.override(language):
        assert estimate_lines(response.content.decode()) == {
            gettext("GPU-hours rented per month"): format_number(hours),
            gettext("Gross revenue per month, before the platform's fee"): format_usd(gross),
            gettext("Energy per month"): f"{format_number(kwh.quantize(Decimal(1)))}\u00a0kWh",
            gettext("Energy cost per month"): format_usd(cost),
            gettext("Margin per month, before the platform's fee"): format_usd(margin),
            gettext("Platform fee and payouts"): gettext("Announced before launch."),
        }
        body = Page(response.content.decode())
        # The assumptions, stated: 730 h, the ceiling, the currency of the electricity price.
        text = " ".join(body.text)
        assert gettext("A month is %(hours)s hours (%(year)s hours a year ÷ 12).") % {
            "hours": format_number(730), "year": format_number(8760)} in text
        assert gettext("In US dollars, the currency of the offers.") in text
    # The form shows what was typed, and the application link carries the GPU and the count.
    fields = form_fields(response.content.decode(), action=f"{SLUGS[language]}#estimate")
    assert (fields["gpu"], fields["count"], fields["electricity"], fields["pue"]) == ("h100-sxm", "8", electricity, pue)
    assert f"{url_in(language, 'providers:application')}?gpu=h100-sxm&count=8" in body.links


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_utilization_the_estimate_is_the_ceiling_and_says_so(client, launch_content, language):
    gpu = GPU.objects.get(slug="b200")
    response = client.get(estimate_url(language, gpu="b200", count="4"))
    hours, gross, *_rest = expected_figures(gpu, 4, Decimal(1), Decimal(0), Decimal(1))
    with translation.override(language):
        lines = estimate_lines(response.content.decode())
        assert lines[gettext("GPU-hours rented per month")] == format_number(hours)
        assert lines[gettext("Gross revenue per month, before the platform's fee")] == format_usd(gross)
        assert gettext("Energy cost per month") not in lines  # no electricity price given
        assert gettext("100 %% is a ceiling: no server is rented every hour of a month.").replace("%%", "%") in \
            " ".join(Page(response.content.decode()).text)


def test_a_gpu_without_a_published_power_gets_no_energy_figure(client, launch_content):
    GPU.objects.filter(slug="l40s").update(max_power_w=None)
    response = client.get(estimate_url("en", gpu="l40s", count="2", electricity="0.2"))
    lines = estimate_lines(response.content.decode())
    assert "Energy per month" not in lines and "Margin per month, before the platform's fee" not in lines
    assert "The GPU's maximum power is not published: no energy figure." in response.content.decode()


@pytest.mark.parametrize("query, field, message", [
    ({"gpu": "h100-sxm", "count": "0"}, "count", "Introduzca un número de 1 a 100.000."),
    ({"gpu": "h100-sxm", "count": "1,5"}, "count", None),
    ({"gpu": "h100-sxm", "count": "8", "utilization": "120"}, "utilization", None),
    ({"gpu": "h100-sxm", "count": "8", "pue": "0,9"}, "pue", None),
    ({"gpu": "no-such-gpu", "count": "8"}, "gpu", None),
])
def test_wrong_input_gets_a_message_and_keeps_what_was_typed(client, launch_content, query, field, message):
    response = client.get(estimate_url("es", **query))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="estimate"' not in body
    assert f'id="id_{field}_error"' in body and re.search(rf'name="{field}"[^>]*aria-invalid="true"', body)
    if message:
        assert message in body
    fields = form_fields(body, action="/es/proveedores/#estimate")
    if field != "gpu":
        assert fields[field] == query[field]


def test_a_gpu_without_a_live_offer_is_not_offered(client, launch_content):
    GPU.objects.filter(slug="a100-pcie").update(price_usd_per_hour=None)
    body = client.get(url_in("en", "providers:page")).content.decode()
    assert 'value="a100-pcie"' not in body and 'value="a100-sxm"' in body
    assert "id=\"estimate\"" not in client.get(estimate_url("en", gpu="a100-pcie", count="1")).content.decode()


def stored(client, path):
    request = client.get(path).wsgi_request
    return caches["pages"].get(page_cache_key(request, request.path.split("/")[1], query=request.GET.keys())) \
        is not None


def test_presets_are_kept_by_the_page_cache_and_other_input_is_not(client, launch_content):
    caches["memory"].clear()  # what this process kept of earlier tests' pages is served without reaching the store
    page = url_in("de", "providers:page")
    for query in ("", "?gpu=h100-sxm&count=8", "?count=1&gpu=b200"):
        response = client.get(page + query)
        assert response["Cache-Control"].startswith("public"), query
        assert stored(client, page + query), query
    for query in ("?gpu=h100-sxm&count=3", "?gpu=h100-sxm&count=8&utilization=50", "?gpu=nothing&count=8",
                  "?gpu=h100-sxm&count=8&nf=de", "?gpu=h100-sxm&gpu=b200&count=8"):
        response = client.get(page + query)
        assert response["Cache-Control"].startswith("private"), query
        assert not stored(client, page + query), query
    # The page links its presets: one per GPU with an offer.
    links = Page(client.get(page).content.decode()).links
    assert f"{page}?gpu=h100-sxm&count=8#estimate" in links


def test_until_editors_write_them_the_sections_say_they_are_announced_before_launch(client, launch_content):
    assert not ProviderPageText.objects.exists()
    for language in LANGUAGES:
        text = " ".join(Page(client.get(url_in(language, "providers:page")).content.decode()).text)
        with translation.override(language):
            assert gettext("Requirements and onboarding are announced before launch.") in text
            assert gettext("The platform's fee and the payout terms are announced before launch.") in text
    Topic = ProviderPageText.Topic
    for topic, order in ((Topic.REQUIREMENTS, 1), (Topic.ONBOARDING, 2), (Topic.TERMS, 1)):
        ProviderPageText.objects.create(topic=topic, order=order, **{
            f"{field}_{code}": f"{topic} {field} {code}" for field in ("heading", "body") for code in LANGUAGES})
    for language in LANGUAGES:
        response = client.get(url_in(language, "providers:page"))
        text = " ".join(Page(response.content.decode()).text)
        assert all(f"{topic} heading {language}" in text for topic in Topic.values)
        with translation.override(language):
            assert gettext("Requirements and onboarding are announced before launch.") not in text
            assert gettext("The platform's fee and the payout terms are announced before launch.") not in text


def test_the_application_is_prefilled_from_the_estimate(client, launch_content):
    body = client.get(url_in("pt", "providers:application", {"gpu": "h100-sxm", "count": "8"})).content.decode()
    fields = form_fields(body, action=url_in("pt", "providers:application"))
    assert (fields["gpu_1"], fields["count_1"]) == ("h100-sxm", "8")
    assert fields.get("gpu_2", "") == "" and fields.get("count_2", "") == ""
    # Anything else is left out, never refused.
    for query in ({"gpu": "invented", "count": "8"}, {"gpu": "b200", "count": "-3"}):
        fields = form_fields(client.get(url_in("pt", "providers:application", query)).content.decode(),
                             action=url_in("pt", "providers:application"))
        assert fields.get("count_1", "") == ""


def test_an_application_with_an_error_keeps_every_row_as_typed(client, launch_content):
    data = {"company": "Nube Norte S.A.", "contact_name": "Ana", "email": "ana@nube.example", "country": "ES",
            "gpu_1": "h100-sxm", "count_1": "16", "location_1": "Madrid", "gpu_2": "other", "name_2": "MI250",
            "count_2": "doce", "location_2": "Bilbao", "consent": "on", "nf": "es"}
    response = client.post(url_in("es", "providers:application"), data)
    assert response.status_code == 400
    fields = form_fields(response.content.decode(), action=url_in("es", "providers:application"))
    assert {name: fields[name] for name in data if name != "consent"} == {
        name: value for name, value in data.items() if name != "consent"}
    assert 'id="id_count_2_error"' in response.content.decode()


def test_the_pages_queries_do_not_grow_with_the_catalogue(client, launch_content, settings):
    settings.PAGE_CACHE_ENABLED = False
    page = estimate_url("en", gpu="h100-sxm", count="8", electricity="0.1")
    client.get(page)
    with CaptureQueriesContext(connection) as before:
        client.get(page)
    add_test_gpus(20)
    GPU.objects.filter(price_usd_per_hour__isnull=True).update(price_usd_per_hour=Decimal("1.00"))
    client.get(page)  # the first request after a content change reads the site's parts again
    with CaptureQueriesContext(connection) as after:
        client.get(page)
    assert len(after) == len(before)


def test_the_folded_rows_open_when_they_hold_something(client, launch_content):
    empty = client.get(url_in("de", "providers:application")).content.decode()
    assert '<details class="more-rows">' in empty and 'name="gpu_4"' in empty
    data = {"company": "Nord GmbH", "contact_name": "Eva", "email": "eva@nord.example", "country": "DE",
            "gpu_1": "b200", "count_1": "8", "location_1": "Berlin", "gpu_3": "h100-sxm", "count_3": "4",
            "consent": "on", "nf": "de"}
    response = client.post(url_in("de", "providers:application"), data)
    body = response.content.decode()
    assert response.status_code == 400 and 'id="id_location_3_error"' in body
    assert '<details class="more-rows" open>' in body
