"""The cost estimator's rules (estimator.formulas, estimator.training, estimator.inference): the measured efficiencies
applied per GPU class (computed independently in tests/expected_estimates.py), property tests
(monotone in tokens and price, utilization inversely proportional to time, exact arithmetic that neither
divides by zero nor overflows at the inputs' limits) and the marks of the cheapest and fastest configurations.
Pure: GPUs come from catalog/data/gpus.csv, not from the database."""
from decimal import Decimal
from fractions import Fraction
from itertools import pairwise
from types import SimpleNamespace

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from catalog.loading import read_gpus
from catalog.sizing_methods import SIZING_METHODS, sizing_method
from charts import cost_chart as cost_chart_module
from charts.cost_chart import cost_chart
from core.formatting import format_duration, format_gpu_hours, format_usd_estimate, format_usd_rate
from estimator import formulas as estimates
from estimator.efficiency import efficiency_model
from estimator.fit import KVCacheShape
from estimator.forms import MAX_BILLION_TOKENS, MAX_MODEL_BILLION_PARAMS, SERVING_RANGES, WHOLE_NUMBER_RANGES
from estimator.inference import Request, inference_estimate
from estimator.serving_data import serving_data
from estimator.training import NO_BF16, TOO_SMALL, training_estimate

from .. import expected_estimates
from ..languages import LANGUAGES

GPUS = {slug: SimpleNamespace(slug=slug, **values) for slug, values in read_gpus().items()}
FULL = sizing_method("full_adam")
TRAINING_METHODS = [method for method in SIZING_METHODS if not method.serves]
INFERENCE_METHODS = [method for method in SIZING_METHODS if method.serves]


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
    fewer = training_estimate([gpu], size, method, tokens, cluster_size=16384).rows[0]
    larger = training_estimate([gpu], size, method, tokens + more, cluster_size=16384).rows[0]
    if fewer.problem is not None:  # a model too large for the GPU's cluster: no time at all
        assert larger.problem == fewer.problem
        return
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
    """Within one node (beyond it, the network's step floor does not shrink with the utilization)."""
    once, twice = (training_estimate([gpu], size, FULL, tokens, u, 8).rows[0]
                   for u in (utilization, 2 * utilization))
    if once.problem is None:
        assert twice.gpu_hours * 2 == once.gpu_hours
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


@pytest.mark.parametrize("language", LANGUAGES)
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
@pytest.mark.parametrize("tokens, batch", [
    (SERVING_RANGES["input"][0], SERVING_RANGES["batch"][0]), (SERVING_RANGES["input"][1], SERVING_RANGES["batch"][1]),
    (SERVING_RANGES["input"][0], None),
])
def test_extreme_inference_inputs_never_fail(language, size, tokens, batch):
    high = max(WHOLE_NUMBER_RANGES[name][1] for name in ("layers", "kv_heads", "head_dim"))
    for shape in (KVCacheShape(1, 1, 1), KVCacheShape(high, high, high)):
        for weights in serving_data().weights:
            for kv in serving_data().kv_cache:
                request = Request(size, size, shape, weights.key, kv.key, tokens, tokens, batch)
                estimate = inference_estimate(GPUS.values(), request)
                with translation.override(language):
                    for row in estimate.rows:
                        if row.usd_per_million_output is not None:
                            assert row.usd_per_million_output > 0 and format_usd_rate(row.usd_per_million_output)
                            assert row.usd_per_million_input > 0 and format_usd_rate(row.usd_per_million_input)


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


def test_without_tokens_full_training_takes_twenty_per_parameter_and_fine_tuning_a_data_set():
    estimate = training_estimate([GPUS["h100-sxm"]], Decimal(7), FULL)
    assert estimate.billion_tokens == 140 and estimate.utilization is None
    default = expected_estimates.EFFICIENCY["fine_tuning_default"]
    for key in ("lora_16bit", "qlora_4bit"):
        tuned = training_estimate([GPUS["h100-sxm"]], Decimal(70), sizing_method(key))
        assert tuned.billion_tokens == Fraction(
            default["examples"] * default["tokens_per_example"] * default["epochs"], 10**9)


