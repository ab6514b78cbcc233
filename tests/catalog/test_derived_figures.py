"""B200 and B300 (issue 23, item 3): NVIDIA publishes their BF16 and memory bandwidth only for 8-GPU HGX/DGX
systems. The per-GPU figures derived from those system figures live beside the published fields, which stay
empty ("not published", the deck's cells); GPU pages, the comparison and the catalogue show both, the rankings
and the open data use the derived figure, marked as derived; the estimator reads ``training_bf16_tflops`` and
``decode_bandwidth_gbs``. Expectations come from NVIDIA's system figures as quoted in catalog/data/README.md."""
import csv
import io
import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext

from catalog.loading import GPUS_CSV
from catalog.models import GPU, Figure
from workloads.models import Workload

from ..html import fetch
from ..languages import LANGUAGES, TRANSLATED
from ..localized_numbers import numbers_in
from ..localized_urls import url_in

with open(GPUS_CSV, newline="", encoding="utf-8") as handle:
    CSV = {row["slug"]: row for row in csv.DictReader(handle)}

# NVIDIA's 8-GPU system figures (README: hgx-b200, hgx-b300): FP16/BF16 Tensor Core 36 PFLOPS with sparsity;
# 64 TB/s of HBM3e bandwidth in total.
GPUS_PER_SYSTEM = 8
BF16_SPARSE_PFLOPS = Decimal(36)
HBM_TBS = Decimal(64)
EXPECTED_BF16 = BF16_SPARSE_PFLOPS * 1000 / GPUS_PER_SYSTEM / 2  # dense: a sparse figure is halved
EXPECTED_BANDWIDTH = HBM_TBS * 1000 / GPUS_PER_SYSTEM


# 1. The data and the model's API.


@pytest.mark.parametrize("slug", ["b200", "b300"])
def test_the_derived_figures_are_the_system_figures_divided_by_eight(launch_content, slug):
    assert EXPECTED_BF16 == 2250 and EXPECTED_BANDWIDTH == 8000
    gpu = GPU.objects.get(slug=slug)
    # Beside the published fields, never in their place: those stay "not published".
    assert (gpu.bf16_dense_tflops, gpu.bandwidth_gbs) == (None, None)
    assert (gpu.bf16_dense_tflops_derived, gpu.bandwidth_gbs_derived) == (EXPECTED_BF16, EXPECTED_BANDWIDTH)
    assert gpu.training_bf16_tflops == (EXPECTED_BF16, True)
    assert gpu.decode_bandwidth_gbs == (EXPECTED_BANDWIDTH, True)
    with translation.override("en"):
        assert "https://www.nvidia.com/en-us/data-center/hgx/" in gpu.derived_source
    for language in TRANSLATED:
        assert getattr(gpu, f"derived_source_{language}") not in (None, "", gpu.derived_source_en)


def test_a_published_figure_comes_before_a_derived_one_and_none_without_either(launch_content):
    h100 = GPU.objects.get(slug="h100-sxm")
    assert h100.training_bf16_tflops == Figure(Decimal(CSV["h100-sxm"]["bf16_dense_tflops"]), False)
    assert h100.decode_bandwidth_gbs == (Decimal(CSV["h100-sxm"]["bandwidth_gbs"]), False)
    b200 = GPU.objects.get(slug="b200")
    b200.bandwidth_gbs = Decimal(7700)
    assert b200.decode_bandwidth_gbs == (Decimal(7700), False)
    b200.bf16_dense_tflops_derived = None
    assert b200.training_bf16_tflops is None
    a100 = GPU.objects.get(slug="a100-sxm")  # Ampere has no FP8: not supported, and nothing derived
    assert a100.published_or_derived("fp8_dense_tflops") is None
    b200.unsupported_specs = ["bf16_dense_tflops"]
    b200.bf16_dense_tflops_derived = EXPECTED_BF16
    assert b200.training_bf16_tflops is None


def test_a_derived_figure_needs_its_source(launch_content):
    gpu = GPU.objects.get(slug="b200")
    gpu.derived_source = gpu.derived_source_en = ""
    with pytest.raises(ValidationError) as error:
        gpu.clean()
    assert "derived_source" in error.value.message_dict


