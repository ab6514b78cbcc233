"""Tests for catalog.sizing: the deck's fit cells, the rounding steps, exactness and properties.

Pure Python: no database, no Django settings needed. The bytes per parameter of the deck's methods are
written here, independently of the registry (catalog.sizing_methods), which one test checks against them.
"""
import csv
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog.sizing import (
    decode_tokens_per_second_ceiling,
    largest_model_params,
    nice_floor,
    usable_memory_gb,
)
from catalog.sizing_methods import SIZING_METHODS

ROOT = Path(__file__).resolve().parents[2]
DECK_DIR = ROOT / "tests" / "deck"
GPUS_CSV = ROOT / "catalog" / "data" / "gpus.csv"

# Bytes per parameter by method, as the workload pages' notes state them.
BYTES_PER_PARAMETER = {
    "full_adam": Fraction(16),
    "lora_16bit": Fraction(5, 2),
    "qlora_4bit": Fraction(1),
    "weights_16bit": Fraction(2),
    "weights_8bit": Fraction(1),
    "weights_4bit": Fraction(1, 2),
}
SERVING_METHODS = ["weights_16bit", "weights_8bit", "weights_4bit"]  # inference; the others train
# Fit columns of the deck, by their header in each language: (method, number of GPUs).
FIT_COLUMNS = {
    "Entrenamiento completo, 1 GPU": ("full_adam", 1),
    "Entrenamiento completo, 8 GPU": ("full_adam", 8),
    "Treino completo, 1 GPU": ("full_adam", 1),
    "Treino completo, 8 GPU": ("full_adam", 8),
    "Volltraining, 1 GPU": ("full_adam", 1),
    "Volltraining, 8 GPUs": ("full_adam", 8),
    "QLoRA, modelo base": ("qlora_4bit", 1),
    "LoRA 16 bits, modelo base": ("lora_16bit", 1),
}
# "≈ 110 mil M" (es, pt) or "≈ 9 Mrd." (de); a dot inside the number would be a thousands separator.
FIT_CELL = re.compile(r"^≈\s+(?P<n>\d{1,3}(?:\.\d{3})*|\d+)\s+(?:mil M|Mrd\.)$")