def test_a_qlora_fine_tune_of_a_70b_model_on_the_defaults_takes_hours_or_days_not_years():
    estimate = training_estimate(GPUS.values(), Decimal(70), sizing_method("qlora_4bit"), cluster_size=8)
    h100 = next(row for row in estimate.rows if row.gpu.slug == "h100-sxm")
    # 4 FLOPs × 70e9 × the default data set's tokens ÷ (989 TFLOPS × 30 %); a 4-bit base of 70 B (36.1 GB), its
    # adapters and activations hold on one 80 GB H100, as the QLoRA paper's 65 B held on one 48 GB card.
    default = expected_estimates.EFFICIENCY["fine_tuning_default"]
    tokens = default["examples"] * default["tokens_per_example"] * default["epochs"]
    hours = Fraction(4 * 70 * 10**9 * tokens) / (Fraction(989) * 10**12 * Fraction(3, 10)) / 3600
    assert h100.fewest.gpu_count == 1 and h100.fewest.gpu_hours == hours
    expected = expected_estimates.training_memory_gb(Decimal(70), "qlora_4bit")
    assert abs(h100.fewest.memory_gb / Fraction(expected) - 1) < Fraction(1, 10**9)
    assert Fraction(1, 60) < h100.fewest.wall_clock_hours < 24 * 14  # between a minute and two weeks
    assert all(c.wall_clock_hours < 24 * 30 for row in estimate.rows for c in row.practical_configurations)


@pytest.mark.parametrize("slug", sorted(GPUS))
def test_each_gpu_is_classed_as_its_link_and_memory_say(slug):
    row = expected_estimates.CSV_ROWS[GPUS[slug].name]
    assert efficiency_model().gpu_class(GPUS[slug]) == expected_estimates.gpu_class(row)


def test_the_classes_are_those_of_the_launch_gpus():
    classes = {slug: efficiency_model().gpu_class(gpu) for slug, gpu in GPUS.items()}
    assert {slug for slug, cls in classes.items() if cls == "consumer"} == {"rtx-4090", "rtx-5090"}
    assert {slug for slug, cls in classes.items() if cls == "scale_up"} == {
        "b300", "b200", "mi325x", "mi300x", "h200", "h100-sxm", "a100-sxm"}


@pytest.mark.parametrize("size, tokens", [(Decimal(30), Decimal(600)), (Decimal("65.2"), Decimal(1400)),
                                          (Decimal(405), Decimal(15000))])
@pytest.mark.parametrize("cluster", [512, 4096, 16384])
def test_no_consumer_or_pcie_card_is_ranked_for_multi_node_pretraining_without_a_warning(size, tokens, cluster):
    estimate = training_estimate(GPUS.values(), size, FULL, tokens, cluster_size=cluster)
    pcie = {slug for slug, gpu in GPUS.items() if efficiency_model().gpu_class(gpu) != "scale_up"}
    for row in estimate.rows:
        for configuration in row.configurations:
            if row.gpu.slug in pcie and configuration.gpu_count > 8:
                assert not configuration.practical and not configuration.fastest
    assert all(row.gpu.slug not in pcie or row.practical for row in estimate.cheapest)
    assert all(c.gpu.slug not in pcie or c.gpu_count <= 8 for c in estimate.fastest)
    assert estimate.cheapest and estimate.fastest


