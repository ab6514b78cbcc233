"""A spec of a GPU has three states: a value, not published by the vendor, and not supported (the feature
does not exist on the GPU). Each reads as such on a GPU's page, in a workload table, the comparison and the
catalogue, in every language; "—" carries a name for screen readers and a legend appears where it does;
editors set the state in the admin, and the data file marks it ``n/a``."""
import csv
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from catalog.columns import SpecColumn
from catalog.comparison import spec_rows
from catalog.loading import GPUS_CSV, read_gpus
from catalog.models import GPU
from catalog.specs import UNSUPPORTABLE_SPECS, spec_label
from workloads.models import Workload

from ..editors import change_form_data
from ..html import fetch, parse
from ..languages import LANGUAGES
from ..localized_urls import url_in

# Written out here, not read from the .po files: what a visitor reads in each language.
NOT_PUBLISHED = {"es": "No publicado", "pt": "Não publicado", "de": "Nicht veröffentlicht", "en": "Not published"}
NOT_SUPPORTED = {"es": "no compatible con esta GPU", "pt": "inexistente nesta GPU",
                 "de": "von dieser GPU nicht unterstützt", "en": "not supported by this GPU"}
TFLOPS_4500 = {"es": "4500 TFLOPS", "pt": "4.500 TFLOPS", "de": "4.500 TFLOPS", "en": "4,500 TFLOPS"}
# Not published per GPU, with the figure derived from the HGX board's beside it (64 TB/s ÷ 8 = 8,000 GB/s).
BANDWIDTH_DERIVED = {
    "es": "No publicado por GPU · ≈ 8000 GB/s, derivado de la cifra de sistema del fabricante",
    "pt": "Não publicado por GPU · ≈ 8.000 GB/s, derivado do valor do sistema do fabricante",
    "de": "Nicht pro GPU veröffentlicht · ≈ 8.000 GB/s, abgeleitet aus der Systemangabe des Herstellers",
    "en": "Not published per GPU · ≈ 8,000 GB/s, derived from the vendor’s system figure",
}


@pytest.fixture
def admin_client_logged_in(client, db):
    user = get_user_model().objects.create_superuser("editor", "editor@example.com", "a-long-test-password")
    client.force_login(user)
    return client


def assert_not_supported_cell(cell, language):
    """"—" hidden from screen readers, which read its meaning instead; nothing else in the cell."""
    mark, name = [child for child in cell.children if not isinstance(child, str)]
    assert (mark.tag, mark.attrs.get("aria-hidden"), mark.text) == ("span", "true", "—")
    assert ("visually-hidden" in name.classes, name.text) == (True, NOT_SUPPORTED[language])
    assert cell.text == "—" + NOT_SUPPORTED[language]


def legends(document):
    return [p.squashed_text for p in document.find_all("p", class_="not-supported-legend")]


def spec_cells(document):
    table = document.find("div", aria_labelledby="specs-heading").find("table")
    return {row.cells()[0].squashed_text: row.cells()[1] for row in table.rows()}


