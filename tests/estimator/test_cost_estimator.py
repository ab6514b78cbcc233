"""The calculator's training and inference answers as pages: the tabs, every GPU's row against an independent
computation from gpus.csv (Decimal arithmetic), the cheapest and fastest marked in words, the chart with one
mark per configuration and its numbers as a table, the assumptions, shareable URLs, localized errors for bad
input (never a 500), and queries that do not grow with the number of GPUs."""
import csv
import re
from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.translation import gettext

from catalog.loading import GPUS_CSV
from core.formatting import format_usd_estimate, format_usd_rate
from estimator.loading import load_model_presets

from .. import expected_estimates
from ..html import parse
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..queries import add_test_gpus, page_queries

with open(GPUS_CSV, newline="", encoding="utf-8") as handle:
    CSV_ROWS = {row["name"]: row for row in csv.DictReader(handle)}
USABLE = Decimal("0.8")
# The number field's own message (core.number_fields), which repeats the text typed.
NUMBER_FIELD = object()


def squash(text):
    return re.sub(r"\s+", " ", text).strip()


def calculator_url(language, **params):
    return url_in(language, "estimator:calculator", params)


def page(client, language, **params):
    response = client.get(calculator_url(language, **params))
    assert response.status_code == 200
    return parse(response.content)


def result_table(document):
    """The GPU rows (a row's warning, spanning the table, is not one)."""
    table = document.find("section", class_="estimate-results").find("table", class_="estimate-table")
    _header, *rows = table.rows()
    return [row for row in rows if row.find("a", class_="gpu-name") is not None]


def row_gpu(row):
    return row.find("a", class_="gpu-name").squashed_text


def marks(row):
    return [mark.squashed_text for mark in row.find_all("strong", class_="estimate-mark")]


def expected_training(size, tokens, bytes_per_parameter, factor, utilization, cluster, within_days=30):
    """(name, GPU-hours, fewest count, cost, rankable, in time) of each priced GPU that fits, in the page's order:
    GPUs that finish within the budget cheapest first, then the others fastest first, then those only impractical
    configurations hold. A configuration beyond the global-batch bound pays for GPUs that add no speed."""
    expected = []
    for name, row in CSV_ROWS.items():
        found = expected_estimates.training_configurations(row, size, tokens, bytes_per_parameter, factor, cluster,
                                                           utilization)
        if not found:
            continue
        price = Decimal(row["price_usd_per_hour"])
        rankable = [item for item in found if item[2] and item[3] == item[0]]
        in_time = [item for item in rankable if item[4] <= within_days * 24]
        if in_time:
            best = min(in_time, key=lambda item: (item[4] * item[0], item[0]))
        elif rankable:
            best = min(rankable, key=lambda item: (item[4], item[0]))
        else:
            best = min(found, key=lambda item: (item[1], item[0]))
        cost = best[4] * best[0] * price
        expected.append((name, best[1], found[0][0], cost, bool(rankable), bool(in_time), best[4]))

    def order(item):
        tier = 2 if not item[4] else 0 if item[5] else 1
        return (tier, item[3] if tier != 1 else item[6], item[1], -Decimal(CSV_ROWS[item[0]]["memory_gb"]), item[0])

    return [item[:6] for item in sorted(expected, key=order)]