@pytest.mark.parametrize("slug", ["h100-sxm", "rtx-4090", "l40s", "b200", "mi300x"])
@pytest.mark.parametrize("size, tokens", [(Decimal(8), Decimal(1000)), (Decimal(70), Decimal(2000))])
def test_cost_is_gpu_hours_times_the_price_within_one_percent(slug, size, tokens):
    row = training_estimate([GPUS[slug]], size, FULL, tokens, cluster_size=16384).rows[0]
    expected = expected_estimates.training_configurations(
        expected_estimates.CSV_ROWS[GPUS[slug].name], size, tokens, 16, 6, 16384)
    for configuration, (count, hours, practical, useful, wall) in zip(row.configurations, expected, strict=True):
        assert (configuration.gpu_count, configuration.practical, configuration.useful_gpus) == (count, practical,
                                                                                               useful)
        assert abs(configuration.gpu_hours / Fraction(hours) - 1) < Fraction(1, 10**9)
        assert abs(configuration.wall_clock_hours / Fraction(wall) - 1) < Fraction(1, 10**9)
        price = Fraction(GPUS[slug].price_usd_per_hour)
        # Every GPU rented is paid for the whole run, also those the bounds leave waiting.
        assert abs(configuration.cost / (Fraction(wall) * count * price) - 1) < Fraction(1, 100)


def test_a_mixture_of_experts_counts_active_parameters_for_compute_and_all_for_memory():
    dense = training_estimate([GPUS["h100-sxm"]], Decimal(671), FULL, Decimal(14800), cluster_size=16384)
    moe = training_estimate([GPUS["h100-sxm"]], Decimal(671), FULL, Decimal(14800), cluster_size=16384,
                            active_billion_params=Decimal(37))
    assert dense.required_gb == moe.required_gb and dense.memory.model_states_gb == 671 * 16
    assert moe.flops * 671 == dense.flops * 37
    assert moe.rows[0].gpu_hours * 671 == dense.rows[0].gpu_hours * 37
    with pytest.raises(ValueError):
        training_estimate([GPUS["h100-sxm"]], Decimal(37), FULL, active_billion_params=Decimal(671))


def test_b200_and_b300_are_estimated_from_their_derived_figures_and_say_so():
    estimate = training_estimate(GPUS.values(), Decimal(70), FULL, Decimal(15000), cluster_size=4096)
    assert not [row for row in estimate.rows if row.problem == NO_BF16]
    for slug in ("b200", "b300"):
        row = next(row for row in estimate.rows if row.gpu.slug == slug)
        assert row.peak_derived and row.peak_tflops == Fraction(GPUS[slug].bf16_dense_tflops_derived)


def test_the_catalogue_answer_marks_the_cheapest_and_fastest_among_practical_configurations():
    estimate = training_estimate(GPUS.values(), Decimal(70), FULL, Decimal(15000), cluster_size=4096)
    practical = [row for row in estimate.rows if row.practical and row.cost is not None]
    assert [row.cost for row in practical] == sorted(row.cost for row in practical)
    assert estimate.cheapest == [practical[0]]
    fastest_time = min(c.wall_clock_hours for c in estimate.configurations if c.practical)
    assert estimate.fastest and all(c.wall_clock_hours == fastest_time for c in estimate.fastest)
    assert all(c.gpu_count == 4096 for c in estimate.fastest)
    # 70 B × 16 bytes = 1,120 GB of model states, sharded: 70 GB each on 16 H100s, with under 1 GB of activations
    # (split over 8 by tensor parallelism), leaves the 5 % headroom of 80 GB.
    h100 = next(row for row in estimate.rows if row.gpu.slug == "h100-sxm")
    assert h100.fewest.gpu_count == 16
    assert [c.gpu_count for c in h100.configurations] == [16, 32, 64, 128, 256, 512, 1024, 2048, 4096]


def test_a_cluster_too_small_says_so():
    estimate = training_estimate(GPUS.values(), Decimal(405), FULL, Decimal(15000), cluster_size=8)
    assert all(row.problem in (TOO_SMALL, NO_BF16) for row in estimate.rows)
    assert estimate.cheapest == [] and estimate.fastest == []


LLAMA_70B, LLAMA_8B, LLAMA_405B = KVCacheShape(80, 8, 128), KVCacheShape(32, 8, 128), KVCacheShape(126, 8, 128)


def serve(slugs, size, shape, weights, kv, input_tokens, output_tokens, batch=None, gpus=None, active=None):
    request = Request(Decimal(size), Decimal(active or size), shape, weights, kv, input_tokens, output_tokens, batch,
                      gpus)
    return inference_estimate([GPUS[slug] for slug in slugs], request)


