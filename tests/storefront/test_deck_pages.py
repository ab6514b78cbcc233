"""The deck's pages, rendered from the database, equal the deck: every table cell and every line, in order."""
import pytest

from workloads.models import Workload

from ..deck import deck_pages, squash
from ..html import Page

PAGES = deck_pages()


def rendered(client, language, workload_key):
    workload = Workload.objects.get(key=workload_key)
    response = client.get(workload.get_absolute_url(language))
    assert response.status_code == 200
    return Page(response.content.decode())


@pytest.mark.parametrize("deck", PAGES, ids=[f"{p.language}-{p.workload_key}" for p in PAGES])
def test_page_has_the_decks_heading_and_every_table_cell(client, launch_content, deck):
    page = rendered(client, deck.language, deck.workload_key)
    assert [squash(h) for h in page.h1] == [squash(deck.title)]
    assert page.lang == deck.language
    # The deck's table is the page's first; the chart's data table after it has fewer columns.
    assert [len(table[0]) for table in page.tables].count(len(deck.table[0])) == 1
    cells = page.table_cells()
    assert len(cells) == len(deck.table)
    for got_row, want_row in zip(cells, deck.table, strict=True):
        assert [squash(c) for c in got_row] == [squash(c) for c in want_row]


@pytest.mark.parametrize("deck", PAGES, ids=[f"{p.language}-{p.workload_key}" for p in PAGES])
def test_page_has_every_line_of_the_deck_in_the_decks_order(client, launch_content, deck):
    page = rendered(client, deck.language, deck.workload_key)
    text = squash("".join(page.text))
    position = text.index(squash(deck.title))
    for line in deck.prose:
        found = text.find(squash(line), position)
        assert found >= 0, f"missing or out of order: {line!r}"
        position = found + len(squash(line))