# 2. Pages: "not published per GPU" with the derived figure beside it; the deck's cells unchanged.


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_gpu_page_shows_not_published_per_gpu_with_the_derived_figure_and_its_source(client, launch_content,
                                                                                        language):
    document = fetch(client, url_in(language, "catalog:gpu_detail", slug="b200"))
    table = document.find("div", aria_labelledby="specs-heading").find("table")
    cells = {row.cells()[0].squashed_text: row.cells()[1] for row in table.rows()}
    with translation.override(language):
        per_gpu = gettext("Not published per GPU")
        labels = {key: str(GPU._meta.get_field(key).verbose_name) for key in ("bandwidth_gbs", "bf16_dense_tflops")}
        source = GPU.objects.get(slug="b200").derived_source
    for key, expected in (("bandwidth_gbs", EXPECTED_BANDWIDTH), ("bf16_dense_tflops", EXPECTED_BF16)):
        cell = cells[labels[key][0].upper() + labels[key][1:]]
        assert cell.squashed_text.startswith(per_gpu + " · ≈ ")
        assert numbers_in(cell.squashed_text.split("≈")[1], language) == [expected]
        note = document.by_id(cell.find("a").attrs["href"].removeprefix("#"))
        assert "B200" in note.text and source.split("https://")[0].strip() in note.squashed_text
        assert "https://www.nvidia.com/en-us/data-center/dgx-b200/" in [a.attrs["href"] for a in note.find_all("a")]


def test_a_gpu_with_published_figures_has_no_note_of_derived_figures(client, launch_content):
    document = fetch(client, url_in("en", "catalog:gpu_detail", slug="h100-sxm"))
    assert document.by_id("derived-figures") is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_workload_tables_keep_the_decks_not_published(client, launch_content, language):
    """The deck writes "No publicado" for the B200/B300 bandwidth and BF16 cells: the tables still do."""
    document = fetch(client, Workload.objects.get(key="llm-training").get_absolute_url(language))
    with translation.override(language):
        missing, per_gpu = gettext("Not published"), gettext("Not published per GPU")
    rows = document.find("table", class_="gpu-table").table_rows()
    b_rows = [row for row in rows[1:] if row[0].startswith(("B200", "B300"))]
    assert len(b_rows) == 2
    for row in b_rows:
        assert missing in row and not any(per_gpu in cell for cell in row)


def test_rankings_include_the_derived_figures_marked(client, launch_content):
    """The B200's bandwidth ranks (derived, marked), ahead of the MI325X's published 6,000 GB/s."""
    document = fetch(client, url_in("en", "catalog:gpu_detail", slug="b200"))
    text = document.find("figure", class_="chart-rank").find("desc").squashed_text
    assert "≈ 8,000 GB/s (derived)" in text
    published = sorted((Decimal(row["bandwidth_gbs"] or row["bandwidth_gbs_derived"]) for row in CSV.values()),
                       reverse=True)
    assert f"#1 of {len(published)}" in text and published[0] == EXPECTED_BANDWIDTH


def test_the_catalogue_sorts_the_derived_figures_with_the_published_ones(client, launch_content):
    document = fetch(client, url_in("en", "catalog:gpu_list", {"sort": "bf16"}))
    names = [row.find("a", class_="gpu-name").text for row in document.find("tbody").find_all("tr")]
    assert set(names[:2]) == {"B200", "B300"}  # 2,250 derived, above the MI300X's published 1,307
    assert document.by_id("derived-figures") is not None


def test_the_comparison_marks_the_derived_figure_best(client, launch_content):
    document = fetch(client, url_in("en", "catalog:compare", [("gpu", "b200"), ("gpu", "h100-sxm")]))
    table = document.find("table", class_="comparison-table")
    row = next(row for row in table.rows() if row.cells()[0].squashed_text == "Memory bandwidth")
    b200, h100 = row.cells()[1:]
    assert b200.squashed_text.startswith("Not published per GPU · ≈ 8,000 GB/s")
    assert "best" in b200.classes and "best" not in h100.classes


# 3. The open data: the derived figure, marked as derived, beside the 1.0 fields.


