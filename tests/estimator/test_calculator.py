"""The sizing calculator's page: results against an independent computation (Decimal arithmetic, from
gpus.csv), the deck's own fits, the KV cache apart, the assumptions, linkable results, and a localized form
error for every kind of bad input, never a 500."""
import csv
import re
from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.translation import gettext

from catalog.loading import GPUS_CSV
from catalog.sizing_methods import SIZING_METHODS
from estimator.fit import SERVING_FORMATS
from estimator.loading import load_model_presets, read_model_presets
from estimator.models import ModelPreset

from .. import expected_estimates
from ..deck import deck_pages, squash
from ..html import parse
from ..languages import LANGUAGES
from ..localized_numbers import numbers_in
from ..localized_urls import url_in
from ..queries import add_test_gpus, page_queries

# The model shapes the launch content gives as presets: (layers, KV heads, head dimension).
SHAPES = {"llama-3-1-8b": (32, 8, 128), "llama-3-1-70b": (80, 8, 128), "llama-3-1-405b": (126, 8, 128)}

with open(GPUS_CSV, newline="", encoding="utf-8") as handle:
    CSV_ROWS = list(csv.DictReader(handle))
NAMES = {row["name"] for row in CSV_ROWS}
# The number field's own message (core.number_fields), which repeats the text typed.
NUMBER_FIELD = object()


def three_digits(gigabytes):
    """Memory as the page writes it: three significant digits (37.684 GB is 37.7 GB)."""
    value = Decimal(gigabytes)
    return value.quantize(Decimal(1).scaleb(value.adjusted() - 2)).normalize() + 0


@pytest.fixture
def model_presets(db):
    """The calculator's presets alone: enough for the form, quicker than the whole launch content."""
    load_model_presets()


def calculator_url(language, **params):
    return url_in(language, "estimator:calculator", params)


def expected_configurations(size, method):
    """(name, fewest GPUs or None, hourly cost or None, the no-headroom count or None), cheapest first, those that do
    not fit last: training memory as the training tab counts it at its defaults, with its headroom."""
    fitting, too_small = [], []
    for row in CSV_ROWS:
        memory, price = Decimal(row["memory_gb"]), Decimal(row["price_usd_per_hour"])
        count, no_headroom = expected_estimates.fit_tab_training(memory, size, method)
        if count:
            fitting.append((count * price, count, -memory, row["name"], no_headroom))
        else:
            too_small.append((-memory, row["name"], no_headroom))
    return ([(name, count, cost, no_headroom) for cost, count, _memory, name, no_headroom in sorted(fitting)]
            + [(name, None, None, no_headroom) for _memory, name, no_headroom in sorted(too_small)])


def results(client, language, **params):
    response = client.get(calculator_url(language, **params))
    assert response.status_code == 200
    return parse(response.content)


def result_rows(document):
    table = document.find("section", class_="calculator-results").find("table")
    header, *rows = table.table_rows()
    return header, rows


def row_name(cell):
    return max((name for name in NAMES if cell.startswith(name)), key=len)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size, method", [
    ("7", "full_adam"), ("70", "full_adam"), ("13", "lora_16bit"), ("70", "qlora_4bit"), ("1.5", "full_adam"),
])
def test_training_results_equal_an_independent_computation(client, launch_content, language, size, method):
    """The fit tab counts training memory as the training tab does (its parts, at its defaults) and fits a GPU count
    only when it leaves the headroom free; a count filled beyond it is named, not shown as fitting."""
    share = expected_estimates.fit_share()
    document = results(client, language, size=size, method=method)
    _header, rows = result_rows(document)
    expected = expected_configurations(size, method)
    assert [row_name(row[0]) for row in rows] == [name for name, _count, _cost, _no_headroom in expected]
    with translation.override(language):
        yes, no = gettext("Yes"), gettext("No")
    for row, (name, count, cost, no_headroom) in zip(rows, expected, strict=True):
        _gpu, _memory, one_gpu, gpus, usable, price = row
        assert one_gpu == (yes if count == 1 else no), name
        memory = Decimal(next(r["memory_gb"] for r in CSV_ROWS if r["name"] == name))
        figures = numbers_in(usable, language)
        if count:
            assert numbers_in(gpus, language) == [count]
            assert figures[0] == count * memory * share
            assert numbers_in(price, language) == [cost]
        else:
            assert numbers_in(gpus, language) == [8]  # "more than 8"
        if no_headroom:  # "On 1 GPU it needs 19.9 GB of 20 GB each: no headroom left …"
            assert figures[-3] == no_headroom and figures[-1] == memory, (name, usable)
            assert figures[-2] == three_digits(expected_estimates.training_memory_gb(size, method, no_headroom))
        else:
            assert len(figures) == (1 if count else 2), (name, usable)
    total = document.find("dl", class_="requirement")
    assert numbers_in(total.find_all("dd")[-1].text, language) == [
        three_digits(expected_estimates.training_memory_gb(size, method))]