# 1. A GPU's page.


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_gpu_page_shows_each_state_of_a_spec(client, launch_content, language):
    document = fetch(client, url_in(language, "catalog:gpu_detail", slug="b300"))
    cells = spec_cells(document)
    # NVIDIA publishes no per-GPU bandwidth for the B300 (the deck's "not published"): the page says so, with the
    # figure derived from the HGX board's beside it, linked to its source; its FP8 comes from the HGX board's
    # figure; a data-centre GPU has no ray-tracing cores.
    with translation.override(language):
        # Read now: a label is lazy, and the page may come from the cache without activating its language.
        bandwidth, fp8, rt_cores = (str(spec_label(key)) for key in ("bandwidth_gbs", "fp8_dense_tflops", "rt_cores"))
    assert cells[bandwidth].squashed_text == BANDWIDTH_DERIVED[language]
    link = cells[bandwidth].find("a")
    note = document.by_id(link.attrs["href"].removeprefix("#"))
    assert "https://www.nvidia.com/en-us/data-center/hgx/" in [a.attrs["href"] for a in note.find_all("a")]
    assert cells[fp8].squashed_text == TFLOPS_4500[language]
    assert_not_supported_cell(cells[rt_cores], language)
    assert legends(document) == ["— " + NOT_SUPPORTED[language]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_legend_appears_only_where_the_mark_does(client, launch_content, language):
    # The RTX 4090 has every feature: no "—", no legend (its FP64 figures are merely not published).
    document = fetch(client, url_in(language, "catalog:gpu_detail", slug="rtx-4090"))
    assert not any(cell.text.startswith("—") for cell in spec_cells(document).values())
    assert NOT_PUBLISHED[language] in [cell.squashed_text for cell in spec_cells(document).values()]
    assert legends(document) == []
    # Nor on the catalogue, whose columns every GPU has.
    assert legends(fetch(client, url_in(language, "catalog:gpu_list"))) == []


def test_pcie_cards_show_their_link_where_the_interconnect_is_asked(client, launch_content):
    cells = spec_cells(fetch(client, url_in("de", "catalog:gpu_detail", slug="l40s")))
    assert cells["Interconnect"].squashed_text == "PCIe Gen4 ×16"
    assert cells["Interconnect-Bandbreite"].squashed_text == "64 GB/s"
    cells = spec_cells(fetch(client, url_in("en", "catalog:gpu_detail", slug="rtx-pro-6000-blackwell")))
    assert (cells["Interconnect"].squashed_text, cells["Interconnect bandwidth"].squashed_text) == (
        "PCIe Gen5 ×16", "128 GB/s")


# 2. A workload table.


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_workload_table_shows_each_state_of_a_spec(client, launch_content, language):
    workload = Workload.objects.get(key="llm-training")
    if language not in workload.page_languages():
        pytest.skip(f"no {language} page")
    # Before: the deck's table has no "—", so no legend.
    document = fetch(client, workload.get_absolute_url(language))
    assert legends(document) == []
    # An editor marks the A100 PCIe as lacking BF16 (as a GPU before Ampere would).
    a100 = GPU.objects.get(slug="a100-pcie")
    a100.bf16_dense_tflops = None
    a100.unsupported_specs = [*a100.unsupported_specs, "bf16_dense_tflops"]
    a100.full_clean()
    a100.save()
    document = fetch(client, workload.get_absolute_url(language))
    table = document.find("table")
    bf16 = [cell.squashed_text for cell in table.rows()[0].cells()].index(
        workload.columns.get(spec="bf16_dense_tflops").label)
    rows = {row.cells()[0].find("a").text: row.cells() for row in table.rows()[1:]}
    assert rows["B300"][bf16].squashed_text == NOT_PUBLISHED[language]  # as the deck writes it
    assert rows["H200"][bf16].squashed_text == "989 TFLOPS"
    assert_not_supported_cell(rows["A100 PCIe"][bf16], language)
    assert legends(document) == ["— " + NOT_SUPPORTED[language]]


# 3. The comparison.


def test_the_comparison_shows_not_supported_and_ranks_it_nowhere(client, launch_content):
    query = "gpu=a100-sxm&gpu=rtx-a6000&gpu=h100-sxm"
    document = fetch(client, url_in("pt", "catalog:compare") + "?" + query)
    table = document.find("table", class_="comparison-table")
    header = [cell.squashed_text for cell in table.rows()[0].cells()]
    fp8 = dict(zip(header, next(row.cells() for row in table.rows() if row.cells()[0].squashed_text == "Tensor FP8"),
                   strict=True))
    assert_not_supported_cell(fp8["A100 SXM"], "pt")
    assert_not_supported_cell(fp8["RTX A6000"], "pt")
    assert fp8["H100 SXM"].squashed_text == "1.979 TFLOPS"
    assert legends(document)[0] == "— " + NOT_SUPPORTED["pt"]
    # Only the H100 has an FP8 figure: one value is no ranking, so nothing is marked best.
    gpus = [GPU.objects.get(slug=slug) for slug in ("a100-sxm", "rtx-a6000", "h100-sxm")]
    row = next(row for row in spec_rows(gpus) if row.cells[0].text == "—" and row.cells[2].text != "—")
    assert not any(cell.is_best for cell in row.cells)


def test_charts_and_rankings_take_not_supported_as_no_value(launch_content):
    gpu = GPU.objects.get(slug="a100-sxm")
    assert SpecColumn("fp8_dense_tflops").value(gpu) is None
    assert SpecColumn("rt_cores").value(gpu) is None
    # Even a stray figure under "not supported" is neither shown nor plotted.
    gpu.fp8_dense_tflops = Decimal(100)
    assert SpecColumn("fp8_dense_tflops").value(gpu) is None
    assert SpecColumn("fp8_dense_tflops").text(gpu) == "—"


# 4. The admin.


REFUSAL = {
    "es": "Esta GPU está marcada como no compatible con esto; vacíe el campo o desmárquelo en «no compatible».",
    "de": "Diese GPU ist hierfür als „nicht unterstützt“ markiert; leeren Sie das Feld oder entfernen Sie das "
          "Häkchen unter „nicht unterstützt“.",
}


@pytest.mark.parametrize("language", ["es", "de"])
def test_the_admin_refuses_a_value_that_is_also_not_supported(admin_client_logged_in, launch_content, language):
    a100 = GPU.objects.get(slug="a100-sxm")
    data = change_form_data(a100)
    assert data["unsupported_specs"] == ["fp8_dense_tflops", "rt_cores"]
    data["fp8_dense_tflops"] = "624"
    url = reverse("admin:catalog_gpu_change", args=[a100.pk])
    response = admin_client_logged_in.post(url, data, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    document = parse(response.content)
    errors = [item.squashed_text for item in document.find("div", class_="field-fp8_dense_tflops").find_all("li")]
    assert errors == [REFUSAL[language]]
    a100.refresh_from_db()
    assert (a100.fp8_dense_tflops, a100.unsupported_specs) == (None, ["fp8_dense_tflops", "rt_cores"])


def test_the_admin_offers_only_specs_a_gpu_may_lack(admin_client_logged_in, launch_content):
    a100 = GPU.objects.get(slug="a100-sxm")
    url = reverse("admin:catalog_gpu_change", args=[a100.pk])
    document = parse(admin_client_logged_in.get(url).content)
    boxes = document.find_all("input", name="unsupported_specs")
    assert [box.attrs["value"] for box in boxes] == list(UNSUPPORTABLE_SPECS)
    assert {box.attrs["value"] for box in boxes if "checked" in box.attrs} == {"fp8_dense_tflops", "rt_cores"}
    data = change_form_data(a100)
    data["unsupported_specs"] = ["memory_gb"]
    assert admin_client_logged_in.post(url, data).status_code == 200  # refused: not a choice
    a100.refresh_from_db()
    assert a100.unsupported_specs == ["fp8_dense_tflops", "rt_cores"]


def test_an_editor_marks_a_spec_not_supported_with_no_deploy(admin_client_logged_in, launch_content, client):
    h200 = GPU.objects.get(slug="h200")
    data = change_form_data(h200)
    data["fp64_tensor_tflops"] = ""
    data["unsupported_specs"] = ["fp64_tensor_tflops", "rt_cores"]
    response = admin_client_logged_in.post(reverse("admin:catalog_gpu_change", args=[h200.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    document = fetch(client, url_in("en", "catalog:gpu_detail", slug="h200"))
    assert_not_supported_cell(spec_cells(document)["FP64 tensor"], "en")


# 5. The data file.


def write_csv(path, changes):
    source = read_rows()
    rows = [{**row, **changes} if row["slug"] == "l40s" else row for row in source]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(source[0]))
        writer.writeheader()
        writer.writerows(rows)


def read_rows():
    with open(GPUS_CSV, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_the_loader_reads_the_not_supported_marker(tmp_path):
    path = tmp_path / "gpus.csv"
    write_csv(path, {"fp8_dense_tflops": "n/a", "bf16_dense_tflops": ""})
    l40s = read_gpus(path)["l40s"]
    assert l40s["fp8_dense_tflops"] is None and l40s["bf16_dense_tflops"] is None
    assert l40s["unsupported_specs"] == ["fp8_dense_tflops"]  # the empty BF16 is only "not published"
    shipped = read_gpus()
    assert shipped["a100-sxm"]["unsupported_specs"] == ["fp8_dense_tflops", "rt_cores"]
    assert shipped["a100-sxm"]["rt_cores"] is None
    assert shipped["rtx-4090"]["unsupported_specs"] == []


@pytest.mark.parametrize("field", ["memory_type", "bandwidth_gbs", "price_usd_per_hour"])
def test_the_loader_refuses_the_marker_where_a_gpu_cannot_lack_the_spec(tmp_path, field):
    path = tmp_path / "gpus.csv"
    write_csv(path, {field: "n/a"})
    with pytest.raises(ValueError, match=f"l40s: {field} cannot be 'n/a'"):
        read_gpus(path)