def priced_rows(rows, cells):
    return [row for row in rows if len(row.cells()) == cells]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("params, bytes_per_parameter, factor", [
    ({"size": "70", "method": "full_adam", "tokens": "15000", "cluster": "4096"}, 16, 6),
    ({"size": "8", "method": "lora_16bit", "tokens": "1", "mfu": "30", "cluster": "8"}, Decimal("2.5"), 4),
    ({"preset": "llama-3-1-405b", "method": "qlora_4bit", "tokens": "0.5", "cluster": "64"}, 1, 4),
])
def test_training_rows_equal_an_independent_computation(client, launch_content, language, params,
                                                        bytes_per_parameter, factor):
    size = Decimal(params.get("size") or "405")
    utilization = Decimal(params["mfu"]) / 100 if "mfu" in params else None
    expected = expected_training(size, Decimal(params["tokens"]), bytes_per_parameter, factor, utilization,
                                 int(params["cluster"]))
    document = page(client, language, answer="training", **params)
    rows = result_table(document)
    priced = priced_rows(rows, 6)
    assert [row_gpu(row) for row in priced] == [name for name, *_rest in expected]
    with translation.override(language):
        for row, (name, _hours, fewest, cost, _practical, _in_time) in zip(priced, expected, strict=True):
            cells = row.cells()
            assert cells[1].squashed_text == squash(format_usd_estimate(cost)), name
            assert re.match(rf"{fewest}\b", cells[2].squashed_text.replace(".", "").replace(",", "")), name
        if expected[0][5]:
            assert marks(priced[0])[0] == gettext("Cheapest in time")
        assert all(gettext("Cheapest in time") not in marks(row) for row in priced[1:])
        assert gettext("No published dense BF16 figure: no estimate.") not in document.squashed_text
        b200 = next(row for row in priced if row_gpu(row) == "B200")
        derived = gettext("%(value)s (derived from the system figure)").replace("%(value)s", "").strip()
        assert derived in b200.cells()[5].squashed_text


def test_the_training_answer_writes_gpu_hours_as_the_language_does(client, launch_content):
    document = page(client, "de", answer="training", size="405", method="full_adam", tokens="15000", cluster="16384")
    h100 = next(row for row in result_table(document) if row_gpu(row) == "H100 SXM")
    (_count, hours, _practical, _useful, _wall), *_ = expected_estimates.training_configurations(
        CSV_ROWS["H100 SXM"], Decimal(405), Decimal(15000), 16, 6, 16384)
    millions = f"{hours / 10**6:.1f}".replace(".", ",")
    assert h100.cells()[4].squashed_text == f"≈ {millions} Mio. GPU-Stunden"
    assert "Tage" in h100.cells()[3].squashed_text


def test_the_fastest_configuration_is_marked_in_words_and_labelled_on_the_chart(client, launch_content):
    document = page(client, "en", answer="training", size="70", method="full_adam", tokens="15000", cluster="4096")
    rows = result_table(document)
    expected = expected_training(Decimal(70), Decimal(15000), 16, 6, None, 4096)
    speeds = {name: hours / 4096 for name, hours, _fewest, _cost, practical, _in_time in expected if practical}
    quickest = min(speeds.values())
    fastest = [row_gpu(row) for row in rows if "Fastest" in marks(row)]
    assert fastest == sorted(name for name, time in speeds.items() if time == quickest)
    labels = [text.squashed_text for text in document.find("g", class_="cost-chart-label").find_all("text")]
    cheapest = expected[0][0] if expected[0][5] else None  # the cheapest that finishes within the 30-day budget
    assert cheapest is not None
    assert any(label.startswith((f"Cheapest: {cheapest} × 4,096", f"Cheapest and fastest: {cheapest} × 4,096"))
               for label in labels), labels
    assert any(label.startswith((f"Fastest: {fastest[0]}", f"Cheapest and fastest: {fastest[0]}"))
               for label in labels), labels