def expected_serving_configurations(weights, shape, context_tokens, batch):
    """(name, fewest GPUs or None, hourly cost or None) by the memory model, cheapest first, those that do not fit
    last."""
    fitting, too_small = [], []
    for row in CSV_ROWS:
        memory, price = Decimal(row["memory_gb"]), Decimal(row["price_usd_per_hour"])
        count = next((n for n in (1, 2, 4, 8) if expected_estimates.sequences_that_fit(
            row, n, weights, *shape, 2, context_tokens) >= batch), None)
        if count:
            fitting.append((count * price, count, -memory, row["name"]))
        else:
            too_small.append((-memory, row["name"]))
    return ([(name, count, cost) for cost, count, _memory, name in sorted(fitting)]
            + [(name, None, None) for _memory, name in sorted(too_small)])


@pytest.mark.parametrize("language", ["es", "de", "en"])
@pytest.mark.parametrize("size, method, shape, context_tokens, batch", [
    ("8", "weights_16bit", "llama-3-1-8b", 8192, 1),
    ("70", "weights_16bit", "llama-3-1-70b", 8192, 1),
    ("70", "weights_4bit", "llama-3-1-70b", 131072, 4),
    ("405", "weights_8bit", "llama-3-1-405b", 32768, 2),
    ("7", "weights_16bit", "", 4096, 8),  # nearest preset: 8B
    ("30", "weights_8bit", "", 8192, 1),  # nearest preset by ratio: 70B
])
def test_inference_results_add_the_kv_cache_shown_apart(client, launch_content, language, size, method, shape,
                                                        context_tokens, batch):
    used_shape = shape or {"7": "llama-3-1-8b", "30": "llama-3-1-70b"}[size]
    layers, kv_heads, head_dim = SHAPES[used_shape]
    bits = expected_estimates.serving_bits(SERVING_FORMATS[method])
    weights = Decimal(size) * bits / 8
    kv_cache = Decimal(2 * layers * kv_heads * head_dim * context_tokens * batch * 2) / Decimal(10**9)
    document = results(client, language, size=size, method=method, shape=shape, context=context_tokens,
                       batch=batch)
    terms = [dd.text for dd in document.find("dl", class_="requirement").find_all("dd")]
    assert numbers_in(terms[0], language)[-2:] == [(bits / 8).quantize(Decimal("0.001")), three_digits(weights)]
    kv_numbers = numbers_in(terms[1], language)
    assert kv_numbers[:6] == [2, layers, kv_heads, head_dim, context_tokens, batch]
    assert kv_numbers[7] == three_digits(kv_cache)
    assert numbers_in(terms[2], language) == [three_digits(weights + kv_cache)]
    _header, rows = result_rows(document)
    expected = expected_serving_configurations(weights, SHAPES[used_shape], context_tokens, batch)
    assert [row_name(row[0]) for row in rows] == [name for name, _count, _cost in expected]
    for row, (name, count, _cost) in zip(rows, expected, strict=True):
        if count:
            assert numbers_in(row[3], language) == [count], name


def test_custom_model_shape(client, launch_content):
    document = results(client, "en", size="32", method="weights_16bit", shape="custom", layers=64, kv_heads=8,
                       head_dim=128, context=32768, batch=1)
    kv_cache = Decimal(2 * 64 * 8 * 128 * 32768 * 1 * 2) / Decimal(10**9)
    terms = [dd.text for dd in document.find("dl", class_="requirement").find_all("dd")]
    assert numbers_in(terms[2], "en") == [three_digits(64 + kv_cache)]
    assert gettext("Custom shape.") in terms[1]


