"""The cost estimator's rules (catalog.estimates, catalog.estimator): checked against published training runs
and decode speeds (tests/data/published_figures.toml, each row with its source), property tests
(monotone in tokens and price, utilization inversely proportional to time, exact arithmetic that neither
divides by zero nor overflows at the inputs' limits) and the marks of the cheapest and fastest configurations.
Pure: GPUs come from catalog/data/gpus.csv, not from the database."""
import tomllib
from decimal import Decimal
from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from catalog import sizing
from catalog.loading import read_gpus
from catalog.sizing_methods import SIZING_METHODS, sizing_method
from core.formatting import format_duration, format_gpu_hours, format_usd_estimate, format_usd_rate
from estimator import cost_chart as cost_chart_module
from estimator import formulas as estimates
from estimator.cost_chart import cost_chart
from estimator.estimates import NO_BANDWIDTH, NO_BF16, TOO_SMALL, inference_estimate, training_estimate
from estimator.fit import KVCacheShape, memory_requirement
from estimator.forms import MAX_BILLION_TOKENS, MAX_MODEL_BILLION_PARAMS, WHOLE_NUMBER_RANGES

PUBLISHED = tomllib.loads((Path(__file__).parent / "data" / "published_figures.toml").read_text(encoding="utf-8"))
GPUS = {slug: SimpleNamespace(slug=slug, **values) for slug, values in read_gpus().items()}
TRAINING_BAND = tuple(Fraction(bound) for bound in PUBLISHED["bands"]["training"])
DECODE_BAND = tuple(Fraction(bound) for bound in PUBLISHED["bands"]["decode"])
FULL = sizing_method("full_adam")
TRAINING_METHODS = [method for method in SIZING_METHODS if not method.serves]
INFERENCE_METHODS = [method for method in SIZING_METHODS if method.serves]


@pytest.mark.parametrize("run", PUBLISHED["training"], ids=lambda run: run["model"])
def test_training_estimates_fall_within_the_band_of_published_gpu_hours(run):
    """The estimator's GPU-hours at its defaults for the model card's model, tokens and GPU."""
    gpu = GPUS[run["gpu"]]
    estimate = training_estimate([gpu], Decimal(run["billion_params"]), FULL, Decimal(run["billion_tokens"]))
    row = estimate.rows[0]
    ratio = row.gpu_hours / run["published_gpu_hours"]
    print(f"{run['model']} on {gpu.name}: estimate {float(row.gpu_hours):,.0f} GPU-hours, published "
          f"{run['published_gpu_hours']:,}, ratio {float(ratio):.3f}")
    low, high = TRAINING_BAND
    assert low <= ratio <= high, (run["model"], float(ratio))
    # The independent formula: 6 × N × D ÷ (TFLOPS × 10¹² × 40 %) ÷ 3,600.
    flops = 6 * Fraction(run["billion_params"]) * 10**9 * Fraction(run["billion_tokens"]) * 10**9
    assert row.gpu_hours == flops / (Fraction(gpu.bf16_dense_tflops) * 10**12 * Fraction(2, 5)) / 3600


@pytest.mark.parametrize("run", PUBLISHED["decode"], ids=lambda run: f"{run['model']} {run['gpu']}")
def test_published_decode_speeds_approach_the_ceiling_and_never_exceed_it(run):
    gpu = GPUS[run["gpu"]]
    method = sizing_method("weights_16bit")
    shape = KVCacheShape(run["layers"], run["kv_heads"], run["head_dim"])
    requirement = memory_requirement(Decimal(run["billion_params"]), method, shape, run["context_tokens"], 1)
    row = inference_estimate([gpu], requirement).rows[0]
    assert row.gpu_count == 1 and not row.compute_bound
    ratio = Fraction(run["published_tokens_per_second"]) / row.per_sequence
    print(f"{run['model']} on {gpu.name}: ceiling {float(row.per_sequence):.1f} tokens/s, published "
          f"{run['published_tokens_per_second']}, ratio {float(ratio):.3f}")
    low, high = DECODE_BAND
    assert low <= ratio <= high, (run["model"], gpu.name, float(ratio))
    weights = Fraction(run["billion_params"]) * 2
    kv = Fraction(2 * run["layers"] * run["kv_heads"] * run["head_dim"] * run["context_tokens"] * 2, 10**9)
    assert row.per_sequence == Fraction(gpu.bandwidth_gbs) / (weights + kv)


def test_every_published_figure_names_its_source_and_a_catalogue_gpu():
    for run in PUBLISHED["training"] + PUBLISHED["decode"]:
        assert run["source"].startswith("https://") and run["gpu"] in GPUS


# Properties, over exact inputs within the form's limits.

