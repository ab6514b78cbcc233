"""What search engines and social sites read: titles, descriptions, canonical and hreflang links (the
same alternates as the sitemap), Open Graph and Twitter cards with a per-page image, robots.txt, and
JSON-LD whose structure is checked against what each page shows."""
import json
import struct
import time
from decimal import Decimal
from urllib.parse import urlsplit

from django.conf import settings
from django.core import signing
from django.test import override_settings
from django.urls import reverse

from catalog.models import GPU
from core import social_image
from core.social_image import SALT, social_image_url
from workloads.models import Workload

from ..html import Head
from ..languages import TRANSLATED
from ..sitemap import sitemap_entries


def png_size(content):
    assert content[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", content[16:24])


def test_every_page_has_its_title_description_canonical_alternates_and_cards(client, launch_content,
                                                                             sitemap_pages):
    entries = sitemap_entries(client)
    images = set()
    for url, alternates in entries.items():
        path = urlsplit(url).path
        head = Head(sitemap_pages[path])
        assert head.title.strip() and head.meta.get("description"), path
        canonical = [link["href"] for link in head.links if link.get("rel") == "canonical"]
        assert canonical == [url], path
        page_alternates = {link["hreflang"]: link["href"] for link in head.links if link.get("rel") == "alternate"}
        assert page_alternates == alternates, path
        assert "x-default" in page_alternates
        for key in ("og:title", "og:description", "og:url", "og:image", "og:locale", "twitter:card", "twitter:image"):
            assert head.meta.get(key), (path, key)
        assert head.meta["og:url"] == url
        images.add(head.meta["og:image"])
    assert len(images) == len(entries), "each page has its own social image"
    image = client.get(urlsplit(min(images)).path)
    assert image["Content-Type"] == "image/png"
    assert png_size(image.content) == (1200, 630)


def test_a_forged_social_image_url_is_refused(client, db):
    assert client.get("/social/forged:token:signature.png").status_code == 404


def test_a_pages_social_image_url_is_the_same_a_minute_later(monkeypatch):
    # A URL that changed with the clock would change the page's bytes every second and defeat the image's
    # year-long cache.
    first = social_image_url("GPUs for LLM training", "/en/gpus-llm-training/")
    later = time.time() + 60
    monkeypatch.setattr(time, "time", lambda: later)
    assert social_image_url("GPUs for LLM training", "/en/gpus-llm-training/") == first


def test_a_social_image_url_with_a_timestamp_still_draws_its_image(client, db):
    # A URL signed with a timestamp (signing.dumps) may stay in a page cached under this content version.
    token = signing.dumps(["GPUs for LLM training", "/en/gpus-llm-training/"], salt=SALT, compress=True)
    response = client.get(reverse("social_image", kwargs={"token": token}))
    assert response.status_code == 200 and png_size(response.content) == (1200, 630)


def test_robots_txt_names_the_sitemap(client, db):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert f"Sitemap: {settings.SITE_URL}/sitemap.xml" in response.content.decode()


def test_a_sitemap_page_number_it_does_not_have_is_no_error(client, launch_content):
    whole = client.get("/sitemap.xml").content
    queries = ("p=1", "p=2", "p=x", "p=-1", "p=99999999999999999999")
    # The cached sitemap answers any query: the page cache keys it by its path alone.
    assert {client.get(f"/sitemap.xml?{query}").content for query in queries} == {whole}
    # Rendered, Django's view refuses a page it does not have.
    with override_settings(PAGE_CACHE_ENABLED=False):
        answers = {query: client.get(f"/sitemap.xml?{query}") for query in queries}
    assert {query: response.status_code for query, response in answers.items()} == {
        "p=1": 200, "p=2": 404, "p=x": 404, "p=-1": 404, "p=99999999999999999999": 404}
    assert answers["p=1"].content == whole


def structured(client, path):
    return structured_data(client.get(path).content.decode())


def structured_data(body):
    return {item["@type"]: item for item in (json.loads(text) for text in Head(body).json_ld)}


def test_every_page_has_a_breadcrumb_list_ending_at_itself(client, launch_content, sitemap_pages):
    for url in sitemap_entries(client):
        data = structured_data(sitemap_pages[urlsplit(url).path])
        crumbs = data["BreadcrumbList"]["itemListElement"]
        assert crumbs[0]["position"] == 1 and [c["position"] for c in crumbs] == list(range(1, len(crumbs) + 1))
        assert crumbs[-1]["item"] == url
        assert all(c["name"] for c in crumbs)


def test_workload_pages_carry_their_faqs(client, launch_content):
    for workload in Workload.objects.prefetch_related("faqs"):
        for language in workload.page_languages():
            faq_page = structured(client, workload.get_absolute_url(language))["FAQPage"]
            assert faq_page["@context"] == "https://schema.org"
            questions = faq_page["mainEntity"]
            assert [q["name"] for q in questions] == [getattr(f, f"question_{language}") for f in workload.faqs.all()]
            assert all(q["@type"] == "Question" and q["acceptedAnswer"]["@type"] == "Answer"
                       and q["acceptedAnswer"]["text"] for q in questions)


def test_the_home_page_names_the_organization(client, launch_content):
    organization = structured(client, "/es/")["Organization"]
    assert organization["name"] == "EverXCloud"
    assert organization["url"] == f"{settings.SITE_URL}/"
    assert client.get(urlsplit(organization["logo"]).path).status_code == 200


def test_gpu_pages_carry_a_product_with_its_hourly_offer(client, launch_content):
    for gpu in GPU.objects.all():
        product = structured(client, gpu.get_absolute_url("de"))["Product"]
        assert product["name"].endswith(gpu.name) and product["brand"]["name"] == gpu.vendor
        offer = product["offers"]
        assert offer["@type"] == "Offer" and offer["priceCurrency"] == "USD"
        assert Decimal(offer["price"]) == gpu.price_usd_per_hour
        assert offer["availability"].startswith("https://schema.org/")


def test_a_page_missing_in_some_languages_is_listed_in_those_it_has_with_its_x_default(client, launch_content):
    """Without English the x-default is the page's first language; the alternates are the sitemap's and
    the page's own, the same."""
    no_english = Workload.objects.get(key="fine-tuning")
    no_english.title_en = ""
    no_english.save()
    no_portuguese = Workload.objects.get(key="llm-inference")
    no_portuguese.title_pt = ""
    no_portuguese.save()
    entries = sitemap_entries(client)
    for workload, languages, x_default in ((no_english, TRANSLATED, "es"),
                                           (no_portuguese, ["es", "de", "en"], "en")):
        urls = {code: settings.SITE_URL + workload.get_absolute_url(code) for code in languages}
        expected = {**urls, "x-default": urls[x_default]}
        assert [url for url in entries if url in set(urls.values())] == list(urls.values())
        for url in urls.values():
            assert entries[url] == expected
            head = Head(client.get(urlsplit(url).path).content.decode())
            assert {link["hreflang"]: link["href"] for link in head.links if link.get("rel") == "alternate"} == expected


def test_a_query_string_makes_no_new_social_image(client, launch_content):
    # Issue 48: an image per query string would let a visitor make the site draw and keep images without end.
    calculator = reverse("estimator:calculator")
    images = {Head(client.get(f"{calculator}?size={size}&method=full_adam").content.decode()).meta["og:image"]
              for size in (7, 8, 70)}
    assert images == {Head(client.get(calculator).content.decode()).meta["og:image"]}


def test_an_image_is_drawn_only_when_the_pages_cache_has_room_to_keep_it(client, db, settings, monkeypatch):
    drawn_titles = []
    draw = social_image.draw
    monkeypatch.setattr(social_image, "draw", lambda title: drawn_titles.append(title) or draw(title))
    settings.PAGE_CACHE_MAX_BYTES = social_image.IMAGE_ROOM_BYTES - 1
    full = client.get(social_image_url("GPUs for LLM training", "/en/gpus-llm-training/"))
    assert full.status_code == 200 and png_size(full.content) == (1200, 630)
    assert "GPUs for LLM training" not in drawn_titles and "immutable" not in full["Cache-Control"]
    settings.PAGE_CACHE_MAX_BYTES = 10 * social_image.IMAGE_ROOM_BYTES
    own = client.get(social_image_url("GPUs for LLM training", "/en/gpus-llm-training/"))
    assert own.content != full.content and "immutable" in own["Cache-Control"]
    assert drawn_titles.count("GPUs for LLM training") == 1