def test_seven_billion_full_training_needs_more_than_one_80_gb_gpu(client, launch_content):
    # 7 × 16 = 112 GB > 80 GB × 0.8 = 64 GB: two H100 SXM, for 2 × 2.88 $ an hour.
    _header, rows = result_rows(results(client, "en", size="7", method="full_adam"))
    h100 = next(row for row in rows if row_name(row[0]) == "H100 SXM")
    assert h100[2] == "No" and h100[3] == "2"
    assert numbers_in(h100[5], "en") == [Decimal("5.76")]
    for row in rows:
        if row[1] == "80 GB":
            assert row[2] == "No" and row[3] == "2"


# The deck's fit columns: (method, GPUs). Each of the deck's "largest model that fits" cells must fit the
# calculator on that many GPUs of that GPU.
DECK_FIT_COLUMNS = {
    "Entrenamiento completo, 1 GPU": ("full_adam", 1), "Entrenamiento completo, 8 GPU": ("full_adam", 8),
    "Treino completo, 1 GPU": ("full_adam", 1), "Treino completo, 8 GPU": ("full_adam", 8),
    "Volltraining, 1 GPU": ("full_adam", 1), "Volltraining, 8 GPUs": ("full_adam", 8),
    "QLoRA, modelo base": ("qlora_4bit", 1), "LoRA 16 bits, modelo base": ("lora_16bit", 1),
}


def deck_fit_columns():
    for deck in deck_pages():
        header, *rows = deck.table
        for column, heading in enumerate(header):
            if heading in DECK_FIT_COLUMNS:
                cells = [(row_name(row[0]), re.search(r"\d[\d.]*", row[column])[0].replace(".", "")) for row in rows]
                yield pytest.param(deck.language, *DECK_FIT_COLUMNS[heading], cells, id=f"{deck.name[:3]}-{heading}")


@pytest.mark.parametrize("language, method, count, cells", list(deck_fit_columns()))
def test_the_decks_fits_fit_the_calculator(client, launch_content, language, method, count, cells):
    """Each deck cell "≈ N" of a fit column on ``count`` GPUs: an N-billion model fits that many of that GPU."""
    assert cells
    for name, size in cells:
        _header, rows = result_rows(results(client, language, size=size, method=method))
        row = next(row for row in rows if row_name(row[0]) == name)
        assert row[3].isdigit() and int(row[3]) <= count, (name, size, row)
        with translation.override(language):
            assert (row[2] == gettext("Yes")) == (row[3] == "1")


def test_the_result_shows_the_assumptions(client, launch_content):
    document = results(client, "en", size="7", method="full_adam")
    text = squash(document.find("section", class_="assumptions").text)
    for words in ("16 bytes per parameter", "2.5 bytes per parameter", "1 byte per parameter", "FP8, 8 bits per weight",
                  "4.25 bits per weight", "80%", "90%", "blocks of 16 tokens", "1, 2, 4 or 8 GPUs", "FSDP",
                  "2 bytes"):
        assert squash(words) in text, words


def test_the_form_page_has_no_result_and_the_assumptions(client, launch_content):
    document = results(client, "de")
    assert document.find("section", class_="calculator-results") is None
    assert document.find("section", class_="assumptions") is not None
    assert document.find("form").attrs["method"] == "get"


def test_results_are_linkable_and_the_language_switcher_keeps_the_query(client, launch_content):
    url = calculator_url("es", size="70", method="weights_4bit", context=8192, batch=1)
    document = parse(client.get(url).content)
    canonical = document.find("link", rel="canonical").attrs["href"]
    assert canonical.endswith(url)
    switcher = document.find(class_="language-switcher")
    links = {a.attrs["hreflang"]: a.attrs["href"] for a in switcher.find_all("a")}
    assert links["pt"] == calculator_url("pt", size="70", method="weights_4bit", context=8192, batch=1)
    assert client.get(links["pt"]).status_code == 200


