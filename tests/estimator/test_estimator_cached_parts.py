"""What the calculator works out once and reuses (estimator/page_parts.py, caching/fragments.py, the estimator's
shared per-rule figures) gives what a fresh computation gives: the same markup in every language and after an
editor's change, the same form fields as Django renders them, and the same exact figures as a plain per-GPU-count
computation of the rules."""
import math
import re
from decimal import Decimal
from fractions import Fraction
from types import SimpleNamespace

import pytest
from django.core.cache import caches
from django.forms import BoundField
from django.http import QueryDict
from django.utils import translation
from hypothesis import assume, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from caching import content_version
from catalog.loading import read_gpus
from catalog.models import GPU
from catalog.sizing_methods import SIZING_METHODS
from charts.cost_chart import log_scale
from core.exact_numbers import exact
from estimator import formulas
from estimator.efficiency import efficiency_model
from estimator.forms import InferenceForm, TrainingForm
from estimator.page_parts import calculator_parts
from estimator.published_runs import published_runs
from estimator.training import training_estimate, useful_replicas
from estimator.training_memory import FITS, fit_status, memory_figures, step_floor_hours, training_memory

from ..languages import LANGUAGES
from ..localized_urls import url_in

QUERIES = [
    {"size": "70", "method": "full_adam"},
    {"size": "7,5", "method": "qlora_4bit"},
    {"answer": "training", "size": "70", "method": "full_adam", "tokens": "15000", "cluster": "4096"},
    {"answer": "training", "preset": "deepseek-v3", "method": "lora_16bit", "examples": "1000"},
    {"answer": "inference", "size": "70", "method": "weights_8bit", "shape": "llama-3-1-70b", "batch": "16"},
    {"answer": "inference", "shape": "mixtral-8x7b", "method": "weights_4bit", "context": "2048"},
]


def page(client, language, query):
    response = client.get(url_in(language, "estimator:calculator", query))
    assert response.status_code == 200
    return re.sub(r'nonce="[^"]+"', 'nonce=""', response.content.decode())


def test_memoised_parts_equal_a_fresh_render_in_every_language(client, launch_content):
    """Each page is first rendered with nothing cached (a new content version, no field cached); rendered again
    after every other language and tab filled the memos, it is the same."""
    fresh = {}
    for language in LANGUAGES:
        for index, query in enumerate(QUERIES):
            content_version.bump_content_version()
            caches["memory"].clear()
            fresh[language, index] = page(client, language, query)
    for language in reversed(LANGUAGES):
        for index, query in reversed(list(enumerate(QUERIES))):
            assert page(client, language, query) == fresh[language, index], (language, query)


def test_an_editors_change_reaches_every_memoised_part(client, launch_content):
    decode_gpus = {run.gpu for run in published_runs()[1]}
    gpu = GPU.objects.filter(slug__in=decode_gpus, price_usd_per_hour__isnull=False).first()
    fits, training, inference = (url_in("en", "estimator:calculator", QUERIES[i]) for i in (0, 2, 4))
    before = {address: client.get(address).content.decode() for address in (fits, training, inference)}
    assert all(gpu.name in body for body in before.values())
    old_name = gpu.name
    gpu.name = "Renamed Accelerator"
    gpu.save()  # an admin save: the content version moves on
    for address in (fits, training, inference):
        body = client.get(address).content.decode()
        assert "Renamed Accelerator" in body, address
        assert re.search(rf">{re.escape(old_name)}<", body) is None, address
    # The published runs (on the inference tab) name the catalogue's GPU of each serving run.
    runs = client.get(inference).content.decode().split('id="published-runs-heading"')[1]
    assert "Renamed Accelerator ×" in runs