def load_gpus():
    with GPUS_CSV.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def split_row(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def read_tables(path):
    """Every Markdown table of a deck file as (header, data rows); a table is a run of "|" lines."""
    tables, block = [], []
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("|"):
            block.append(split_row(line))
            continue
        if block:
            header, separator, *rows = block
            assert all(set(cell) <= set("-: ") for cell in separator), f"{path.name}: no separator row"
            tables.append((header, rows))
            block = []
    return tables


def match_gpu(cell, gpus):
    """The gpus.csv row whose name is the longest prefix of the cell ("B300Blackwell Ultra")."""
    candidates = [row for row in gpus if cell.startswith(row["name"])]
    assert candidates, f"no GPU in gpus.csv prefixes {cell!r}"
    return max(candidates, key=lambda row: len(row["name"]))


def collect_fit_cells():
    """(cases, number of "≈" cells found in all tables), cases being pytest params."""
    gpus = load_gpus()
    cases, approx_cells = [], 0
    deck_files = sorted(DECK_DIR.glob("*.txt"))
    assert deck_files, f"no deck files in {DECK_DIR}"
    for path in deck_files:
        for header, rows in read_tables(path):
            fit_columns = {i: FIT_COLUMNS[name] for i, name in enumerate(header) if name in FIT_COLUMNS}
            for row in rows:
                assert len(row) == len(header), f"{path.name}: ragged row {row}"
                approx_cells += sum(cell.startswith("≈") for cell in row)
                if not fit_columns:
                    continue
                gpu = match_gpu(row[0], gpus)
                for i, (method, gpu_count) in fit_columns.items():
                    cases.append(
                        pytest.param(
                            gpu["memory_gb"],
                            gpu_count,
                            method,
                            row[i],
                            id=f"{path.name}-{gpu['name']}-{header[i]}",
                        )
                    )
    return cases, approx_cells


FIT_CASES, APPROX_CELLS_IN_DECK = collect_fit_cells()


# 1. The content deck.


@pytest.mark.parametrize(("memory_gb", "gpus", "method", "cell"), FIT_CASES)
def test_deck_fit_cell_is_reproduced(memory_gb, gpus, method, cell):
    match = FIT_CELL.match(cell)
    assert match, f"not a fit cell: {cell!r}"
    expected = int(match["n"].replace(".", ""))
    assert largest_model_params(memory_gb, gpus, BYTES_PER_PARAMETER[method]) == expected


def test_every_fit_cell_of_the_deck_is_checked():
    # Every "≈" cell sits in a known fit column, so none escapes the parametrized test.
    assert len(FIT_CASES) == APPROX_CELLS_IN_DECK
    assert len(FIT_CASES) >= 54


def test_deck_gpu_cells_are_name_plus_architecture():
    gpus = load_gpus()
    for path in sorted(DECK_DIR.glob("*.txt")):
        for header, rows in read_tables(path):
            if not any(name in FIT_COLUMNS for name in header):
                continue
            for row in rows:
                gpu = match_gpu(row[0], gpus)
                assert row[0] == gpu["name"] + gpu["architecture"], f"{path.name}: {row[0]!r}"


# 2. Step boundaries and accepted types.

BOUNDARIES = [
    ("9.99", 9),
    ("10", 10),
    ("99.9", 95),
    ("100", 100),
    ("0.5", 0),
    ("14.99", 10),
    ("15", 15),
    ("109.99", 100),
    ("110", 110),
    ("0", 0),
    ("9", 9),
    ("99", 95),
    ("1000", 1000),
]


def representations(text):
    forms = [text, Decimal(text), Fraction(text)]
    value = Fraction(text)
    if value.denominator == 1:
        forms.append(int(value))
    return forms


@pytest.mark.parametrize(("text", "expected"), BOUNDARIES, ids=[text for text, _ in BOUNDARIES])
def test_nice_floor_steps(text, expected):
    for value in representations(text):
        result = nice_floor(value)
        assert result == expected, f"{value!r} ({type(value).__name__})"
        assert type(result) is int


@pytest.mark.parametrize("value", [10.0, 9.99, 0.0, 100.0, -1.0])
def test_nice_floor_rejects_floats(value):
    with pytest.raises(TypeError):
        nice_floor(value)


def test_floats_are_rejected_in_sizing_inputs():
    with pytest.raises(TypeError):
        largest_model_params(80.0, 1, 16)
    with pytest.raises(TypeError):
        largest_model_params(80, 1, 2.5)
    with pytest.raises(TypeError):
        usable_memory_gb(80.0)
    with pytest.raises(TypeError):
        decode_tokens_per_second_ceiling(3350.0, 8, 2)
    with pytest.raises(TypeError):
        decode_tokens_per_second_ceiling(3350, 8, 0.5)


@pytest.mark.parametrize("value", [-1, "-0.5", Decimal("-0.01"), Fraction(-1, 3), "-100"])
def test_nice_floor_rejects_negatives(value):
    with pytest.raises(ValueError):
        nice_floor(value)


# 3. Where binary floating point would go wrong.


def test_exact_arithmetic_keeps_a_boundary_that_float_loses():
    # A100 PCIe bandwidth over a 38.7 B model in 4 bits is exactly 100 tokens/s ...
    assert Fraction(1935) / (Fraction("38.7") * Fraction(1, 2)) == 100
    # ... but in float it lands a hair below, which would print "≈ 95" instead of "≈ 100".
    as_float = 1935 / (38.7 * 0.5)
    assert as_float < 100
    assert nice_floor(Fraction(as_float)) == 95
    assert decode_tokens_per_second_ceiling(1935, "38.7", Fraction(1, 2)) == 100
    assert decode_tokens_per_second_ceiling(1935, Decimal("38.7"), Decimal("0.5")) == 100


def test_exact_arithmetic_keeps_a_small_step_boundary_that_float_loses():
    as_float = 1935 / (38.7 * 2)
    assert as_float < 25
    assert nice_floor(Fraction(as_float)) == 20
    assert decode_tokens_per_second_ceiling(1935, "38.7", 2) == 25
    assert decode_tokens_per_second_ceiling(1935, "77.4", 1) == 25


def test_decimal_strings_are_read_without_float_rounding():
    assert 0.3 / 0.1 < 3
    assert nice_floor(Fraction("0.3") / Fraction("0.1")) == 3
    # 12.5 GB × 0.8 ÷ 1 is exactly 10: the step boundary must give 10, not 9.
    assert largest_model_params("12.5", 1, 1) == 10
    assert largest_model_params(Decimal("12.5"), 1, "1") == 10
    assert largest_model_params(Fraction(25, 2), 1, Fraction(1)) == 10
    # 12.5 GB × 0.8 ÷ 0.4 is exactly 25, though 0.4 has no exact float.
    assert largest_model_params("12.5", 1, "0.4") == 25


# 4. Properties.

values = st.one_of(
    st.fractions(min_value=0, max_value=10**6),
    st.decimals(min_value=0, max_value=10**6, allow_nan=False, allow_infinity=False, places=4),
    st.integers(min_value=0, max_value=10**6),
)
memories = st.one_of(
    st.fractions(min_value=0, max_value=2000, max_denominator=1000),
    st.decimals(min_value=0, max_value=2000, allow_nan=False, allow_infinity=False, places=3),
)
gpu_counts = st.integers(min_value=1, max_value=1024)
# Any memory per parameter from an eighth of a byte (1-bit weights) to 32 bytes, the deck's among them.
bytes_per_parameter = st.one_of(
    st.sampled_from(sorted(set(BYTES_PER_PARAMETER.values()))),
    st.fractions(min_value=Fraction(1, 8), max_value=32, max_denominator=100),
    st.decimals(min_value="0.125", max_value=32, allow_nan=False, allow_infinity=False, places=2),
)


def step_for(value):
    return 1 if value < 10 else 5 if value < 100 else 10


def as_fraction(value):
    return value if isinstance(value, (int, Fraction)) else Fraction(str(value))


@given(values)
def test_nice_floor_is_a_multiple_of_its_step_just_below_the_value(value):
    exact_value = as_fraction(value)
    result = nice_floor(value)
    step = step_for(exact_value)
    assert result % step == 0
    assert result <= exact_value
    assert exact_value - result < step


@given(values)
def test_nice_floor_is_idempotent(value):
    once = nice_floor(value)
    assert nice_floor(once) == once


@given(values, values)
def test_nice_floor_is_monotonic(a, b):
    a, b = sorted((as_fraction(a), as_fraction(b)))
    assert nice_floor(a) <= nice_floor(b)


@given(memories, memories, gpu_counts, bytes_per_parameter)
def test_fit_is_monotonic_in_memory(a, b, gpus, bytes_):
    a, b = sorted((a, b), key=as_fraction)
    assert largest_model_params(a, gpus, bytes_) <= largest_model_params(b, gpus, bytes_)


@given(memories, gpu_counts, gpu_counts, bytes_per_parameter)
def test_fit_is_monotonic_in_gpus(memory, a, b, bytes_):
    a, b = sorted((a, b))
    assert largest_model_params(memory, a, bytes_) <= largest_model_params(memory, b, bytes_)


@given(memories, gpu_counts, bytes_per_parameter, bytes_per_parameter)
def test_fit_decreases_with_bytes_per_parameter(memory, gpus, a, b):
    a, b = sorted((a, b), key=as_fraction)
    # a needs no more bytes per parameter than b, so at least as large a model fits.
    assert largest_model_params(memory, gpus, a) >= largest_model_params(memory, gpus, b)


@given(memories, gpu_counts, bytes_per_parameter)
def test_more_gpus_never_fit_a_smaller_model(memory, gpus, bytes_):
    assert largest_model_params(memory, gpus + 1, bytes_) >= largest_model_params(memory, gpus, bytes_)
    assert largest_model_params(memory, gpus, bytes_) >= largest_model_params(memory, 1, bytes_)


@given(memories, gpu_counts, bytes_per_parameter)
def test_fit_follows_the_rule(memory, gpus, bytes_):
    exact_fit = as_fraction(memory) * gpus * Fraction(4, 5) / as_fraction(bytes_)
    result = largest_model_params(memory, gpus, bytes_)
    assert result <= exact_fit < result + step_for(exact_fit)


# 5. Decode speed ceiling and errors.


def test_decode_ceiling_h100():
    # 3350 GB/s over 8 B params × 2 bytes = 209.375 tokens/s, shown as 200.
    assert decode_tokens_per_second_ceiling(3350, 8, 2) == 200
    assert decode_tokens_per_second_ceiling("3350", Decimal(8), Decimal(2)) == 200


def test_decode_ceiling_rtx_4090():
    # 1008 / 16 = 63, shown as 60.
    assert decode_tokens_per_second_ceiling(1008, 8, 2) == 60


@pytest.mark.parametrize("params", [0, "0", Decimal(0), Fraction(0), -1])
def test_decode_ceiling_needs_weights(params):
    with pytest.raises(ValueError):
        decode_tokens_per_second_ceiling(3350, params, 2)


@pytest.mark.parametrize("bytes_", [0, "0", Decimal("-0.5"), Fraction(-1, 2)])
def test_a_parameter_takes_more_than_zero_bytes(bytes_):
    with pytest.raises(ValueError, match="more than zero bytes"):
        largest_model_params(80, 1, bytes_)
    with pytest.raises(ValueError, match="more than zero bytes"):
        decode_tokens_per_second_ceiling(3350, 8, bytes_)


def test_the_registry_holds_these_methods():
    # The one test that lists the registry's methods: a new method adds its line to BYTES_PER_PARAMETER.
    assert [method.key for method in SIZING_METHODS] == list(BYTES_PER_PARAMETER)
    assert {method.key: method.bytes_per_parameter for method in SIZING_METHODS} == BYTES_PER_PARAMETER
    assert all(isinstance(method.bytes_per_parameter, Fraction) for method in SIZING_METHODS)
    assert [method.key for method in SIZING_METHODS if method.serves] == SERVING_METHODS


@pytest.mark.parametrize("gpus", [0, -1])
def test_at_least_one_gpu(gpus):
    with pytest.raises(ValueError):
        largest_model_params(80, gpus, 16)
    with pytest.raises(ValueError):
        usable_memory_gb(80, gpus)


# 6. Usable memory.


def test_usable_memory_is_exactly_four_fifths():
    assert usable_memory_gb(80) == 64
    assert usable_memory_gb(80) == Fraction(64)
    assert isinstance(usable_memory_gb(80), Fraction)
    assert usable_memory_gb("141", 8) == Fraction(4512, 5)