def test_the_chart_has_one_mark_per_configuration_a_team_would_run_and_its_numbers_as_a_table(client,
                                                                                                launch_content):
    document = page(client, "es", answer="training", size="70", method="full_adam", tokens="15000", cluster="512")
    configurations = sum(
        len([item for item in expected_estimates.training_configurations(
            row, Decimal(70), Decimal(15000), 16, 6, 512) or () if item[2]])
        for row in CSV_ROWS.values() if row["price_usd_per_hour"])
    figure = document.find("figure", class_="chart")
    svg = figure.find("svg")
    assert svg.find("title").squashed_text and svg.find("desc").squashed_text
    assert len(svg.find("g", class_="chart-point").find_all("circle")) == configurations
    data_rows = figure.find("table", class_="chart-data-table").rows()[1:]
    assert len(data_rows) == configurations


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size, weights, kv, input_tokens, output_tokens, batch", [
    ("70", "fp8", "16", 1000, 500, 16), ("8", "bf16", "fp8", 5000, 500, None), ("405", "int4", "16", 128, 2048, 4),
])
def test_inference_rows_equal_an_independent_computation(client, launch_content, language, size, weights, kv,
                                                         input_tokens, output_tokens, batch):
    preset = {"70": ("llama-3-1-70b", 80), "8": ("llama-3-1-8b", 32), "405": ("llama-3-1-405b", 126)}[size]
    expected = []
    for name, row in CSV_ROWS.items():
        found = expected_estimates.serving(row, Decimal(size), None, (preset[1], 8, 128), weights, kv, input_tokens,
                                           output_tokens, batch)
        if found:
            hourly = found["count"] * Decimal(row["price_usd_per_hour"])
            all_in = hourly / (found["throughput"] * 3600) * 10**6
            output = hourly / 3600 * found["step"] / found["batch"] * 10**6
            expected.append((all_in, -found["throughput"], name, output))
    expected.sort()
    query = {"batch": batch} if batch else {}
    document = page(client, language, answer="inference", size=size, weights=weights, kv=kv, shape=preset[0],
                    input=input_tokens, output=output_tokens, **query)
    rows = result_table(document)
    priced = priced_rows(rows, 9)
    assert [row_gpu(row) for row in priced] == [name for _cost, _speed, name, _output in expected]
    with translation.override(language):
        for row, (_cost, _speed, name, output) in zip(priced, expected, strict=True):
            assert row.cells()[1].squashed_text == squash(format_usd_rate(output)), name
        assert marks(priced[0]) == [gettext("Cheapest")]


def test_an_inference_preset_gives_the_model_size(client, launch_content):
    document = page(client, "en", answer="inference", shape="llama-3-1-8b", weights="bf16")
    assert "Estimate for 8 billion parameters" in document.find("h2", id="results-heading").squashed_text


@pytest.mark.parametrize("answer, heading", [
    ("training", "Training time and cost"), ("inference", "Inference cost per million tokens"), ("", "Does it fit?"),
])
def test_tabs_are_links_with_the_current_one_marked(client, launch_content, answer, heading):
    document = page(client, "en", **({"answer": answer} if answer else {}))
    tabs = document.find("nav", class_="calculator-tabs").find_all("a")
    assert [tab.squashed_text for tab in tabs if tab.attrs.get("aria-current") == "page"] == [heading]
    form = document.find("form", class_="calculator-form")
    assert form.attrs["method"] == "get"
    assert document.find("section", class_="calculator-results") is None
    hidden = form.find("input", type="hidden", name="answer")
    assert (hidden.attrs["value"] if hidden else "") == answer


def test_the_assumptions_list_every_formula_number_and_source(client, launch_content):
    training = page(client, "en", answer="training").find("section", class_="assumptions")
    text = training.squashed_text
    for words in ("6 × active parameters × tokens", "4 × parameters × tokens", "20 per parameter", "5%", "80%",
                  "÷ 3,600", "dense BF16 TFLOPS × 10¹² × utilization × scaling kept", "QLoRA also dequantizes",
                  "the system figure ÷ 8", "never ranked cheapest or fastest"):
        assert words in text, words
    for rule in expected_estimates.EFFICIENCY["training_mfu"] + expected_estimates.EFFICIENCY["scaling"]:
        if rule["source"]:
            assert training.find("a", href=rule["source"]) is not None, rule["basis"]
        assert rule["basis"] in text
    inference = page(client, "en", answer="inference").find("section", class_="assumptions")
    text = inference.squashed_text
    for words in ("the longer of the two", "2 × active parameters × prompt tokens",
                  "2 × layers × hidden size × prompt tokens²", "output tokens ÷ (prefill + output tokens × step ÷",
                  "90% of each GPU's memory", "blocks of 16 tokens", "up to 1,024", "1, 2, 4, 8",
                  "1 − (1 − active ÷ total)^batch", "4.85 bits per weight", "4.25 bits per weight",
                  "8 bits per weight", "÷ 3,600 × decode step ÷ sequences at once × 1,000,000"):
        assert words in text, words
    for platform in expected_estimates.SERVING["platform"]:
        assert platform["basis"] in text and inference.find("a", href=platform["source"]) is not None