def test_the_form_is_accessible(client, launch_content):
    document = results(client, "es", size="abc", method="full_adam")
    form = document.find("form")
    assert form.find_all("fieldset") and all(fieldset.find("legend") for fieldset in form.find_all("fieldset"))
    size = form.find("input", name="size")
    assert size.attrs["inputmode"] == "text"  # "70B" and "1,5T" are understood: a keypad has no letters
    assert size.attrs["aria-invalid"] == "true"
    described = size.attrs["aria-describedby"].split()
    assert "id_size_error" in described and document.by_id("id_size_error") is not None
    for field in form.find_all("input"):
        if field.attrs.get("type") in ("text", None):
            assert form.find("label", for_=field.attrs["id"]) is not None, field


MAX_CONTEXT = 1_048_576


@pytest.mark.parametrize("params, field, message", [
    ({"size": "abc", "method": "full_adam"}, "size", "Enter the model size as a number, for example 7 or 70."),
    ({"size": "", "method": "full_adam"}, "size", "Enter the model size in billions of parameters."),
    ({"size": "-7", "method": "full_adam"}, "size", "The model size must be above zero."),
    ({"size": "0", "method": "full_adam"}, "size", "The model size must be above zero."),
    ({"size": "10000.001", "method": "full_adam"}, "size", None),
    ({"size": "1e9", "method": "full_adam"}, "size", NUMBER_FIELD),
    ({"size": "NaN", "method": "full_adam"}, "size", "Enter the model size as a number, for example 7 or 70."),
    ({"size": "Infinity", "method": "full_adam"}, "size", "Enter the model size as a number, for example 7 or 70."),
    ({"size": "7.12345", "method": "full_adam"}, "size", "Enter the model size with at most three decimals."),
    ({"size": "7", "method": "sgd"}, "method", "Choose one of the methods listed."),
    ({"size": "7"}, "method", "Choose a method."),
    ({"size": "7", "method": "weights_16bit", "context": "0"}, "context", None),
    ({"size": "7", "method": "weights_16bit", "context": str(MAX_CONTEXT + 1)}, "context", None),
    ({"size": "7", "method": "weights_16bit", "context": "lots"}, "context", "Enter a whole number."),
    ({"size": "7", "method": "weights_16bit", "batch": "0"}, "batch", None),
    ({"size": "7", "method": "weights_16bit", "batch": "-3"}, "batch", None),
    ({"size": "7", "method": "weights_16bit", "batch": "5000"}, "batch", None),
    ({"size": "7", "method": "weights_16bit", "batch": "1.5"}, "batch", NUMBER_FIELD),
    ({"size": "7", "method": "weights_16bit", "shape": "gpt-9"}, "shape", "Choose a model shape from the list."),
    ({"size": "7", "method": "weights_16bit", "shape": "custom", "kv_heads": 8, "head_dim": 128}, "layers",
     "Enter this for a custom model shape."),
    ({"size": "7", "method": "weights_16bit", "shape": "custom", "layers": 99999, "kv_heads": 8, "head_dim": 128},
     "layers", None),
])
@pytest.mark.parametrize("language", LANGUAGES)
def test_bad_input_gets_a_localized_message_on_the_form(client, model_presets, language, params, field, message):
    response = client.get(calculator_url(language, **params))
    assert response.status_code == 200
    document = parse(response.content)
    errors = document.by_id(f"id_{field}_error")
    assert errors is not None, params
    with translation.override(language):
        if message is None:  # a range or size limit, with the limits in the language's digits
            expected = {
                "size": gettext("The model size must be at most %(max)s billion parameters."),
                "context": gettext("Enter a whole number from %(min)s to %(max)s."),
                "batch": gettext("Enter a whole number from %(min)s to %(max)s."),
                "layers": gettext("Enter a whole number from %(min)s to %(max)s."),
            }[field]
            pattern = re.escape(expected).replace(re.escape("%(max)s"), r"[\d.,]+").replace(
                re.escape("%(min)s"), r"\d+")
            assert re.fullmatch(pattern, errors.squashed_text), errors.squashed_text
        elif message is NUMBER_FIELD:  # the number field's own message repeats what was typed
            assert params[field] in errors.squashed_text, errors.squashed_text
        else:
            assert errors.squashed_text == gettext(message)
    assert document.find("section", class_="calculator-results") is None


