"""The sizing calculator's pure rules (catalog/sizing.py, estimator/fit.py): required memory, KV cache,
the fewest GPUs among 1, 2, 4 and 8, and the order of the configurations. No database, no Django settings.
The deck's rule (catalog/sizing.py) feeds the workload pages' columns; the fit tab counts training memory as the
training tab does (estimator/training_memory.py) and serving memory as the inference tab does (estimator/memory.py).

Expected values are computed here with Decimal arithmetic, independently of the Fractions of the module."""
import ast
import csv
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog.sizing import (
    CALCULATOR_GPU_COUNTS,
    fewest_gpus,
    fits,
    kv_cache_gb,
    largest_model_params,
    required_memory_gb,
)
from estimator.fit import SERVING_FORMATS, KVCacheShape, configurations, memory_requirement, nearest_preset

from .. import expected_estimates
from ..expected_sizing import BYTES_PER_PARAMETER, USABLE_SHARE

SERVING = {"weights_16bit", "weights_8bit", "weights_4bit"}


@dataclass(frozen=True)
class Method:
    """What the calculator needs of a sizing method (catalog.sizing_methods.SizingMethod)."""
    key: str
    bytes_per_parameter: Decimal
    serves: bool


METHODS = {key: Method(key, bytes_, key in SERVING) for key, bytes_ in BYTES_PER_PARAMETER.items()}
GPUS_CSV = Path(__file__).resolve().parents[2] / "catalog" / "data" / "gpus.csv"
with open(GPUS_CSV, newline="", encoding="utf-8") as handle:
    GPU_ROWS = list(csv.DictReader(handle))


def expected_fewest(required, memory):
    for count in (1, 2, 4, 8):
        if required <= count * memory * USABLE_SHARE:
            return count
    return None


def as_decimal(fraction):
    return Decimal(fraction.numerator) / Decimal(fraction.denominator)


# 1. Required memory.


@pytest.mark.parametrize("bytes_", BYTES_PER_PARAMETER.values())
@pytest.mark.parametrize("size", ["7", "8", "70", "405", "0.5", "1.1", "10000"])
def test_required_memory_is_size_times_bytes_per_parameter(bytes_, size):
    assert required_memory_gb(size, bytes_) == Fraction(size) * Fraction(str(bytes_))
    assert as_decimal(required_memory_gb(Decimal(size), bytes_)) == Decimal(size) * bytes_


def test_seven_billion_parameters_of_full_training_need_112_gb():
    assert required_memory_gb(7, 16) == 112


@pytest.mark.parametrize("size", [0, "0", Decimal(-1), -7, Fraction(-1, 2)])
def test_required_memory_refuses_a_model_without_parameters(size):
    with pytest.raises(ValueError):
        required_memory_gb(size, 16)


def test_required_memory_refuses_floats_and_parameters_without_bytes():
    with pytest.raises(TypeError):
        required_memory_gb(7.0, 16)
    with pytest.raises(TypeError):
        required_memory_gb(7, 2.5)
    with pytest.raises(ValueError):
        required_memory_gb(7, 0)


# 2. KV cache.


@pytest.mark.parametrize("layers, kv_heads, head_dim, context, batch, expected_bytes", [
    # Llama 3.1 8B at 8192 tokens: 2 × 32 × 8 × 128 × 8192 × 2 bytes = 1 GiB.
    (32, 8, 128, 8192, 1, 1_073_741_824),
    (80, 8, 128, 8192, 1, 2_684_354_560),
    (126, 8, 128, 8192, 1, 4_227_858_432),
    (80, 8, 128, 131072, 4, 171_798_691_840),
    (1, 1, 1, 1, 1, 4),
])
def test_kv_cache_of_the_presets(layers, kv_heads, head_dim, context, batch, expected_bytes):
    assert kv_cache_gb(layers, kv_heads, head_dim, context, batch) == Fraction(expected_bytes, 10**9)


@pytest.mark.parametrize("bad", [0, -1])
@pytest.mark.parametrize("position", range(5))
def test_kv_cache_refuses_dimensions_below_one(bad, position):
    factors = [32, 8, 128, 8192, 1]
    factors[position] = bad
    with pytest.raises(ValueError):
        kv_cache_gb(*factors)


@pytest.mark.parametrize("bad", [1.0, Decimal(1), "1", True, None])
def test_kv_cache_takes_whole_numbers_only(bad):
    with pytest.raises(TypeError):
        kv_cache_gb(32, 8, 128, bad, 1)


dimensions = st.integers(min_value=1, max_value=2048)


@given(dimensions, dimensions, dimensions, st.integers(min_value=1, max_value=2**21), dimensions)
def test_kv_cache_equals_the_formula_in_decimal(layers, kv_heads, head_dim, context, batch):
    expected = Decimal(2 * layers * kv_heads * head_dim * context * batch * 2) / Decimal(10**9)
    assert as_decimal(kv_cache_gb(layers, kv_heads, head_dim, context, batch)) == expected