def test_results_are_shareable_links_in_every_language(client, launch_content):
    params = {"answer": "training", "size": "70", "method": "lora_16bit", "tokens": "100", "mfu": "35",
              "cluster": "64"}
    url = calculator_url("de", **params)
    document = parse(client.get(url).content)
    assert document.find("link", rel="canonical").attrs["href"].endswith(url)
    links = {a.attrs["hreflang"]: a.attrs["href"]
             for a in document.find(class_="language-switcher").find_all("a")}
    assert links["es"] == calculator_url("es", **params)
    assert parse(client.get(links["es"]).content).find("section", class_="estimate-results") is not None


def test_every_input_keys_the_page_cache(client, launch_content, settings):
    settings.PAGE_CACHE_ENABLED = True
    base = {"answer": "training", "size": "70", "method": "full_adam", "tokens": "100", "cluster": "64"}
    first = client.get(calculator_url("en", **base)).content
    second = client.get(calculator_url("en", **{**base, "mfu": "20"})).content
    assert first != second
    inference = {"answer": "inference", "size": "8", "weights": "bf16", "batch": "1"}
    assert client.get(calculator_url("en", **inference)).content != client.get(
        calculator_url("en", **{**inference, "batch": "2"})).content


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("params, field, message", [
    ({"method": "full_adam"}, "size", "Enter the model size, or choose a preset model."),
    ({"size": "abc", "method": "full_adam"}, "size", "Enter the model size as a number, for example 7 or 70."),
    ({"size": "0", "method": "full_adam"}, "size", None),
    ({"size": "-70", "method": "full_adam"}, "size", None),
    ({"size": "1e9", "method": "full_adam"}, "size", NUMBER_FIELD),
    ({"size": "7.12345", "method": "full_adam"}, "size", "Enter at most three decimals."),
    ({"size": "7", "method": "weights_16bit"}, "method", "Choose one of the methods listed."),
    ({"size": "7"}, "method", "Choose a method."),
    ({"size": "7", "method": "full_adam", "tokens": "NaN"}, "tokens",
     "Enter the training tokens as a number of billions, such as 2000."),
    ({"size": "7", "method": "full_adam", "tokens": "0"}, "tokens", None),
    ({"size": "7", "method": "full_adam", "tokens": "9" * 400}, "tokens", NUMBER_FIELD),
    ({"size": "7", "method": "full_adam", "mfu": "4.9"}, "mfu", None),
    ({"size": "7", "method": "full_adam", "mfu": "81"}, "mfu", None),
    ({"size": "7", "method": "full_adam", "mfu": "Infinity"}, "mfu",
     "Enter the utilization as a percentage, such as 40."),
    ({"size": "7", "method": "full_adam", "cluster": "100"}, "cluster", "Choose a cluster size from the list."),
    ({"method": "full_adam", "preset": "gpt-9"}, "preset", "Choose a model from the list."),
    ({"size": "7", "method": "full_adam", "within": "0"}, "within", None),
    ({"size": "7", "method": "full_adam", "sequence": "2000000"}, "sequence", None),
    ({"size": "7", "method": "full_adam", "micro_batch": "0"}, "micro_batch", None),
    ({"size": "7", "method": "full_adam", "checkpointing": "maybe"}, "checkpointing",
     "Choose one of the options listed."),
    ({"size": "7", "method": "full_adam", "optimizer": "sgd"}, "optimizer", "Choose one of the options listed."),
])
def test_bad_training_input_gets_a_localized_message(client, model_presets, language, params, field, message):
    document = page(client, language, answer="training", **params)
    errors = document.by_id(f"id_{field}_error")
    assert errors is not None, params
    with translation.override(language):
        if message is None:  # a range, with its limits in the language's digits
            expected = {
                "size": gettext("Enter a model size above %(min)s and at most %(max)s billion parameters."),
                "tokens": gettext("Enter the training tokens above %(min)s and at most %(max)s billion."),
                "mfu": gettext("Enter a utilization from %(min)s to %(max)s."),
            }.get(field, gettext("Enter a whole number from %(min)s to %(max)s."))
            pattern = re.escape(expected).replace(re.escape("%(min)s"), r"\d+\s?%?").replace(
                re.escape("%(max)s"), r"[\d.,]+\s?%?")
            assert re.fullmatch(pattern, errors.squashed_text), errors.squashed_text
        elif message is NUMBER_FIELD:  # the number field's own message repeats (the start of) what was typed
            assert params[field][:20] in errors.squashed_text, errors.squashed_text
        else:
            assert errors.squashed_text == gettext(message)
    assert document.find("section", class_="calculator-results") is None


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("params, field, message", [
    ({"weights": "bf16"}, "size", "Enter the model size, or choose a preset model shape."),
    ({"size": "7", "weights": "int8"}, "weights", "Choose one of the formats listed."),
    ({"size": "7", "kv": "fp4"}, "kv", "Choose one of the formats listed."),
    ({"size": "7", "weights": "bf16", "batch": "0"}, "batch", None),
    ({"size": "7", "weights": "bf16", "batch": "1025"}, "batch", None),
    ({"size": "7", "weights": "bf16", "input": "9" * 50}, "input", None),
    ({"size": "7", "weights": "bf16", "output": "0"}, "output", None),
    ({"size": "7", "weights": "bf16", "gpus": "3"}, "gpus", "Choose a GPU count from the list."),
])
def test_bad_inference_input_gets_a_localized_message(client, model_presets, language, params, field, message):
    document = page(client, language, answer="inference", **params)
    errors = document.by_id(f"id_{field}_error")
    assert errors is not None, params
    if message is not None:
        with translation.override(language):
            assert errors.squashed_text == gettext(message)
    assert document.find("section", class_="calculator-results") is None


