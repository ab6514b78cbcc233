"""The pt and de fine-tuning pages (translated from the es seed) carry the seed's nine GPUs, with every
number computed here independently of the site's sizing and formatting code."""
from decimal import Decimal

import pytest

from catalog.loading import read_gpus
from workloads.models import Workload

from ..deck import parse, squash
from ..expected_sizing import BYTES_PER_PARAMETER, USABLE_SHARE, step_floor
from ..html import Page

ES_SEED = parse("002_ec28ca16789293fc.txt")
FORMATS = {
    # language: (thousands separator, decimal separator, price pattern, model size pattern)
    "pt": (".", ",", "a partir de US$ {}", "≈ {} mil M"),
    "de": (".", ",", "ab {} $", "≈ {} Mrd."),
}


def expected_fit(memory_gb, method):
    return step_floor(Decimal(memory_gb) * USABLE_SHARE / BYTES_PER_PARAMETER[method])


def grouped(number, thousands, decimal):
    whole, _, fraction = f"{number:,f}".partition(".")
    fraction = fraction.rstrip("0")
    whole = whole.replace(",", thousands)
    return whole + (decimal + fraction if fraction else "")


@pytest.mark.parametrize("language", ["pt", "de"])
def test_fine_tuning_table_in_its_language(client, launch_content, language):
    thousands, decimal, price_pattern, size_pattern = FORMATS[language]
    gpus = {values["name"]: values for values in read_gpus().values()}
    workload = Workload.objects.get(key="fine-tuning")
    response = client.get(workload.get_absolute_url(language))
    assert response.status_code == 200
    page = Page(response.content.decode())
    header, *rows = page.table_cells()
    assert len(header) == 6
    seed_names = [max((n for n in gpus if cell.startswith(n)), key=len) for cell, *_ in ES_SEED.table[1:]]
    assert len(rows) == len(seed_names) == 9
    for row, name in zip(rows, seed_names, strict=True):
        gpu = gpus[name]
        assert squash(row[0]) == squash(name + gpu["architecture"])
        want = [
            f"{grouped(gpu['memory_gb'], thousands, decimal)} GB",
            f"{grouped(gpu['bandwidth_gbs'], thousands, decimal)} GB/s",
            size_pattern.format(expected_fit(gpu["memory_gb"], "qlora_4bit")),
            size_pattern.format(expected_fit(gpu["memory_gb"], "lora_16bit")),
            price_pattern.format(f"{gpu['price_usd_per_hour']:.2f}".replace(".", decimal)),
        ]
        assert [squash(c) for c in row[1:]] == [squash(w) for w in want], name


@pytest.mark.parametrize("language", ["pt", "de"])
def test_fine_tuning_page_has_the_seeds_structure(client, launch_content, language):
    workload = Workload.objects.get(key="fine-tuning")
    page = Page(client.get(workload.get_absolute_url(language)).content.decode())
    assert page.h1 == [getattr(workload, f"title_{language}")]
    assert workload.sections.count() == 3 and workload.faqs.count() == 4
    text = "".join(page.text)
    for faq in workload.faqs.all():
        assert getattr(faq, f"question_{language}") in text
        assert getattr(faq, f"answer_{language}") in text