FIELD_QUERIES = [
    (TrainingForm, "size=70&method=full_adam&tokens=15000&cluster=4096"),
    (TrainingForm, "size=70&method=full_adam&tokens=15.000&cluster=4096&nf=de"),
    (TrainingForm, "size=70&method=full_adam&tokens=15.000&cluster=4096&nf=en"),
    (TrainingForm, "size=abc&method=full_adam&tokens=15000&cluster=7"),
    (TrainingForm, "size=&preset=&method=lora_16bit&mfu=95"),
    (TrainingForm, "size=20000&active=30000&method=nothing"),
    (InferenceForm, "size=70&method=weights_8bit&shape=llama-3-1-70b&context=8192&batch=16"),
    (InferenceForm, "size=70&method=weights_8bit&shape=custom&layers=80&context=0&batch=99999"),
    (InferenceForm, "shape=nothing&method=weights_16bit"),
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_cached_fields_equal_djangos_own_rendering(launch_content, language):
    """Every field of every query, rendered through the memo after all the others filled it, is what Django's own
    bound field renders (same form class and names, other values, errors and languages in between)."""
    presets = calculator_parts().presets
    with translation.override(language):
        for form_class, query in FIELD_QUERIES + FIELD_QUERIES[::-1]:
            form = form_class(QueryDict(query), presets=presets)
            form.is_valid()
            for name, field in form.fields.items():
                cached = form[name]
                plain = BoundField(form, field, name)
                assert cached.as_field_group() == plain.as_field_group(), (query, name)
                assert str(cached) == str(plain), (query, name)
        unbound = TrainingForm(presets=presets)
        for name, field in unbound.fields.items():
            assert unbound[name].as_field_group() == BoundField(unbound, field, name).as_field_group()


# Exact arithmetic: the estimator works each scaling rule out once per GPU; a plain computation does it per count.

GPUS = [SimpleNamespace(slug=slug, **values) for slug, values in read_gpus().items()]
TRAINING_METHODS = [method for method in SIZING_METHODS if not method.serves]


def per_count_configurations(gpu, flops, utilization, size, method, counts, model, tokens):
    """(count, utilization, GPU-hours, wall-clock hours, cost, practical) for every count that holds the model with
    its headroom (training_memory, each count on its own), each computed on its own from the formulas; GPUs beyond the
    global-batch bound are paid for and add no speed."""
    peak = gpu.bf16_dense_tflops if gpu.bf16_dense_tflops is not None else getattr(
        gpu, "bf16_dense_tflops_derived", None)
    if peak is None:
        return None
    base = utilization if utilization is not None else model.training_utilization(gpu).share
    rows = []
    replicas = useful_replicas(memory_figures().default_sequence_tokens, memory_figures().default_micro_batch)
    for count in counts:
        if fit_status(training_memory(size, method.key, count).per_gpu_gb, gpu.memory_gb) != FITS:
            continue
        work = "full" if method.training_flops_per_parameter_token == 6 else "frozen_base"
        rule = model.scaling_rule(model.gpu_class(gpu), count, work)
        effective = exact(base) * rule.figure.share
        hours = formulas.gpu_hours(flops, exact(peak), effective)
        fewest = rows[0][0] if rows else count
        useful = min(count, replicas * fewest)
        wall = hours / useful
        if count > model.gpus_per_node:
            wall = max(wall, step_floor_hours(tokens, size, fewest))
        cost = wall * count * exact(gpu.price_usd_per_hour) if gpu.price_usd_per_hour is not None else None
        rows.append((count, effective, hours, wall, cost, rule.practical and useful == count))
    return rows


@hypothesis_settings(max_examples=60, deadline=None)
@given(size=st.decimals(min_value=Decimal("0.5"), max_value=2000, places=1),
       tokens=st.decimals(min_value=Decimal("0.001"), max_value=100000, places=3),
       method=st.sampled_from(TRAINING_METHODS), cluster=st.sampled_from(formulas.CLUSTER_SIZES),
       utilization=st.none() | st.fractions(min_value=formulas.MIN_UTILIZATION, max_value=formulas.MAX_UTILIZATION))
def test_each_configuration_equals_a_plain_per_count_computation(size, tokens, method, cluster, utilization):
    model = efficiency_model()
    estimate = training_estimate(GPUS, size, method, tokens, utilization, cluster)
    flops = formulas.training_flops(size, tokens, method.training_flops_per_parameter_token)
    counts = formulas.cluster_counts(cluster)
    expected = {gpu.slug: per_count_configurations(gpu, flops, utilization, size, method, counts, model, tokens)
                for gpu in GPUS}
    practical_times = [c[3] for rows in expected.values() if rows for c in rows if c[5]]
    least_time = min(practical_times, default=None)
    for row in estimate.rows:
        wanted = expected[row.gpu.slug]
        got = [(c.gpu_count, c.utilization, c.gpu_hours, c.wall_clock_hours, c.cost, c.rankable)
               for c in row.configurations]
        assert got == (wanted or []), row.gpu.slug
        tied = [c[0] for c in (wanted or []) if c[5] and c[3] == least_time]
        assert [c.fastest for c in row.configurations] == [  # of tied GPU counts, the fewest
            bool(tied) and c[0] == min(tied) for c in (wanted or [])], row.gpu.slug
        for configuration in row.configurations:
            assert all(isinstance(value, Fraction) for value in (
                configuration.gpu_hours, configuration.wall_clock_hours, configuration.utilization))


positive_fractions = st.fractions(min_value=Fraction(1, 10**9), max_value=10**12)


@given(low=positive_fractions, high=positive_fractions, value=positive_fractions,
       length=st.integers(min_value=1, max_value=2000))
def test_the_log_scale_places_a_value_as_the_fraction_formula_does(low, high, value, length):
    if low == high:
        high = low * 2
    # An axis needs ends a float tells apart (an axis's ends are ladder values or the data's extremes, never
    # within a float's rounding of each other): hypothesis once drew 1e-9 and 1e-9 × (1 + 1e-21).
    assume(math.log(high / low) != 0)
    position = log_scale(low, high, length)
    assert position(value) == round(math.log(value / low) / math.log(high / low) * length)


@given(st.decimals(min_value=-10**15, max_value=10**15, places=9) | st.integers() | st.fractions()
       | st.builds(Decimal, st.from_regex(r"\A-?[0-9]{1,6}(\.[0-9]{1,6})?E[+-][0-9]{1,2}\Z")))
def test_exact_numbers_are_those_their_text_reads(value):
    assert exact(value) == Fraction(str(value))
    assert type(exact(value)) is Fraction
