"""Issue 24's markup, read from the HTML (the browser tests measure the same pages in Chromium): beside each GPU
table a card list with one card per row, in the table's order, each with the row's price and the signup action
with its GPU; the table folded in a <details>; the GPU-name link leading to the price block; the catalogue's
7-day change with a sign and a class for its colour; a footer with the main sections on every page; the home
page's price ladder, drawn from every live price, cheapest first, with labels that never overlap."""
from datetime import timedelta
from decimal import Decimal
from urllib.parse import parse_qs, urlsplit

import pytest
from django.utils import timezone, translation

from caching.content_version import content_changed
from catalog.models import GPU
from catalog.specs import spec_text
from core.formatting import format_usd
from storefront.price_ladder import price_ladder
from workloads.models import Workload

from .. import factories
from ..html import fetch
from ..launch_copy import launch_prices_dated
from ..localized_urls import url_in
from ..sitemap import languages

pytestmark = pytest.mark.django_db


def table_pages():
    paths = [(url_in(code, "catalog:gpu_list"), "catalogue") for code in languages()]
    for workload in Workload.objects.filter(is_published=True):
        paths += [(workload.get_absolute_url(code), "workload") for code in workload.page_languages()]
    return paths


def test_each_table_has_a_card_per_row_with_its_price_and_the_signup_beside_it(client, launch_content):
    gpus = {gpu.slug: gpu for gpu in GPU.objects.all()}
    problems, cards_checked = [], 0
    for path, via in table_pages():
        document = fetch(client, path)
        table = document.find("table", class_="gpu-table")
        fold = table.closest("details")
        if fold is None or "table-fold" not in fold.classes or "open" in fold.attrs:
            problems.append(f"{path}: the table is not in a closed details.table-fold")
        rows = table.find("tbody").find_all("tr")
        cards = document.find("ul", class_="gpu-cards").find_all("li", class_="gpu-card")
        if len(cards) != len(rows):
            problems.append(f"{path}: {len(cards)} cards for {len(rows)} rows")
        for row, card in zip(rows, cards, strict=False):
            cards_checked += 1
            link = row.find("a", class_="gpu-name")
            page, _, fragment = link.attrs["href"].partition("#")
            gpu = next(g for g in gpus.values() if g.get_absolute_url(path.split("/")[1]) == page)
            if fragment != "price":
                problems.append(f"{path}: {gpu.name}'s name links to {link.attrs['href']}, not its #price")
            name = card.find("a", class_="gpu-card-name")
            if name.squashed_text != gpu.name or name.attrs["href"] != link.attrs["href"]:
                problems.append(f"{path}: card {name.squashed_text!r} → {name.attrs['href']} for row {gpu.name}")
            price = card.find(class_="gpu-card-price").squashed_text
            with translation.override(path.split("/")[1]):
                expected = " ".join(spec_text(gpu, "price_usd_per_hour").split())
            if price != expected or price not in [cell.squashed_text for cell in row.cells()]:
                problems.append(f"{path}: {gpu.name}'s card says {price!r}, not its row's price {expected!r}")
            action = card.find("a", class_="signup-action")
            query = parse_qs(urlsplit(action.attrs["href"]).query) if action else {}
            if query.get("gpu") != [gpu.slug] or query.get("via") != [via]:
                problems.append(f"{path}: {gpu.name}'s card has no signup action for it ({query})")
    assert cards_checked >= 52 * 4 + 15 * 4
    assert problems == [], "\n".join(problems[:30])


def test_the_swipe_sentence_stays_in_the_page(client, launch_content):
    for workload in Workload.objects.filter(is_published=True):
        for code in workload.page_languages():
            hint = fetch(client, workload.get_absolute_url(code)).find("p", class_="swipe-hint")
            assert hint is not None and hint.squashed_text == getattr(workload, f"swipe_hint_{code}")


def test_the_catalogue_filter_folds(client, launch_content):
    document = fetch(client, url_in("de", "catalog:gpu_list"))
    fold = document.find("details", class_="filter-fold")
    assert fold is not None and "open" not in fold.attrs and fold.find("form", class_="query-form")
    # A filter the visitor got wrong stays open with its message.
    errors = fetch(client, url_in("de", "catalog:gpu_list") + "?min_memory=abc").find("details", class_="filter-fold")
    assert "open" in errors.attrs


def change_cells(client, language):
    document = fetch(client, url_in(language, "catalog:gpu_list", {"sort": "change-7d"}))
    cells = {}
    for row in document.find("table", class_="gpu-table").find("tbody").find_all("tr"):
        cell = row.cells()[-1]
        cells[row.find("a", class_="gpu-name").squashed_text] = (cell.squashed_text, cell.attrs.get("class"))
    return cells


