"""The estimator against published runs (estimator/data/published_runs.toml): every row names its source with a
quoted excerpt and a catalogue GPU; the held-out runs, never used to choose the efficiencies, land within their
bands; each estimate equals the independent computation of tests/expected_estimates.py; and the calculator's
page shows the table in the page's language."""
import tomllib
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.utils import translation

from catalog.loading import read_gpus
from catalog.sizing_methods import sizing_method
from core.formatting import format_number
from estimator.published_runs import HELD_OUT, check_decode, check_memory, check_training, memory_runs, published_runs

from . import expected_estimates
from .html import parse
from .languages import LANGUAGES
from .localized_urls import url_in

DATA = tomllib.loads((Path(__file__).resolve().parent.parent / "estimator" / "data" / "published_runs.toml")
                     .read_text(encoding="utf-8"))
TRAINING_BAND = tuple(Decimal(bound) for bound in DATA["bands"]["training"])
DECODE_BAND = tuple(Decimal(bound) for bound in DATA["bands"]["decode"])
GPUS = {slug: SimpleNamespace(slug=slug, **values) for slug, values in read_gpus().items()}
BY_NAME = {gpu.name: slug for slug, gpu in GPUS.items()}
TRAINING, DECODE = published_runs()
MEMORY_RUNS = memory_runs()
MEMORY_BAND = tuple(Decimal(bound) for bound in DATA["memory_band"]["training_memory"])


def expected_training_hours(row):
    """6 × active parameters × tokens ÷ (BF16 peak × the class's utilization × its scaling) ÷ 3,600, on the fewest
    GPUs that hold the model."""
    csv_row = expected_estimates.CSV_ROWS[GPUS[row["gpu"]].name]
    size = Decimal(row["billion_params"])
    active = Decimal(row["active_billion_params"]) if row.get("active_billion_params") else None
    configurations = expected_estimates.training_configurations(
        csv_row, size, Decimal(row["billion_tokens"]), 16, 6, 16384, active=active)
    practical = [item for item in configurations if item[2]]
    return min(practical or configurations, key=lambda item: (item[1], item[0]))[1]


def expected_decode_speed(row):
    csv_row = expected_estimates.CSV_ROWS[GPUS[row["gpu"]].name]
    kv = Decimal(2 * row["layers"] * row["kv_heads"] * row["head_dim"] * row["context_tokens"] * 2) / 10**9
    active = Decimal(row["active_billion_params"]) if row.get("active_billion_params") else None
    return expected_estimates.decode(csv_row, Decimal(row["billion_params"]), row["method"], kv, row["batch"],
                                     active, row["gpu_count"])[1]


def test_every_run_names_a_catalogue_gpu_an_https_source_and_a_quoted_excerpt():
    for row in DATA["training"] + DATA["decode"]:
        assert row["gpu"] in GPUS, row["name"]
        assert row["source"].startswith("https://") and len(row["excerpt"]) > 10, row["name"]
        assert row["set"] in ("calibration", "held_out") and row["read_on"], row["name"]


def test_the_held_out_set_has_dense_and_mixture_of_experts_runs_and_single_and_multi_gpu_serving():
    held_training = [row for row in DATA["training"] if row["set"] == "held_out"]
    held_decode = [row for row in DATA["decode"] if row["set"] == "held_out"]
    assert any(row.get("active_billion_params") for row in held_training)
    assert any(not row.get("active_billion_params") for row in held_training)
    assert len(held_decode) >= 3
    assert {row["gpu_count"] == 1 for row in held_decode} == {True, False}


@pytest.mark.parametrize("run", TRAINING, ids=lambda run: run.name)
def test_training_estimates_equal_the_independent_computation(run):
    check = check_training(run, GPUS[run.gpu], sizing_method("full_adam"))
    row = next(row for row in DATA["training"] if row["name"] == run.name)
    assert abs(check.estimate / Fraction(expected_training_hours(row)) - 1) < Fraction(1, 10**9)
    ratio = Decimal(expected_training_hours(row)) / Decimal(row["published_gpu_hours"])
    print(f"{run.name} ({run.set}): estimate ÷ published = {ratio:.3f}")
    if run.set == HELD_OUT:
        assert TRAINING_BAND[0] <= ratio <= TRAINING_BAND[1], (run.name, ratio)