def test_the_feed_gives_the_derived_figures_marked_as_derived(client, launch_content):
    data = json.loads(client.get("/data/gpus.json").content)
    entries = {entry["slug"]: entry for entry in data["gpus"]}
    for slug in ("b200", "b300"):
        entry = entries[slug]
        assert entry["specs"]["bandwidth_gbs"] == {"state": "not_published"}  # unchanged from 1.0
        assert entry["derived_specs"] == {
            "bandwidth_gbs": {"value": float(EXPECTED_BANDWIDTH), "unit": "GB/s", "derived": True},
            "bf16_dense_tflops": {"value": float(EXPECTED_BF16), "unit": "TFLOPS", "derived": True},
        }
        assert entry["derived_source"].startswith(f"NVIDIA HGX {slug.upper()}")
    assert entries["h100-sxm"]["derived_specs"] == {} and entries["h100-sxm"]["derived_source"] is None
    rows = list(csv.DictReader(io.StringIO(client.get("/data/gpus.csv").content.decode())))
    header = list(rows[0])
    # The 1.0 columns first and unchanged in order; the new ones after "page".
    assert header[header.index("page") + 1:] == [
        "bandwidth_gbs_derived", "bf16_dense_tflops_derived", "derived_source", "price_source"]
    b300 = next(row for row in rows if row["slug"] == "b300")
    assert (Decimal(b300["bandwidth_gbs_derived"]), Decimal(b300["bf16_dense_tflops_derived"])) == (
        EXPECTED_BANDWIDTH, EXPECTED_BF16)
    assert b300["bandwidth_gbs"] == "" and b300["bandwidth_gbs_state"] == "not_published"


# 4. The migration, on a filled database.


def test_the_migration_adds_the_fields_and_the_price_sources_to_a_filled_database(migrations_rolled_back):
    before = [("catalog", "0008_model_preset_active_parameters")]
    after = [("catalog", "0009_derived_figures_price_source")]
    old = migrations_rolled_back(before)
    OldGPU, OldPoint = old.get_model("catalog", "GPU"), old.get_model("catalog", "PricePoint")
    loaded_at = datetime(2026, 12, 1, 21, 50, 50, tzinfo=UTC)  # the launch data, loaded then
    imported_at = datetime(2026, 12, 1, 22, 30, tzinfo=UTC)
    launch_only = OldGPU.objects.create(slug="launch-only", vendor="V", name="Launch only", architecture="A",
                                        memory_gb=80, price_usd_per_hour=Decimal("2.00"), price_updated_at=loaded_at)
    OldPoint.objects.create(gpu=launch_only, usd_per_hour=Decimal("2.00"), time=loaded_at, source="launch")
    imported = OldGPU.objects.create(slug="imported", vendor="V", name="Imported", architecture="A", memory_gb=80,
                                     price_usd_per_hour=Decimal("1.50"), price_updated_at=imported_at)
    OldPoint.objects.create(gpu=imported, usd_per_hour=Decimal("2.00"), time=loaded_at, source="launch")
    OldPoint.objects.create(gpu=imported, usd_per_hour=Decimal("1.50"), time=imported_at, source="import")
    edited = OldGPU.objects.create(slug="edited", vendor="V", name="Edited", architecture="A", memory_gb=80,
                                   price_usd_per_hour=Decimal("3.00"), price_updated_at=imported_at)
    OldPoint.objects.create(gpu=edited, usd_per_hour=Decimal("3.00"), time=imported_at, source="admin")
    OldGPU.objects.create(slug="no-price", vendor="V", name="No price", architecture="A", memory_gb=80)

    new = migrations_rolled_back(after)
    NewGPU, NewPoint = new.get_model("catalog", "GPU"), new.get_model("catalog", "PricePoint")
    gpus = {gpu.slug: gpu for gpu in NewGPU.objects.all()}
    launch_date = datetime(2026, 11, 30, tzinfo=UTC)  # the launch data's price_date
    assert CSV["b200"]["price_date"] == launch_date.date().isoformat()
    # A launch price that is still the only point takes the launch data's date, not the time it was loaded.
    assert (gpus["launch-only"].price_source, gpus["launch-only"].price_updated_at) == ("launch", launch_date)
    assert list(NewPoint.objects.filter(gpu__slug="launch-only").values_list("time", flat=True)) == [launch_date]
    assert (gpus["imported"].price_source, gpus["imported"].price_updated_at) == ("import", imported_at)
    assert list(NewPoint.objects.filter(gpu__slug="imported").order_by("time").values_list("time", flat=True)) == [
        loaded_at, imported_at]
    assert (gpus["edited"].price_source, gpus["edited"].price_updated_at) == ("admin", imported_at)
    assert (gpus["no-price"].price_source, gpus["no-price"].price_updated_at) == ("launch", None)
    for gpu in gpus.values():
        assert (gpu.bf16_dense_tflops_derived, gpu.bandwidth_gbs_derived, gpu.derived_source) == (None, None, "")