def test_the_7_day_change_carries_a_sign_and_a_colour_class(client, launch_content):
    launch_prices_dated(timezone.now() - timedelta(hours=1))  # launched within the 7 days: no earlier price
    earlier = timezone.now() - timedelta(days=8)
    cheaper, dearer, same = GPU.objects.get(slug="h100-sxm"), GPU.objects.get(slug="a100-sxm"), GPU.objects.get(
        slug="h200")
    for gpu, factor in ((cheaper, Decimal("1.25")), (dearer, Decimal("0.8")), (same, Decimal(1))):
        factories.price_point(gpu=gpu, usd_per_hour=(gpu.price_usd_per_hour * factor).quantize(Decimal("0.01")),
                              time=earlier)
    content_changed()
    for language in languages():
        cells = change_cells(client, language)
        down_text, down_class = cells[cheaper.name]
        up_text, up_class = cells[dearer.name]
        assert down_class == "change-down" and down_text[0] in "-−", (language, cells[cheaper.name])
        assert up_class == "change-up" and up_text.startswith("+"), (language, cells[dearer.name])
        assert cells[same.name][1] is None
        assert cells[GPU.objects.get(slug="b200").name][1] is None  # no earlier price


def test_every_footer_links_the_main_sections_workloads_languages_and_legal_pages(client, launch_content):
    for language in languages():
        workloads = [w.get_absolute_url(language) for w in Workload.objects.filter(is_published=True)
                     if w.has_page_in(language)]
        for path in (url_in(language, "home"), url_in(language, "catalog:gpu_list"), workloads[0],
                     url_in(language, "signups:signup")):
            footer = fetch(client, path).find("footer")
            links = [a.attrs["href"] for a in footer.find_all("a")]
            for view_name in ("home", "catalog:gpu_list", "estimator:calculator", "catalog:compare",
                              "company:privacy", "company:legal_notice"):
                assert url_in(language, view_name) in links, (path, view_name)
            assert set(workloads) <= set(links), path
            others = {a.attrs["hreflang"] for a in footer.find_all("a") if "hreflang" in a.attrs}
            assert others == set(languages()) - {language}, path
            assert "EverXCloud" in footer.find("p", class_="footer-company").squashed_text


def test_the_home_price_ladder_shows_every_live_price_cheapest_first(client, launch_content):
    priced = sorted(GPU.objects.exclude(price_usd_per_hour=None), key=lambda gpu: (gpu.price_usd_per_hour, gpu.name))
    for language in languages():
        ladder = fetch(client, url_in(language, "home")).find("figure", class_="chart-price-ladder")
        texts = [text.squashed_text for text in ladder.find("svg").find_all("text")]
        with translation.override(language):
            prices = [" ".join(format_usd(gpu.price_usd_per_hour).split()) for gpu in priced]
        assert texts[1::2] == prices, language
        assert [text.split(" ")[0] for text in texts[::2]] == [gpu.name.split(" ")[0] for gpu in priced]
        assert all(price in ladder.find("desc").squashed_text for price in prices)


def boxes(layout):
    """Each text's box in user units, from the layout's own widths: (left, right, top, bottom)."""
    from charts.text import ASCENT_UNITS, DESCENT_UNITS, FONT_SIZE, text_width

    found = []
    for rung in layout.rungs:
        name_width = text_width(f"{rung.name} {rung.detail}", FONT_SIZE, bold=True)
        price_width = text_width(rung.price_text, FONT_SIZE, bold=True)
        found.append((layout.left, layout.left + name_width, rung.name_y - ASCENT_UNITS, rung.name_y + DESCENT_UNITS))
        found.append((layout.right - price_width, layout.right, rung.price_y - ASCENT_UNITS,
                      rung.price_y + DESCENT_UNITS))
        found.append((layout.left, layout.left + rung.bar_length, rung.bar_y, rung.bar_y + layout.bar_height))
    return found


def test_the_ladder_keeps_labels_and_bars_apart_even_with_long_names():
    rows = [("RTX PRO 6000 Blackwell Server Edition", "96 GB", Decimal("1.69"), "a partir de US$ 1,69"),
            ("B300", "288 GB", Decimal("8.99"), "desde 8,99 US$"), ("A", "", Decimal("0.01"), "$0.01")]
    layout = price_ladder(rows)
    assert [rung.name for rung in layout.rungs] == ["A", "RTX PRO 6000 Blackwell Server Edition", "B300"]
    assert layout.rungs[-1].bar_length == layout.right - layout.left
    assert layout.rungs[0].bar_length >= 3
    assert layout.rungs[1].price_y > layout.rungs[1].name_y  # too long for one line: the price goes below
    found = boxes(layout)
    overlaps = [(a, b) for i, a in enumerate(found) for b in found[i + 1:]
                if a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]]
    assert overlaps == []
    assert all(box[0] >= 0 and box[1] <= layout.width and box[2] >= 0 and box[3] <= layout.height for box in found)



def test_the_gpu_name_links_land_on_the_gpu_pages_price_block(client, launch_content):
    """The tables' and cards' GPU names lead to ``#price``: each GPU page has that one target."""
    for gpu in GPU.objects.all():
        for language in languages():
            targets = fetch(client, gpu.get_absolute_url(language)).find_all(id="price")
            assert len(targets) == 1, (gpu.slug, language)