@given(dimensions, dimensions, dimensions, st.integers(min_value=1, max_value=2**20), dimensions,
       st.integers(min_value=2, max_value=8))
def test_kv_cache_is_linear_in_context_and_batch(layers, kv_heads, head_dim, context, batch, factor):
    base = kv_cache_gb(layers, kv_heads, head_dim, context, batch)
    assert kv_cache_gb(layers, kv_heads, head_dim, context * factor, batch) == factor * base
    assert kv_cache_gb(layers, kv_heads, head_dim, context, batch * factor) == factor * base


# 3. Fits and the fewest GPUs.


def test_seven_billion_parameters_of_full_training_need_two_80_gb_gpus():
    # 112 GB > 80 × 0.8 = 64 GB on one GPU; 112 ≤ 128 on two.
    assert not fits(112, 80, 1)
    assert fits(112, 80, 2)
    assert fewest_gpus(required_memory_gb(7, 16), 80) == 2


def test_the_boundary_is_inclusive_and_exact():
    # Exactly 80 % of the memory fits; a hair more does not. Floats would blur both.
    assert fits(64, 80, 1)
    assert not fits(Fraction(64) + Fraction(1, 10**12), 80, 1)
    assert fits("12.8", "16", 1) and not fits("12.81", "16", 1)
    assert fewest_gpus(Decimal(128), Decimal("80.0")) == 2
    assert fewest_gpus(Decimal("128.001"), Decimal("80.0")) == 4


def test_fewest_gpus_is_none_beyond_eight():
    assert fewest_gpus(8 * 64 + 1, 80) is None
    assert fewest_gpus(8 * 64, 80) == 8


def test_fewest_gpus_takes_other_counts():
    assert fewest_gpus(100, 80, counts=(3, 1)) == 3
    assert fewest_gpus(100, 80, counts=(1,)) is None


def test_calculator_counts():
    assert CALCULATOR_GPU_COUNTS == (1, 2, 4, 8)



memories = st.decimals(min_value=1, max_value=2000, allow_nan=False, allow_infinity=False, places=1)
requirements = st.decimals(min_value="0.001", max_value=20000, allow_nan=False, allow_infinity=False, places=3)


@given(requirements, memories)
def test_fewest_gpus_equals_an_independent_search(required, memory):
    assert fewest_gpus(required, memory) == expected_fewest(required, memory)


@given(requirements, memories)
def test_fewest_gpus_is_the_smallest_count_that_fits(required, memory):
    count = fewest_gpus(required, memory)
    smaller = [n for n in CALCULATOR_GPU_COUNTS if count is None or n < count]
    assert not any(fits(required, memory, n) for n in smaller)
    if count is not None:
        assert fits(required, memory, count)
        assert all(fits(required, memory, n) for n in CALCULATOR_GPU_COUNTS if n >= count)


@given(requirements, requirements, memories)
def test_more_memory_needed_never_needs_fewer_gpus(a, b, memory):
    small, large = sorted((a, b))
    order = {n: i for i, n in enumerate(CALCULATOR_GPU_COUNTS)}
    small_count, large_count = fewest_gpus(small, memory), fewest_gpus(large, memory)
    if large_count is not None:
        assert small_count is not None and order[small_count] <= order[large_count]


@given(st.sampled_from(list(BYTES_PER_PARAMETER.values())), memories, st.sampled_from(CALCULATOR_GPU_COUNTS))
def test_the_tables_largest_model_fits_the_calculator(bytes_, memory, count):
    # The workload tables' "largest model that fits" on ``count`` GPUs does fit them in the calculator.
    largest = largest_model_params(memory, count, bytes_)
    if largest > 0:
        assert fits(required_memory_gb(largest, bytes_), memory, count)


# 4. The calculator's answer.


@dataclass
class FakeGPU:
    name: str
    memory_gb: Decimal
    price_usd_per_hour: Decimal


@dataclass
class FakePreset:
    slug: str
    name: str
    billion_params: Decimal
    layers: int
    kv_heads: int
    head_dim: int


PRESETS = [
    FakePreset("llama-3-1-8b", "Llama 3.1 8B", Decimal(8), 32, 8, 128),
    FakePreset("llama-3-1-70b", "Llama 3.1 70B", Decimal(70), 80, 8, 128),
    FakePreset("llama-3-1-405b", "Llama 3.1 405B", Decimal(405), 126, 8, 128),
]


@pytest.mark.parametrize("size, preset", [
    ("0.5", "Llama 3.1 8B"), ("7", "Llama 3.1 8B"), ("8", "Llama 3.1 8B"), ("20", "Llama 3.1 8B"),
    ("30", "Llama 3.1 70B"), ("70", "Llama 3.1 70B"), ("160", "Llama 3.1 70B"), ("170", "Llama 3.1 405B"),
    ("10000", "Llama 3.1 405B"),
])
def test_nearest_preset_by_ratio(size, preset):
    assert nearest_preset(PRESETS, Decimal(size)).name == preset


def test_no_preset_without_presets():
    assert nearest_preset([], 7) is None