@pytest.fixture
def model_presets(db):
    """The calculator's presets alone: enough for the forms."""
    load_model_presets()


@pytest.mark.parametrize("query", [
    "answer=training&size=%00&method=full_adam", "answer=training&size=7&size=8&method=full_adam&tokens=1&tokens=2",
    "answer=training&size=10000&method=full_adam&tokens=1000000&mfu=5&cluster=16384",
    "answer=training&size=0.001&method=full_adam&tokens=0.001&mfu=80&cluster=16384",
    "answer=inference&size=10000&weights=bf16&input=1048576&output=1048576&batch=1024",
    "answer=inference&size=0.001&weights=int4&shape=custom&layers=1&kv_heads=1&head_dim=1&input=1&output=1&batch=1",
    "answer=inference&size=70&weights=fp8&kv=fp8&gpus=8&input=100000&output=1",
    "answer=training&mfu=٤٠&size=7&method=full_adam", "answer=nothing&size=7&method=full_adam",
    "answer=training&answer=inference&size=7&method=full_adam", "answer=inference&shape=custom&size=7",
])
def test_odd_and_extreme_queries_never_fail(client, launch_content, query):
    response = client.get(calculator_url("en") + "?" + query)
    assert response.status_code == 200


@pytest.mark.parametrize("params", [
    {"answer": "training", "size": "70", "method": "full_adam", "tokens": "15000", "cluster": "4096"},
    {"answer": "inference", "size": "70", "weights": "fp8", "batch": "16"},
    {"answer": "training", "size": "x", "method": "full_adam"},
])
def test_queries_do_not_grow_with_the_number_of_gpus(client, launch_content, params):
    url = calculator_url("de", **params)
    before = page_queries(client, url)
    add_test_gpus(100)
    assert page_queries(client, url) == before
    assert before <= 6, before