@pytest.mark.parametrize("query", [
    "size=%00&method=full_adam", "size=7&size=8&method=full_adam&method=lora_16bit", "size=" + "9" * 5000,
    "size=7&method=weights_16bit&context=" + "9" * 400, "size=7&method=weights_16bit&batch=" + "9" * 5000,
    "size=١٢&method=full_adam", "size=7&method[]=x",
    "size=7&method=weights_16bit&context=&batch=", "size=0x10&method=full_adam", "size=7&method=weights_16bit&shape=",
])
def test_odd_queries_never_fail(client, launch_content, query):
    response = client.get(calculator_url("en") + "?" + query)
    assert response.status_code == 200


def test_without_presets_a_custom_shape_is_asked_for(client, launch_content):
    ModelPreset.objects.all().delete()
    document = results(client, "en", size="7", method="weights_16bit")
    assert document.by_id("id_shape_error") is not None
    document = results(client, "en", size="7", method="full_adam")
    assert document.find("section", class_="calculator-results") is not None



@pytest.mark.parametrize("params", [{}, {"size": "70", "method": "weights_16bit"}, {"size": "x"}])
def test_queries_do_not_grow_with_the_number_of_gpus(client, launch_content, params):
    url = calculator_url("es", **params)
    before = page_queries(client, url)
    add_test_gpus(40)
    after = page_queries(client, url)
    assert after == before
    assert before <= 6, before


def test_presets_load_idempotently_keep_editors_changes_and_reset(db):
    ModelPreset.objects.all().delete()  # the session's launch content has loaded them already
    count = len(read_model_presets())
    assert count >= 3 and load_model_presets() == (count, 0)
    assert load_model_presets() == (0, 0)
    preset = ModelPreset.objects.get(slug="llama-3-1-70b")
    assert (preset.name, preset.billion_params, preset.layers, preset.kv_heads, preset.head_dim) == (
        "Llama 3.1 70B", Decimal(70), 80, 8, 128)
    preset.layers = 81
    preset.save()
    load_model_presets()
    assert ModelPreset.objects.get(slug="llama-3-1-70b").layers == 81
    assert load_model_presets(reset=True) == (0, count)
    assert ModelPreset.objects.get(slug="llama-3-1-70b").layers == 80


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_calculator_offers_every_method_with_its_bytes_per_parameter(client, model_presets, language):
    # The choices come from the registry of methods, each training label ending with the method's bytes per
    # parameter, each serving label with its weights' bits as the memory model counts them.
    document = results(client, language)
    choices = document.find_all("input", type="radio", name="method")
    assert [choice.attrs["value"] for choice in choices] == [method.key for method in SIZING_METHODS]
    for choice, method in zip(choices, SIZING_METHODS, strict=True):
        label = document.find("label", for_=choice.attrs["id"]).squashed_text
        expected = (expected_estimates.serving_bits(SERVING_FORMATS[method.key]) if method.serves
                    else method.bytes_per_parameter)
        assert numbers_in(label, language)[-1] == expected, label


@pytest.mark.parametrize("language", LANGUAGES)
def test_workload_tables_with_a_fit_column_say_they_follow_the_decks_rule(client, launch_content, language):
    """The deck's rule (80 % of memory ÷ bytes per parameter) feeds only the workload pages' columns, which say so
    and link the calculator, whose serving memory model differs."""
    from workloads.models import Workload, WorkloadColumn

    with_fit = [workload for workload in Workload.objects.all()
                if workload.columns.filter(kind=WorkloadColumn.Kind.MODEL_FIT).exists()]
    assert with_fit
    for workload in with_fit:
        response = client.get(workload.get_absolute_url(language))
        if response.status_code != 200:
            continue
        document = parse(response.content)
        notes = [note for note in document.find_all("p", class_="table-note")
                 if note.find("a", href=url_in(language, "estimator:calculator")) is not None]
        assert len(notes) == 1, workload.key
        assert numbers_in(notes[0].squashed_text, language)[0] == 80