def test_training_requirement_has_no_kv_cache():
    # The training tab's memory model at its defaults: 7 × 16 bytes of model states, plus the activations.
    requirement = memory_requirement(Decimal(7), METHODS["full_adam"])
    assert requirement.model_gb == 112
    assert abs(as_decimal(requirement.total_gb) - expected_estimates.training_memory_gb("7", "full_adam")) < Decimal(
        "1e-12")
    assert requirement.total_gb > 112
    assert requirement.kv_cache_gb == 0 and not requirement.is_inference


def test_inference_requirement_adds_the_kv_cache_apart():
    shape = KVCacheShape(80, 8, 128)
    requirement = memory_requirement(Decimal(70), METHODS["weights_16bit"], shape, 8192, 1)
    assert requirement.model_gb == 140
    assert requirement.kv_cache_gb == Fraction(2_684_354_560, 10**9)
    assert as_decimal(requirement.total_gb) == Decimal("142.68435456")
    assert requirement.is_inference


def fake_gpus():
    return [FakeGPU(row["name"], Decimal(row["memory_gb"]), Decimal(row["price_usd_per_hour"])) for row in GPU_ROWS]


@pytest.mark.parametrize("size, method", [("7", "full_adam"), ("70", "weights_16bit"), ("405", "weights_4bit"),
                                          ("70", "qlora_4bit"), ("500", "full_adam"), ("1", "weights_8bit")])
def test_configurations_equal_an_independent_computation(size, method):
    """Training: the training tab's memory model at its defaults, with its headroom. Serving: the memory model (the
    engine's usable share, the weights at their format's bits, the paged KV cache of one 8,192-token sequence of
    Llama 3.1 70B's shape)."""
    # Cheapest first; on a tie fewer GPUs, then more memory, then the name. Then those that do not fit.
    serves = METHODS[method].serves
    weights = Decimal(size) * expected_estimates.serving_bits(SERVING_FORMATS[method]) / 8 if serves else None
    fitting, too_small = [], []
    for gpu in fake_gpus():
        if serves:
            row = {"memory_gb": gpu.memory_gb}
            count = next((n for n in (1, 2, 4, 8) if expected_estimates.sequences_that_fit(
                row, n, weights, 80, 8, 128, 2, 8192) >= 1), None)
        else:
            count, _no_headroom = expected_estimates.fit_tab_training(gpu.memory_gb, size, method)
        if count:
            fitting.append((count * gpu.price_usd_per_hour, count, -gpu.memory_gb, gpu.name))
        else:
            too_small.append((-gpu.memory_gb, gpu.name))
    expected = [(name, count, cost) for cost, count, _memory, name in sorted(fitting)]
    expected += [(name, None, None) for _memory, name in sorted(too_small)]
    requirement = (memory_requirement(Decimal(size), METHODS[method], KVCacheShape(80, 8, 128), 8192, 1) if serves
                   else memory_requirement(Decimal(size), METHODS[method]))
    got = configurations(fake_gpus(), requirement)
    assert [(c.gpu.name, c.gpu_count, c.hourly_cost) for c in got] == expected


def test_gpus_that_need_more_than_eight_come_last_most_memory_first():
    got = configurations(fake_gpus(), memory_requirement(500, METHODS["full_adam"]))  # 8000 GB: nothing fits
    assert all(not c.fits for c in got)
    assert [c.gpu.memory_gb for c in got] == sorted((c.gpu.memory_gb for c in got), reverse=True)
    assert got[0].usable_gb == 8 * Fraction(288) * Fraction(19, 20)  # all but the training headroom of 5 %


def test_gpus_without_a_live_price_come_after_the_priced_ones_that_fit():
    gpus = [FakeGPU("Unpriced", Decimal(80), None), FakeGPU("Priced", Decimal(24), Decimal("0.33")),
            FakeGPU("Small", Decimal(1), Decimal("0.01"))]
    got = configurations(gpus, memory_requirement(7, METHODS["full_adam"]))
    assert [(c.gpu.name, c.gpu_count, c.hourly_cost) for c in got] == [
        ("Priced", 8, Decimal("2.64")), ("Unpriced", 2, None), ("Small", None, None),
    ]
    assert got[1].fits and not got[1].fits_one_gpu


def test_seven_billion_full_training_on_h100_sxm_costs_two_gpu_hours():
    got = {c.gpu.name: c for c in configurations(fake_gpus(), memory_requirement(7, METHODS["full_adam"]))}
    h100 = got["H100 SXM"]
    assert (h100.gpu_count, h100.hourly_cost, h100.fits_one_gpu) == (2, Decimal("5.76"), False)
    assert got["H200"].fits_one_gpu  # 141 × 0.95 = 133.95 GB ≥ 112 GB of model states + the activations


@pytest.mark.parametrize("module", ["catalog/sizing", "estimator/fit", "estimator/formulas", "charts/bar_chart"])
def test_the_rules_import_no_django(module):
    source = (Path(__file__).resolve().parents[2] / f"{module}.py").read_text(encoding="utf-8")
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    assert not any(name.split(".")[0] == "django" for name in imported), imported