def expected_serving(slug, size, shape, weights, kv, input_tokens, output_tokens, batch=None, gpus=None,
                     active=None):
    return expected_estimates.serving(
        expected_estimates.CSV_ROWS[GPUS[slug].name], Decimal(size), Decimal(active) if active else None,
        (shape.layers, shape.kv_heads, shape.head_dim), weights, kv, input_tokens, output_tokens, batch, gpus)


@pytest.mark.parametrize("slug", sorted(GPUS))
@pytest.mark.parametrize("size, shape, weights, kv, tokens, batch", [
    (70, LLAMA_70B, "fp8", "16", (1000, 500), 16), (8, LLAMA_8B, "bf16", "fp8", (5000, 500), None),
    (405, LLAMA_405B, "int4", "16", (128, 2048), 64), (70, LLAMA_70B, "q4_k_m", "16", (0, 1024), 1),
])
def test_every_gpus_serving_equals_the_independent_computation(slug, size, shape, weights, kv, tokens, batch):
    row = serve([slug], size, shape, weights, kv, *tokens, batch).rows[0]
    expected = expected_serving(slug, size, shape, weights, kv, *tokens, batch)
    if expected is None:
        assert row.result is None
        return
    assert row.gpu_count == expected["count"] and row.result.batch == expected["batch"]
    assert row.plan.batch_that_fits == expected["fits"]
    assert abs(row.result.output_tokens_per_second / Fraction(expected["throughput"]) - 1) < Fraction(1, 10**9)
    if row.hourly_cost is not None:
        hourly = row.gpu_count * Fraction(GPUS[slug].price_usd_per_hour)
        assert row.usd_per_million_all_in == hourly / (row.result.output_tokens_per_second * 3600) * 10**6
        assert row.usd_per_million_output == hourly / 3600 * row.result.step_seconds / row.result.batch * 10**6


def test_fp8_weights_are_eight_bits_and_int4_formats_their_real_bits():
    bits = {item.key: item.bits for item in serving_data().weights}
    assert bits == {"bf16": 16, "fp8": 8, "int4": Fraction(17, 4), "q4_k_m": Fraction(97, 20)}
    assert serve(["h100-sxm"], 70, LLAMA_70B, "fp8", "16", 1000, 500).weights_gb == 70


def test_a_long_prompt_costs_more_per_output_token_as_published_runs_show():
    """TensorRT-LLM on one H100, Llama 3.1 8B FP8: 17,660 tokens/s at 500/2,000 tokens and 3,459 at 5,000/500 (5.1
    times fewer); the estimate differs about as much, not the 1.3 times of a decode-only count."""
    short = serve(["h100-sxm"], "8.03", LLAMA_8B, "fp8", "fp8", 500, 2000).rows[0].result.output_tokens_per_second
    long = serve(["h100-sxm"], "8.03", LLAMA_8B, "fp8", "fp8", 5000, 500).rows[0].result.output_tokens_per_second
    assert 3 < short / long < 8


def test_serving_at_load_is_near_the_published_runs_the_issue_names():
    """Llama 3.3 70B FP8 on two H100 and 405B FP8 on eight at maximum load, and 8B FP8 at batch 256 on one H100."""
    seventy = serve(["h100-sxm"], "70.6", LLAMA_70B, "fp8", "fp8", 500, 2000, gpus=2).rows[0]
    assert 0.6 < seventy.result.output_tokens_per_second / 5222 < 1.6
    big = serve(["h100-sxm"], "405.9", LLAMA_405B, "fp8", "fp8", 500, 2000, gpus=8).rows[0]
    assert 0.6 < big.result.output_tokens_per_second / 3994 < 1.6
    assert serve(["h100-sxm"], "8.03", LLAMA_8B, "fp8", "fp8", 128, 2048, batch=256).rows[0].gpu_count == 1


