"""The formatting module, cell by cell against the deck's spec and price cells, and its rules alone."""
from decimal import Decimal
from fractions import Fraction

import pytest
from django.utils import translation

from catalog.loading import read_gpus
from catalog.models import GPU
from catalog.specs import spec_text
from core.formatting import format_model_size, format_number, format_price_per_hour, not_published

from ..deck import deck_pages, squash

# The deck's column headings that show a GPU spec as it is, in each language.
SPEC_HEADINGS = {
    "memory_gb": {"Memoria", "Memória", "Speicher"},
    "memory_type": {"Tipo de memoria", "Tipo de memória", "Speichertyp"},
    "bandwidth_gbs": {"Ancho de banda", "Largura de banda", "Bandbreite"},
    "bf16_dense_tflops": {"Tensor BF16", "BF16-Tensor"},
    "price_usd_per_hour": {"Precio/h", "Preço/h", "Preis/Std."},
}
GPUS_BY_NAME = {values["name"]: GPU(slug=slug, **values) for slug, values in read_gpus().items()}


def gpu_for_cell(cell):
    """The GPU whose name starts the deck's first cell ("B300Blackwell Ultra"): the longest name that fits."""
    return GPUS_BY_NAME[max((name for name in GPUS_BY_NAME if cell.startswith(name)), key=len)]


def deck_spec_cells():
    for deck in deck_pages():
        header, *rows = deck.table
        for column, heading in enumerate(header):
            spec = next((spec for spec, names in SPEC_HEADINGS.items() if heading in names), None)
            if spec is None:
                continue
            for row in rows:
                gpu = gpu_for_cell(row[0])
                yield pytest.param(deck.language, gpu, spec, row[column], id=f"{deck.name[:3]}-{gpu.slug}-{spec}")


CELLS = list(deck_spec_cells())


def test_every_spec_column_of_the_deck_is_checked():
    # 3 training pages × 9 GPUs × 5 spec columns + fine-tuning 9 GPUs × 3 spec columns.
    assert len(CELLS) == 3 * 9 * 5 + 9 * 3


@pytest.mark.parametrize("language, gpu, spec, want", CELLS)
def test_spec_cell_matches_the_deck(language, gpu, spec, want):
    with translation.override(language):
        assert squash(spec_text(gpu, spec)) == squash(want)


@pytest.mark.parametrize("language, value, want", [
    ("es", 6000, "6000"), ("es", 9999, "9999"), ("es", 10000, "10.000"), ("es", 16000, "16.000"),
    ("es", Decimal("163.4"), "163,4"), ("es", 1307, "1307"),
    ("pt", 6000, "6.000"), ("pt", 1307, "1.307"), ("pt", 999, "999"), ("pt", Decimal("19.5"), "19,5"),
    ("de", 6000, "6.000"), ("de", 16000, "16.000"), ("de", Decimal("112.5"), "112,5"),
    ("en", 6000, "6,000"), ("en", Decimal("163.4"), "163.4"),
    ("es", Fraction(96, 5), "19,2"), ("de", Decimal("288.0"), "288"),
])
def test_numbers_follow_each_languages_grouping(language, value, want):
    with translation.override(language):
        assert format_number(value) == want


@pytest.mark.parametrize("language, want", [
    ("es", "desde 8,99 US$"), ("pt", "a partir de US$ 8,99"), ("de", "ab 8,99 $"), ("en", "from $8.99"),
])
def test_prices(language, want):
    with translation.override(language):
        assert squash(format_price_per_hour(Decimal("8.99"))) == squash(want)


@pytest.mark.parametrize("language, billions, want", [
    ("es", 10, "≈ 10 mil M"), ("pt", 110, "≈ 110 mil M"), ("de", 75, "≈ 75 Mrd."), ("en", 9, "≈ 9B"),
    ("es", 3680, "≈ 3680 mil M"), ("de", 3680, "≈ 3.680 Mrd."), ("es", 0, "< 1 mil M"), ("de", 0, "< 1 Mrd."),
])
def test_model_sizes(language, billions, want):
    with translation.override(language):
        assert squash(format_model_size(billions)) == squash(want)


@pytest.mark.parametrize("language, want", [
    ("es", "No publicado"), ("pt", "Não publicado"), ("de", "Nicht veröffentlicht"), ("en", "Not published"),
])
def test_missing_values_read_not_published(language, want):
    b200 = GPUS_BY_NAME["B200"]
    with translation.override(language):
        assert not_published() == want
        assert spec_text(b200, "bandwidth_gbs") == want
