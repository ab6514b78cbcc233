"""The estimator against published runs (estimator/data/published_runs.toml): every row names its source with a
quoted excerpt and a catalogue GPU; the held-out runs, never used to choose the efficiencies, land within their
bands (serving at batch 1 in the decode band, at any other batch or at maximum load in the serving band); each
estimate equals the independent computation of tests/expected_estimates.py; and the calculator's page shows the
table in the page's language, each excerpt marked as English."""
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
from estimator.published_runs import HELD_OUT, check_memory, check_serving, check_training, memory_runs, published_runs

from .. import expected_estimates
from ..html import parse
from ..languages import LANGUAGES
from ..localized_urls import url_in

DATA = tomllib.loads((Path(__file__).resolve().parents[2] / "estimator" / "data" / "published_runs.toml")
                     .read_text(encoding="utf-8"))
TRAINING_BAND = tuple(Decimal(bound) for bound in DATA["bands"]["training"])
DECODE_BAND = tuple(Decimal(bound) for bound in DATA["bands"]["decode"])
SERVING_BAND = tuple(Decimal(bound) for bound in DATA["bands"]["serving"])
GPUS = {slug: SimpleNamespace(slug=slug, **values) for slug, values in read_gpus().items()}
BY_NAME = {gpu.name: slug for slug, gpu in GPUS.items()}
TRAINING, SERVING = published_runs()
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


def expected_serving_speed(row):
    """Output tokens per second of the run's GPUs, computed from its stated inputs."""
    csv_row = expected_estimates.CSV_ROWS[GPUS[row["gpu"]].name]
    active = Decimal(row["active_billion_params"]) if row.get("active_billion_params") else None
    found = expected_estimates.serving(
        csv_row, Decimal(row["billion_params"]), active, (row["layers"], row["kv_heads"], row["head_dim"]),
        row["weights"], row["kv"], row["input_tokens"], row["output_tokens"], row["batch"] or None, row["gpu_count"])
    return found["throughput"]


def test_every_run_names_a_catalogue_gpu_an_https_source_and_a_quoted_excerpt():
    for row in DATA["training"] + DATA["serving"]:
        assert row["gpu"] in GPUS, row["name"]
        assert row["source"].startswith("https://") and len(row["excerpt"]) > 10, row["name"]
        assert row["set"] in ("calibration", "held_out") and row["read_on"], row["name"]


def test_the_held_out_set_has_dense_and_mixture_of_experts_training_and_serving_where_people_plan():
    held_training = [row for row in DATA["training"] if row["set"] == "held_out"]
    held_serving = [row for row in DATA["serving"] if row["set"] == "held_out"]
    assert any(row.get("active_billion_params") for row in held_training)
    assert any(not row.get("active_billion_params") for row in held_training)
    at_load = [row for row in held_serving if row["batch"] == 0 or row["batch"] >= 32]
    assert len(at_load) >= 12
    assert {row["gpu"] for row in at_load} >= {"h100-sxm", "h200", "a100-sxm", "mi300x"}
    assert {row["gpu_count"] for row in at_load} >= {1, 2, 4, 8}
    assert {row["weights"] for row in at_load} >= {"fp8", "bf16"}
    assert len({row["engine"] for row in at_load}) >= 2
    assert any(row["input_tokens"] >= 5000 for row in at_load) and any(row["input_tokens"] <= 128 for row in at_load)


def test_the_calibration_and_held_out_sets_are_apart():
    """No held-out run repeats a calibration run's inputs."""
    keys = ("name", "weights", "kv", "input_tokens", "output_tokens", "batch", "gpu", "gpu_count", "engine")
    calibration = {tuple(row[key] for key in keys) for row in DATA["serving"] if row["set"] == "calibration"}
    assert not [row for row in DATA["serving"] if row["set"] == "held_out"
                and tuple(row[key] for key in keys) in calibration]


@pytest.mark.parametrize("run", TRAINING, ids=lambda run: run.name)
def test_training_estimates_equal_the_independent_computation(run):
    check = check_training(run, GPUS[run.gpu], sizing_method("full_adam"))
    row = next(row for row in DATA["training"] if row["name"] == run.name)
    assert abs(check.estimate / Fraction(expected_training_hours(row)) - 1) < Fraction(1, 10**9)
    ratio = Decimal(expected_training_hours(row)) / Decimal(row["published_gpu_hours"])
    print(f"{run.name} ({run.set}): estimate ÷ published = {ratio:.3f}")
    if run.set == HELD_OUT:
        assert TRAINING_BAND[0] <= ratio <= TRAINING_BAND[1], (run.name, ratio)


@pytest.mark.parametrize("index", range(len(SERVING)), ids=lambda index: f"{SERVING[index].name} {index}")
def test_serving_estimates_equal_the_independent_computation_and_the_held_out_land_in_their_band(index):
    run, row = SERVING[index], DATA["serving"][index]
    check = check_serving(run, GPUS[run.gpu])
    expected = expected_serving_speed(row)
    assert abs(check.estimate / Fraction(expected) - 1) < Fraction(1, 10**9)
    ratio = expected / Decimal(row["published_tokens_per_second"])
    print(f"{run.name} on {run.gpu} × {run.gpu_count} ({run.set}): estimate ÷ published = {ratio:.3f}")
    band = DECODE_BAND if row["batch"] == 1 else SERVING_BAND
    if run.set == HELD_OUT:
        assert band[0] <= ratio <= band[1], (run.name, run.gpu, ratio)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("answer, table", [("training", "training"), ("inference", "serving")])
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
            estimate = expected_training_hours(expected) if table == "training" else expected_serving_speed(expected)
            published = Decimal(expected["published_gpu_hours" if table == "training" else
                                         "published_tokens_per_second"])
            ratio_cell = cells[4 if table == "training" else 8].squashed_text
            assert ratio_cell == format_number(estimate / published, 2), expected["name"]
            assert row.find("a", href=expected["source"]) is not None
            if table == "serving":
                excerpt = row.find("q")
                assert excerpt.attrs["lang"] == "en" and excerpt.squashed_text[:20] == " ".join(
                    expected["excerpt"].split())[:20]


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



SERVING_DATA = tomllib.loads((Path(__file__).resolve().parents[2] / "estimator" / "data" / "serving.toml")
                             .read_text(encoding="utf-8"))


@pytest.mark.parametrize("language", ["es", "pt", "de"])
def test_the_serving_figures_bases_and_the_runs_notes_are_in_the_page_language(client, launch_content, language):
    """Apart from the quoted excerpts (marked English), no note of a run and no basis of a serving figure is left in
    English on the inference tab."""
    document = parse(client.get(url_in(language, "estimator:calculator", {"answer": "inference"})).content)
    runs = document.find("section", class_="published-runs")
    for quote in runs.find_all("q"):
        assert quote.attrs["lang"] == "en"
    notes = {row["note"] for row in DATA["serving"] if row.get("note")}
    bases = {SERVING_DATA["memory"]["utilization_basis"], SERVING_DATA["memory"]["max_sequences_basis"],
             SERVING_DATA["step"]["overhead_basis"], SERVING_DATA["step"]["step_basis"],
             *(row["basis"] for row in SERVING_DATA["platform"] + SERVING_DATA["weights"])}
    cells = " ".join(row.cells()[-1].squashed_text for row in runs.find("table").rows()[1:])
    assumptions = document.find("section", class_="assumptions").squashed_text
    with translation.override(language):
        for text in notes:
            assert text not in cells, text
        for text in bases:
            assert text not in assumptions, text