def test_memory_is_reserved_as_engines_do():
    """405B FP8 fits eight H100 at batch 64; Llama 2 7B at batch 64 of 128-token prompts and answers (LMDeploy's
    run) fits one A100, its cache paged, not reserved for the whole context window; the usable share is vLLM's."""
    assert serving_data().memory_utilization == Fraction(9, 10)
    assert serve(["h100-sxm"], 405, LLAMA_405B, "fp8", "16", 1000, 1000, batch=64).rows[0].gpu_count == 8
    assert serve(["a100-sxm"], "6.74", KVCacheShape(32, 32, 128), "bf16", "16", 128, 128,
                 batch=64).rows[0].gpu_count == 1


@pytest.mark.parametrize("size, shape", [(8, LLAMA_8B), (70, LLAMA_70B)])
def test_a_bandwidth_bound_decode_never_beats_a_gpu_of_its_generation_with_more_bandwidth(size, shape):
    """One sequence, no prompt, on one GPU or the fewest that hold it: every pair of GPUs of one architecture."""
    estimate = serve(sorted(GPUS), size, shape, "bf16", "16", 0, 256, batch=1)
    speeds = {row.gpu.slug: (row.gpu_count, row.result.output_tokens_per_second) for row in estimate.rows
              if row.result is not None}
    checked = 0
    for slug, (count, speed) in speeds.items():
        for other, (other_count, other_speed) in speeds.items():
            gpu, faster = GPUS[slug], GPUS[other]
            if (gpu.architecture == faster.architecture and count == other_count
                    and estimate.rows[0].result is not None
                    and (faster.bandwidth_gbs or faster.bandwidth_gbs_derived)
                    > (gpu.bandwidth_gbs or gpu.bandwidth_gbs_derived)):
                assert other_speed >= speed, (slug, other)
                checked += 1
    assert checked >= 3


def test_a_mixture_of_experts_at_batch_one_reads_only_its_active_experts():
    shape = KVCacheShape(61, 1, 288)
    one = serve(["h200"], 671, shape, "int4", "16", 1000, 500, batch=1, active=37)
    assert one.weights_gb == 671 * Fraction(17, 4) / 8
    assert one.weights_read_gb == 37 * Fraction(17, 4) / 8


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


# Training memory and the time budget (issue 47).

RUN_SHAPES = [(Decimal("1.24"), Decimal(20)), (Decimal(8), Decimal(1000)), (Decimal(70), Decimal(2000)),
              (Decimal(405), Decimal(15000))]


@pytest.mark.parametrize("method", TRAINING_METHODS, ids=lambda method: method.key)
@pytest.mark.parametrize("size, tokens", RUN_SHAPES)
@pytest.mark.parametrize("checkpointing, optimizer", [(True, "adam"), (False, "adam_8bit")])
def test_no_configuration_of_any_gpu_is_shown_fitting_with_less_than_the_stated_headroom(method, size, tokens,
                                                                                          checkpointing, optimizer):
    """Every GPU, every method: each configuration shown needs, by the independent computation, at most its GPU's
    memory less the headroom; the count below the fewest, when the memory fills the card beyond the headroom, is
    named as leaving none, not shown as fitting."""
    headroom = Decimal(expected_estimates.EFFICIENCY["training_memory"]["headroom_share"])
    estimate = training_estimate(GPUS.values(), size, method, tokens, cluster_size=4096,
                                 checkpointing=checkpointing, optimizer=optimizer)
    for row in estimate.rows:
        memory = Decimal(row.gpu.memory_gb)
        for configuration in row.configurations:
            need = expected_estimates.training_memory_gb(size, method.key, configuration.gpu_count,
                                                         checkpointing=checkpointing, optimizer=optimizer)
            assert need <= memory * (1 - headroom), (row.gpu.slug, configuration.gpu_count, need)
            assert abs(configuration.memory_gb / Fraction(need) - 1) < Fraction(1, 10**9)
        if row.no_headroom is not None:
            count, _need = row.no_headroom
            need = expected_estimates.training_memory_gb(size, method.key, count, checkpointing=checkpointing,
                                                         optimizer=optimizer)
            assert memory * (1 - headroom) < need <= memory
            assert all(c.gpu_count > count for c in row.configurations)