sizes = st.decimals(min_value=Decimal("0.001"), max_value=MAX_MODEL_BILLION_PARAMS, places=3)
token_counts = st.decimals(min_value=Decimal("0.001"), max_value=MAX_BILLION_TOKENS, places=3)
prices = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("999999.99"), places=2)
utilizations = st.fractions(min_value=estimates.MIN_UTILIZATION, max_value=estimates.MAX_UTILIZATION / 2)
priced_gpus = [gpu for gpu in GPUS.values() if gpu.bf16_dense_tflops is not None]


@hypothesis_settings(max_examples=200, deadline=None)
@given(size=sizes, tokens=token_counts, more=st.decimals(min_value=Decimal("0.001"), max_value=1000, places=3),
       gpu=st.sampled_from(priced_gpus), method=st.sampled_from(TRAINING_METHODS))
def test_cost_and_time_grow_with_tokens(size, tokens, more, gpu, method):
    fewer = training_estimate([gpu], size, method, tokens).rows[0]
    larger = training_estimate([gpu], size, method, tokens + more).rows[0]
    assert larger.gpu_hours > fewer.gpu_hours
    if fewer.cost is not None:
        assert larger.cost > fewer.cost
        assert [c.wall_clock_hours for c in larger.configurations] > [c.wall_clock_hours for c in fewer.configurations]


@hypothesis_settings(max_examples=200, deadline=None)
@given(size=sizes, tokens=token_counts, price=prices, rise=prices, gpu=st.sampled_from(priced_gpus))
def test_cost_grows_with_the_price_and_time_does_not_change(size, tokens, price, rise, gpu):
    cheaper = SimpleNamespace(**{**gpu.__dict__, "price_usd_per_hour": price})
    dearer = SimpleNamespace(**{**gpu.__dict__, "price_usd_per_hour": price + rise})
    low, high = (training_estimate([g], size, FULL, tokens, cluster_size=16384).rows[0] for g in (cheaper, dearer))
    assert low.gpu_hours == high.gpu_hours
    if low.problem is None:
        assert high.cost > low.cost
        assert high.cost / low.cost == Fraction(price + rise) / Fraction(price)


@hypothesis_settings(max_examples=200, deadline=None)
@given(size=sizes, tokens=token_counts, utilization=utilizations, gpu=st.sampled_from(priced_gpus))
def test_doubling_utilization_halves_gpu_hours_wall_clock_time_and_cost(size, tokens, utilization, gpu):
    once, twice = (training_estimate([gpu], size, FULL, tokens, u, 16384).rows[0]
                   for u in (utilization, 2 * utilization))
    assert twice.gpu_hours * 2 == once.gpu_hours
    if once.problem is None:
        assert twice.cost * 2 == once.cost
        for a, b in zip(once.configurations, twice.configurations, strict=True):
            assert b.wall_clock_hours * 2 == a.wall_clock_hours


@hypothesis_settings(max_examples=100, deadline=None)
@given(price=prices, tokens_per_second=st.fractions(min_value=Fraction(1, 1000), max_value=10**9),
       factor=st.integers(min_value=2, max_value=1000))
def test_cost_per_million_tokens_is_inverse_to_speed_and_proportional_to_price(price, tokens_per_second, factor):
    base = estimates.usd_per_million_tokens(price, tokens_per_second)
    assert base == Fraction(price) / (tokens_per_second * 3600) * 10**6
    assert estimates.usd_per_million_tokens(price, tokens_per_second * factor) * factor == base
    assert estimates.usd_per_million_tokens(Fraction(price) * factor, tokens_per_second) == base * factor


EXTREMES = [
    (Decimal("0.001"), Decimal("0.001")), (MAX_MODEL_BILLION_PARAMS, MAX_BILLION_TOKENS),
    (Decimal("0.001"), MAX_BILLION_TOKENS), (MAX_MODEL_BILLION_PARAMS, Decimal("0.001")),
]


@pytest.mark.parametrize("language", ["es", "pt", "de", "en"])
@pytest.mark.parametrize("size, tokens", EXTREMES)
@pytest.mark.parametrize("utilization", [estimates.MIN_UTILIZATION, estimates.MAX_UTILIZATION])
def test_extreme_training_inputs_give_finite_exact_results_that_format(language, size, tokens, utilization):
    estimate = training_estimate(GPUS.values(), size, FULL, tokens, utilization, max(estimates.CLUSTER_SIZES))
    with translation.override(language):
        for row in estimate.rows:
            if row.gpu_hours is not None:
                assert isinstance(row.gpu_hours, Fraction) and row.gpu_hours > 0
                assert format_gpu_hours(row.gpu_hours)
            for configuration in row.configurations:
                assert format_duration(configuration.wall_clock_hours)
                assert format_usd_estimate(configuration.cost)