@pytest.mark.parametrize("run", DECODE, ids=lambda run: f"{run.name} {run.gpu} ×{run.gpu_count}")
def test_decode_estimates_equal_the_independent_computation(run):
    check = check_decode(run, GPUS[run.gpu])
    row = next(row for row in DATA["decode"] if row["name"] == run.name and row["gpu"] == run.gpu
               and row["gpu_count"] == run.gpu_count)
    expected = expected_decode_speed(row)
    assert abs(check.estimate / Fraction(expected) - 1) < Fraction(1, 10**9)
    ratio = expected / Decimal(row["published_tokens_per_second"])
    print(f"{run.name} on {run.gpu} × {run.gpu_count} ({run.set}): estimate ÷ published = {ratio:.3f}")
    if run.set == HELD_OUT:
        assert DECODE_BAND[0] <= ratio <= DECODE_BAND[1], (run.name, run.gpu, ratio)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("answer, table", [("training", "training"), ("inference", "decode")])
def test_the_calculator_shows_each_run_its_estimate_and_ratio_in_the_page_language(client, launch_content,
                                                                                   language, answer, table):
    document = parse(client.get(url_in(language, "estimator:calculator", {"answer": answer})).content)
    section = document.find("section", class_="published-runs")
    rows = section.find("table").rows()[1:]
    data = DATA[table]
    assert len(rows) == len(data)
    with translation.override(language):
        for row, expected in zip(rows, data, strict=True):
            cells = row.cells()
            assert cells[0].squashed_text == expected["name"]
            estimate = expected_training_hours(expected) if table == "training" else expected_decode_speed(expected)
            published = Decimal(expected["published_gpu_hours" if table == "training" else
                                         "published_tokens_per_second"])
            ratio_cell = cells[4 if table == "training" else 5].squashed_text
            assert ratio_cell == format_number(estimate / published, 2), expected["name"]
            assert row.find("a", href=expected["source"]) is not None


def test_the_training_memory_runs_have_fits_and_out_of_memory_full_and_qlora_runs_with_sources():
    rows = DATA["training_memory"]
    assert {row["fits"] for row in rows} == {True, False}
    assert {"full_adam", "qlora_4bit"} <= {row["method"] for row in rows}
    assert any(row["published_gb"] for row in rows)
    for row in rows:
        assert row["gpu"] in GPUS and row["source"].startswith("https://") and len(row["excerpt"]) > 10, row["name"]
        assert row["sequence_tokens"] >= 1 and row["micro_batch"] >= 1 and row["read_on"], row["name"]
    assert (Decimal("0.8"), Decimal("1.2")) == MEMORY_BAND


@pytest.mark.parametrize("run", MEMORY_RUNS, ids=lambda run: run.name)
def test_training_memory_equals_the_independent_computation_and_the_published_answer(run):
    """The memory of each published fine-tune, computed here from the data's bytes and formulas (not estimator/),
    equals the site's; a published peak is within ±20 %; a run that fit is shown as fitting with the headroom, a
    run that ran out of memory as not fitting."""
    row = next(row for row in DATA["training_memory"] if row["name"] == run.name)
    expected = expected_estimates.training_memory_gb(
        Decimal(row["billion_params"]), row["method"], row["gpu_count"], row["sequence_tokens"], row["micro_batch"],
        row["checkpointing"], adapter_share=row.get("adapter_share"))
    check = check_memory(run, GPUS[run.gpu])
    assert abs(check.estimate_gb / Fraction(expected) - 1) < Fraction(1, 10**9)
    status = expected_estimates.memory_status(expected, GPUS[run.gpu].memory_gb)
    assert check.status == status
    assert (status == "fits") == row["fits"], (run.name, expected, status)
    if row["published_gb"]:
        ratio = expected / Decimal(row["published_gb"])
        print(f"{run.name}: estimate ÷ published = {ratio:.3f}")
        assert MEMORY_BAND[0] <= ratio <= MEMORY_BAND[1], (run.name, ratio)