def test_a_small_model_that_fills_a_card_is_named_as_leaving_no_headroom():
    """A full fine-tune whose need lands between the card less its headroom and the whole card is not a fit."""
    rtx = GPUS["rtx-4090"]
    # 1.4 B at the defaults: 22.4 GB of model states and 0.7 GB of activations, above 95 % of 24 GB.
    estimate = training_estimate([rtx], Decimal("1.4"), FULL, Decimal(1), cluster_size=8)
    row = estimate.rows[0]
    need = expected_estimates.training_memory_gb(Decimal("1.4"), "full_adam", 1)
    assert Decimal(24) * Decimal("0.95") < need <= 24
    assert row.no_headroom is not None and row.no_headroom[0] == 1 and row.fewest.gpu_count == 2


@pytest.mark.parametrize("size, tokens, cluster", [
    (Decimal(7), Decimal(1000), 64), (Decimal(1), None, 16384), (Decimal(70), Decimal(15000), 4096),
    (Decimal(8), Decimal(15000), 16384),
])
@pytest.mark.parametrize("within_days", [1, 30, 365])
def test_nothing_marked_cheapest_or_fastest_breaks_the_time_budget_or_a_sourced_bound(size, tokens, cluster,
                                                                                        within_days):
    """The cheapest finishes within the budget; no mark goes to a configuration beyond the largest published global
    batch (one sequence per model replica) or to PCIe and consumer cards beyond one node; the time of any configuration
    is at least what the global batch allows (GPU-hours ÷ the useful GPUs)."""
    estimate = training_estimate(GPUS.values(), size, FULL, tokens, cluster_size=cluster, within_days=within_days)
    replicas = expected_estimates.useful_replicas()
    for row in estimate.cheapest:
        assert row.best.wall_clock_hours <= within_days * 24 and row.best.rankable
        assert row.best.cost == min(r.cost for r in estimate.rows if r.in_time and r.cost is not None)
    for configuration in estimate.fastest:
        assert configuration.rankable and configuration.practical
    for row in estimate.rows:
        if not row.configurations:
            continue
        fewest = row.fewest.gpu_count
        tokens_ = Decimal(estimate.billion_tokens.numerator) / estimate.billion_tokens.denominator
        floor = expected_estimates.step_floor_hours(size, tokens_, fewest)
        for configuration in row.configurations:
            useful = min(configuration.gpu_count, replicas * fewest)
            assert configuration.useful_gpus == useful
            assert configuration.wall_clock_hours >= configuration.gpu_hours / useful
            if configuration.gpu_count > 8:  # beyond one node: never under the network's step floor
                assert configuration.wall_clock_hours >= Fraction(floor) * (1 - Fraction(1, 10**9))
            if configuration.fastest or (row.cheapest and configuration is row.best):
                assert configuration.gpu_count <= replicas * fewest


def test_seven_billion_on_a_trillion_tokens_recommends_what_finishes_in_a_month_not_years():
    """Issue 47's case: 7 B on 1 T tokens on up to 64 GPUs within 30 days: eight RTX 6000 Ada (about 618 days) are
    not the pick."""
    estimate = training_estimate(GPUS.values(), Decimal(7), FULL, Decimal(1000), cluster_size=64, within_days=30)
    (cheapest,) = estimate.cheapest
    assert cheapest.best.wall_clock_hours <= 30 * 24
    slow = next(row for row in estimate.rows if row.gpu.slug == "rtx-6000-ada")
    assert not slow.in_time and not slow.cheapest
    assert estimate.rows.index(slow) > estimate.rows.index(cheapest)