@pytest.mark.parametrize("language", ["es", "de", "en"])
@pytest.mark.parametrize("size", [Decimal("0.001"), MAX_MODEL_BILLION_PARAMS])
@pytest.mark.parametrize("context_tokens, batch", [
    (WHOLE_NUMBER_RANGES["context"][0], WHOLE_NUMBER_RANGES["batch"][0]),
    (WHOLE_NUMBER_RANGES["context"][1], WHOLE_NUMBER_RANGES["batch"][1]),
])
def test_extreme_inference_inputs_never_fail(language, size, context_tokens, batch):
    high = max(WHOLE_NUMBER_RANGES[name][1] for name in ("layers", "kv_heads", "head_dim"))
    for shape in (KVCacheShape(1, 1, 1), KVCacheShape(high, high, high)):
        for method in INFERENCE_METHODS:
            requirement = memory_requirement(size, method, shape, context_tokens, batch)
            estimate = inference_estimate(GPUS.values(), requirement)
            with translation.override(language):
                for row in estimate.rows:
                    if row.usd_per_million is not None:
                        assert row.usd_per_million > 0 and format_usd_rate(row.usd_per_million)


@pytest.mark.parametrize("call", [
    lambda: estimates.training_flops(0, 1, 6), lambda: estimates.training_flops(1, -1, 6),
    lambda: estimates.training_flops(1, 1, 0), lambda: estimates.gpu_hours(10**20, 0, Fraction(2, 5)),
    lambda: estimates.gpu_hours(10**20, 989, 0), lambda: estimates.gpu_hours(10**20, 989, Fraction(3, 2)),
    lambda: estimates.gpu_hours(0, 989, Fraction(2, 5)), lambda: estimates.wall_clock_hours(10, 0),
    lambda: estimates.wall_clock_hours(10, 1.5), lambda: estimates.training_cost(10, 0),
    lambda: estimates.cluster_counts(48), lambda: estimates.cluster_counts(0),
    lambda: estimates.memory_bound_tokens_per_second(0, 16, 1, 1),
    lambda: estimates.memory_bound_tokens_per_second(1000, 0, 1, 1),
    lambda: estimates.memory_bound_tokens_per_second(1000, 16, -1, 1),
    lambda: estimates.memory_bound_tokens_per_second(1000, 16, 1, 0),
    lambda: estimates.usd_per_million_tokens(1, 0), lambda: estimates.usd_per_million_tokens(-1, 10),
    lambda: estimates.compute_bound_tokens_per_second(0, 8),
])
def test_impossible_inputs_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_a_float_is_refused():
    with pytest.raises(TypeError):
        estimates.training_flops(7.0, 1, 6)


def test_cluster_counts_double_up_to_the_cluster():
    assert estimates.cluster_counts(8) == (1, 2, 4, 8)
    assert estimates.cluster_counts(1) == (1,)
    assert all(estimates.cluster_counts(size)[-1] == size for size in estimates.CLUSTER_SIZES)


def test_lora_and_qlora_count_four_flops_per_parameter_and_token_and_full_training_six():
    size, tokens = Decimal(8), Decimal(1000)
    flops = {method.key: training_estimate([GPUS["h100-sxm"]], size, method, tokens).flops
             for method in TRAINING_METHODS}
    assert flops == {"full_adam": 6 * 8 * 10**21, "lora_16bit": 4 * 8 * 10**21, "qlora_4bit": 4 * 8 * 10**21}


def test_without_tokens_the_compute_optimal_twenty_per_parameter_are_used():
    estimate = training_estimate([GPUS["h100-sxm"]], Decimal(7), FULL)
    assert estimate.billion_tokens == 140 and estimate.utilization == Fraction(2, 5)


def test_the_catalogue_answer_marks_the_cheapest_and_fastest_and_explains_the_rest():
    estimate = training_estimate(GPUS.values(), Decimal(70), FULL, Decimal(15000), cluster_size=4096)
    priced = [row for row in estimate.rows if row.cost is not None]
    assert [row.cost for row in priced] == sorted(row.cost for row in priced)
    assert estimate.cheapest == [priced[0]]
    fastest_time = min(c.wall_clock_hours for c in estimate.configurations)
    assert estimate.fastest and all(c.wall_clock_hours == fastest_time for c in estimate.fastest)
    assert all(c.gpu_count == 4096 for c in estimate.fastest)
    # B200 and B300 publish no dense BF16 figure: no estimate rather than a guess.
    assert {row.gpu.slug for row in estimate.rows if row.problem == NO_BF16} == {"b200", "b300"}
    assert estimate.rows[-1].problem == NO_BF16
    # The fewest GPUs that hold 70 B × 16 bytes = 1,120 GB in 80 % of their memory.
    h100 = next(row for row in estimate.rows if row.gpu.slug == "h100-sxm")
    assert h100.fewest.gpu_count == 32  # 1,120 GB ÷ (80 GB × 0.8) = 17.5: 32 is the next power of two
    assert [c.gpu_count for c in h100.configurations] == [32, 64, 128, 256, 512, 1024, 2048, 4096]