@pytest.mark.parametrize("language, typed", [
    ("de", {"size": "8", "tokens": "15.000"}), ("es", {"size": "8", "tokens": "15.000"}),
    ("pt", {"size": "8", "tokens": "15.000"}), ("en", {"size": "8", "tokens": "15,000"}),
    ("de", {"size": "8 Mrd.", "tokens": "15 Bio."}), ("en", {"size": "8B", "tokens": "15T"}),
    ("es", {"size": "8 mil M", "tokens": "15.000"}), ("de", {"size": "8", "tokens": "15000"}),
])
def test_numbers_are_read_as_the_visitor_writes_them_and_links_carry_one_canonical_form(client, launch_content,
                                                                                         language, typed):
    """Fifteen thousand billion tokens, as each language writes it, gives the H100 the same GPU-hours as the
    canonical query; the language switcher's links carry the canonical numbers, which every language reads alike."""
    canonical = page(client, "en", answer="training", method="full_adam", size="8", tokens="15000", cluster="64")
    h100_hours = next(row for row in result_table(canonical) if row_gpu(row) == "H100 SXM").cells()[4].squashed_text
    document = page(client, language, answer="training", method="full_adam", cluster="64", nf=language, **typed)
    row = next(row for row in result_table(document) if row_gpu(row) == "H100 SXM")
    (_count, hours, _practical, _useful, _wall), *_ = expected_estimates.training_configurations(
        CSV_ROWS["H100 SXM"], Decimal(8), Decimal(15000), 16, 6, 64)
    with translation.override("en"):
        assert h100_hours == gettext("≈ %(hours)s GPU-hours") % {"hours": f"{hours:,.0f}"[:3] + ",000"}
    links = {a.attrs["hreflang"]: a.attrs["href"] for a in document.find(class_="language-switcher").find_all("a")}
    for other, href in links.items():
        assert "tokens=15000" in href and "size=8&" in href and "nf=" not in href, href
        shared = parse(client.get(href).content)
        other_row = next(row for row in result_table(shared) if row_gpu(row) == "H100 SXM")
        assert other_row.cells()[4].squashed_text.replace(".", ",").replace(" ", "")[:5] == \
            row.cells()[4].squashed_text.replace(".", ",").replace(" ", "")[:5], other


@pytest.mark.parametrize("language, typed, understood", [
    ("de", "1.5", "1,5"), ("en", "1.500,5", "1,500.5"), ("es", "15.00", None),
])
def test_a_number_written_the_other_way_is_refused_with_what_was_understood(client, launch_content, language, typed,
                                                                            understood):
    document = page(client, language, answer="training", method="full_adam", size="8", tokens=typed, nf=language)
    error = document.by_id("id_tokens_error")
    assert error is not None and typed in error.squashed_text
    if understood:
        assert understood in error.squashed_text
    assert document.find("section", class_="estimate-results") is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_fine_tuning_input_full_training_does_not_use_is_named_not_dropped(client, launch_content, language):
    document = page(client, language, answer="training", size="7", method="full_adam", tokens="100", examples="10")
    with translation.override(language):
        label = str(gettext("Fine-tuning examples"))
        assert label in document.find("section", id="results").squashed_text
    lora = page(client, language, answer="training", size="7", method="lora_16bit", examples="10")
    with translation.override(language):
        assert gettext("Not used for this answer: %(fields)s. The fine-tuning data set applies to LoRA and QLoRA "
                       "when no training tokens are entered.").split("%(fields)s")[0].strip() not in (
            lora.find("section", id="results").squashed_text)


def test_the_memory_inputs_change_the_answer(client, launch_content):
    base = page(client, "en", answer="training", size="8", method="full_adam", tokens="1")
    longer = page(client, "en", answer="training", size="8", method="full_adam", tokens="1", sequence="32768",
                  checkpointing="off", optimizer="adam_8bit")
    need = expected_estimates.training_memory_gb(Decimal(8), "full_adam", 1, 32768, 1, False, "adam_8bit")
    text = longer.find("section", id="results").squashed_text
    assert text != base.find("section", id="results").squashed_text
    assert "activation checkpointing off" in text and f"{need:.0f}"[:2] in text.replace(",", "")