def test_a_one_billion_model_on_sixteen_thousand_gpus_is_not_faster_than_the_global_batch_allows():
    estimate = training_estimate(GPUS.values(), Decimal(1), FULL, cluster_size=16384, within_days=30)
    replicas = expected_estimates.useful_replicas()
    for configuration in estimate.configurations:
        assert configuration.useful_gpus <= replicas * next(
            row.fewest.gpu_count for row in estimate.rows if row.gpu is configuration.gpu)
    assert all(c.gpu_count <= replicas for c in estimate.fastest)
    b200 = next(row for row in estimate.rows if row.gpu.slug == "b200")
    largest = b200.largest
    assert largest.gpu_count == 16384 and largest.bounded and not largest.fastest
    floor = expected_estimates.step_floor_hours(Decimal(1), Decimal(20), 1)  # 20 B tokens: Chinchilla's default
    expected = max(largest.gpu_hours / replicas, Fraction(floor))
    assert abs(largest.wall_clock_hours / expected - 1) < Fraction(1, 10**9)
    # 1,192 steps of 16 M tokens, each at least 4 GB ÷ 50 GB/s: about a minute and a half, not seconds.
    assert min(c.wall_clock_hours for c in estimate.configurations) * 3600 > 90


def test_the_optimizer_and_checkpointing_change_the_memory_as_their_bytes_say():
    adam = training_estimate([GPUS["h100-sxm"]], Decimal(8), FULL, Decimal(1)).memory
    eight_bit = training_estimate([GPUS["h100-sxm"]], Decimal(8), FULL, Decimal(1), optimizer="adam_8bit").memory
    assert adam.model_states_gb == 8 * 16 and eight_bit.model_states_gb == 8 * 10
    stored = training_estimate([GPUS["h100-sxm"]], Decimal(8), FULL, Decimal(1), checkpointing=False).memory
    assert stored.activations_gb > adam.activations_gb
    qlora = training_estimate([GPUS["h100-sxm"]], Decimal(70), sizing_method("qlora_4bit"), Decimal(1)).memory
    assert qlora.weights_gb == 70 * Fraction("0.515875")  # (4 + 0.127) ÷ 8 bytes, as the QLoRA paper counts


def test_each_scaling_factor_is_applied_only_to_the_work_it_was_measured_on():
    """The PCIe factor measured on LoRA scales LoRA, not full training; the consumer figures, measured on full
    training over a misconfigured rental, are never ranked; a count or kind of work no run measured is never ranked."""
    model = efficiency_model()
    for rule in model.scaling:
        if "LoRA" in rule.figure.basis and rule.gpu_class != "*":
            assert rule.work == "frozen_base"
    lora = training_estimate(GPUS.values(), Decimal(8), sizing_method("lora_16bit"), Decimal(1), cluster_size=8)
    full = training_estimate(GPUS.values(), Decimal(8), FULL, Decimal(1), cluster_size=8)
    pcie = next(row for row in lora.rows if row.gpu.slug == "a100-pcie")
    assert any(c.gpu_count > 1 and c.rankable and c.utilization == Fraction(30, 100) * Fraction(9, 10)
               for c in pcie.configurations)
    pcie_full = next(row for row in full.rows if row.gpu.slug == "a100-pcie")
    assert all(not c.rankable for c in pcie_full.configurations if c.gpu_count > 1)
    for estimate in (lora, full):
        for row in estimate.rows:
            if efficiency_model().gpu_class(row.gpu) == "consumer":
                assert all(not c.rankable and not c.fastest for c in row.configurations if c.gpu_count > 1)


def test_cdna_3_training_is_rated_from_a_published_training_comparison_not_the_spec_ratio():
    """One MI300X trains an 8B model 1.32–1.40 times slower than one H200 (published): the estimate keeps the MI300X
    below the H200's training rate although its BF16 peak is 1.32 times higher."""
    model = efficiency_model()
    mi300x, h200 = model.training_utilization(GPUS["mi300x"]), model.training_utilization(GPUS["h200"])
    assert "MI300X-vs-H200" in mi300x.source and "H200 1.32–1.40 times faster" in mi300x.basis
    rate = {slug: Fraction(GPUS[slug].bf16_dense_tflops) * figure.share
            for slug, figure in (("mi300x", mi300x), ("h200", h200))}
    assert Fraction(132, 100) <= rate["h200"] / rate["mi300x"] <= Fraction(140, 100)