def test_a_cluster_too_small_says_so():
    estimate = training_estimate(GPUS.values(), Decimal(405), FULL, Decimal(15000), cluster_size=8)
    assert all(row.problem in (TOO_SMALL, NO_BF16) for row in estimate.rows)
    assert estimate.cheapest == [] and estimate.fastest == []


def test_inference_reads_the_weights_once_and_each_sequences_cache():
    shape = KVCacheShape(80, 8, 128)
    requirement = memory_requirement(Decimal(70), sizing_method("weights_8bit"), shape, 8192, 16)
    estimate = inference_estimate(GPUS.values(), requirement)
    kv_per_sequence = Fraction(2 * 80 * 8 * 128 * 8192 * 2, 10**9)
    assert estimate.kv_cache_gb_per_sequence == kv_per_sequence
    assert estimate.step_gb == 70 + 16 * kv_per_sequence
    h200 = next(row for row in estimate.rows if row.gpu.slug == "h200")
    assert h200.gpu_count == sizing.fewest_gpus(70 + 16 * kv_per_sequence, GPUS["h200"].memory_gb) == 2
    assert h200.per_sequence == 2 * Fraction(GPUS["h200"].bandwidth_gbs) / (70 + 16 * kv_per_sequence)
    assert h200.aggregate == 16 * h200.per_sequence
    assert h200.usd_per_million == 2 * Fraction(GPUS["h200"].price_usd_per_hour) / (h200.aggregate * 3600) * 10**6
    assert {row.gpu.slug for row in estimate.rows if row.problem == NO_BANDWIDTH} == {"b200", "b300"}
    priced = [row.usd_per_million for row in estimate.rows if row.usd_per_million is not None]
    assert priced == sorted(priced) and estimate.cheapest[0].usd_per_million == priced[0]


def test_a_large_batch_of_short_sequences_is_capped_by_compute():
    requirement = memory_requirement(Decimal(8), sizing_method("weights_16bit"), KVCacheShape(32, 8, 128), 128, 1024)
    row = next(row for row in inference_estimate([GPUS["h100-sxm"]], requirement).rows)
    assert row.compute_bound
    assert row.aggregate == row.gpu_count * Fraction(989) * 10**12 / (2 * 8 * 10**9)


# The cost chart's layout (catalog.cost_chart): log axes over any positive values.

values = st.fractions(min_value=Fraction(1, 10**6), max_value=10**12)


def short(value):
    return f"{float(value):.3g}"


@hypothesis_settings(max_examples=150, deadline=None)
@given(items=st.lists(st.tuples(values, values), min_size=1, max_size=60), data=st.data())
def test_the_cost_chart_keeps_every_mark_and_label_inside_its_plot(items, data):
    ladder = [(Fraction(10) ** n, f"1e{n}") for n in range(-3, 10)]
    named = [(f"GPU {n}", x, y) for n, (x, y) in enumerate(items)]
    highlighted = {index: f"Label {index}" for index in data.draw(
        st.sets(st.integers(min_value=0, max_value=len(items) - 1), max_size=2))}
    layout = cost_chart(named, highlighted, "Time", "Cost", ladder, ladder, short, short)
    plot = layout.plot
    assert plot.right - plot.left >= cost_chart_module.MIN_PLOT_WIDTH
    assert all(plot.left <= point.x <= plot.right and plot.top <= point.y <= plot.bottom for point in layout.points)
    assert [tick.position for tick in layout.x_ticks] == sorted({tick.position for tick in layout.x_ticks})
    y_positions = [tick.position for tick in layout.y_ticks]
    assert y_positions == sorted(set(y_positions), reverse=True)
    # A larger value sits further right (time) or higher (cost): the scales are monotone.
    for a, b in pairwise(layout.points):
        assert (a.x_value < b.x_value) <= (a.x <= b.x) and (a.y_value < b.y_value) <= (a.y >= b.y)
    for label in layout.labels:
        assert label.box.inside(plot)
    assert not any(a.box.overlaps(b.box) for a in layout.labels for b in layout.labels if a is not b)


def test_the_cost_chart_refuses_values_a_log_scale_cannot_show():
    ladder = [(Fraction(1), "1")]
    with pytest.raises(ValueError):
        cost_chart([("a", 0, 1)], {}, "x", "y", ladder, ladder, str, str)
    with pytest.raises(ValueError):
        cost_chart([], {}, "x", "y", ladder, ladder, str, str)
