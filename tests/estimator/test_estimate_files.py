"""The calculator's answers as data (/data/estimates/fit.json and inference.json): each validates against its
JSON Schema, equals the page for the same query (the same GPUs in the same order, the same counts and figures),
answers an invalid query with 400 and each field's message, and is open to other sites like the rest of the feed."""
import json
from decimal import Decimal

import pytest
from django.utils import translation
from jsonschema import Draft202012Validator

from core.formatting import format_usd_rate

from .. import expected_estimates
from ..feed_files import validate_against_its_schema
from ..html import parse
from ..localized_numbers import numbers_in
from ..localized_urls import url_in

INFERENCE_QUERIES = [
    {"size": "70", "weights": "fp8", "kv": "16", "input": "1000", "output": "500", "batch": "16"},
    {"shape": "llama-3-1-8b", "weights": "fp8", "kv": "fp8", "input": "5000", "output": "500"},
    {"shape": "llama-3-1-405b", "weights": "fp8", "kv": "fp8", "input": "128", "output": "2048", "gpus": "8"},
    {"size": "70", "weights": "q4_k_m", "shape": "llama-3-1-70b", "batch": "1"},
    {"shape": "deepseek-v3", "weights": "int4", "input": "2000", "output": "1000", "batch": "64"},
]
FIT_QUERIES = [
    {"size": "70", "method": "weights_4bit", "shape": "llama-3-1-70b", "context": "8192", "batch": "1"},
    {"size": "405", "method": "weights_8bit", "shape": "llama-3-1-405b", "context": "2000", "batch": "64"},
    {"size": "8", "method": "weights_16bit", "context": "4096", "batch": "8"},
    {"size": "70", "method": "full_adam"},
    {"size": "13", "method": "lora_16bit"},
    {"size": "1.2", "method": "full_adam"},
    {"size": "34", "method": "full_adam"},
    {"size": "72.7", "method": "qlora_4bit"},
]
TRAINING_METHODS = ("full_adam", "lora_16bit", "qlora_4bit")
# Presets whose sizes hold a training run on few GPUs, some of them filled beyond the headroom on one count.
TRAINING_PRESETS = {"llama-3-2-1b": "1.2", "llama-3-1-70b": "70", "qwen-2-5-72b": "72.7"}


def fetch(client, path, query):
    response = client.get(path, query)
    assert response.status_code == 200, (path, query, response.content[:300])
    return json.loads(response.content, parse_float=Decimal)


def page(client, language, query):
    response = client.get(url_in(language, "estimator:calculator", query))
    assert response.status_code == 200
    return parse(response.content)


@pytest.mark.parametrize("query", INFERENCE_QUERIES)
def test_the_inference_file_validates_and_equals_the_page(client, launch_content, query):
    data = fetch(client, "/data/estimates/inference.json", query)
    validate_against_its_schema(client, data)
    document = page(client, "en", {"answer": "inference", **query})
    table = document.find("section", class_="estimate-results").find("table", class_="estimate-table")
    rows = [row for row in table.rows()[1:] if row.find("a", class_="gpu-name") is not None]
    assert [row.find("a", class_="gpu-name").squashed_text for row in rows] == [gpu["name"] for gpu in data["gpus"]]
    with translation.override("en"):
        for row, gpu in zip(rows, data["gpus"], strict=True):
            cells = row.cells()
            if gpu["problem"] is None and gpu["usd_per_million_output_tokens"] is not None:
                assert cells[1].squashed_text == " ".join(format_usd_rate(gpu["usd_per_million_output_tokens"]).split())
                assert numbers_in(cells[3].squashed_text, "en")[0] == gpu["gpu_count"]
                assert numbers_in(cells[4].squashed_text, "en")[:2] == [gpu["batch"], gpu["batch_that_fits"]]
    assert data["sources"] and all(source["basis"] for source in data["sources"])
    assert len(data["published_runs"]) >= 12


@pytest.mark.parametrize("query", FIT_QUERIES)
def test_the_fit_file_validates_and_equals_the_page(client, launch_content, query):
    data = fetch(client, "/data/estimates/fit.json", query)
    validate_against_its_schema(client, data)
    document = page(client, "en", query)
    table = document.find("section", class_="calculator-results").find("table")
    rows = table.table_rows()[1:]
    assert [row[0].split(" ")[0] for row in rows] == [gpu["name"].split(" ")[0] for gpu in data["gpus"]]
    for row, gpu in zip(rows, data["gpus"], strict=True):
        if gpu["fits"]:
            assert numbers_in(row[3], "en") == [gpu["gpu_count"]]
    training = query["method"] in TRAINING_METHODS
    for row, gpu in zip(table.rows()[1:], data["gpus"], strict=True):
        note = row.find("span", class_="no-headroom")
        if gpu.get("no_headroom") is None:
            assert note is None, gpu["name"]
        else:  # "On 2 GPUs it needs 79.2 GB of 80 GB each: no headroom left, so not counted as fitting."
            figures = numbers_in(note.squashed_text, "en")
            assert figures[:2] == [gpu["no_headroom"]["gpu_count"],
                                   three_digits(gpu["no_headroom"]["memory_gb_per_gpu"])], note.squashed_text
    dd = document.find("dl", class_="requirement").find_all("dd")
    assert numbers_in(dd[-1].text, "en") == [three_digits(data["memory_gb"]["total"])]
    if training:
        assert data["inputs"]["sequence_tokens"] == expected_estimates.EFFICIENCY["training_memory"][
            "default_sequence_tokens"]
        parts = data["memory_gb"]["model"] + data["memory_gb"]["activations"]
        assert abs(data["memory_gb"]["total"] - parts) <= data["memory_gb"]["total"] * Decimal("1e-11")
        link = dd[0].find("a")
        assert link is not None and link.attrs["href"].endswith("#training-memory-heading")
        assert "answer=training" in link.attrs["href"]


def three_digits(gigabytes):
    """Memory as the page writes it: three significant digits."""
    value = Decimal(gigabytes)
    return value.quantize(Decimal(1).scaleb(value.adjusted() - 2)).normalize() + 0


def csv_memory(name):
    return Decimal(expected_estimates.CSV_ROWS[name]["memory_gb"])


@pytest.mark.parametrize("method", TRAINING_METHODS)
def test_the_fit_and_training_tabs_hold_a_training_run_on_the_same_gpus(client, launch_content, method):
    """One memory model: at the training tab's default inputs, each GPU's fewest GPUs that hold the run (of 1, 2, 4,
    8, the fit tab's counts) and the count it fills beyond the headroom are the same in both tabs."""
    for preset, size in TRAINING_PRESETS.items():
        fit = fetch(client, "/data/estimates/fit.json", {"size": size, "method": method})
        training = fetch(client, "/data/estimates/training.json", {"preset": preset, "method": method})
        assert Decimal(training["inputs"]["model_billion_params"]) == Decimal(size)

        def within_eight(count):
            return count if count is not None and count <= 8 else None

        expected = {}
        for row in training["gpus"]:
            if row["problem"] == "no_bf16":  # no training time: the row lists no configurations
                continue
            fewest = row["configurations"][0]["gpu_count"] if row["configurations"] else None
            no_headroom = row["no_headroom"]["gpu_count"] if row["no_headroom"] else None
            expected[row["slug"]] = (within_eight(fewest), within_eight(no_headroom))
        got = {gpu["slug"]: (gpu["gpu_count"], (gpu.get("no_headroom") or {}).get("gpu_count"))
               for gpu in fit["gpus"] if gpu["slug"] in expected}
        assert len(got) == len(expected) == len(fit["gpus"])
        assert got == expected, (preset, method)
        assert any(count for count, _no_headroom in got.values())


@pytest.mark.parametrize("size", ["8", "34", "70", "72.7"])
def test_no_fit_tab_configuration_fits_without_the_headroom(client, launch_content, size):
    """Every GPU and training method: a count is shown as fitting only when the run leaves the headroom free on each
    GPU (its need worked out here, from the data), and the count the run fills beyond the headroom is named."""
    share, named = expected_estimates.fit_share(), 0
    for method in TRAINING_METHODS:
        data = fetch(client, "/data/estimates/fit.json", {"size": size, "method": method})
        document = page(client, "en", {"size": size, "method": method})
        rows = document.find("section", class_="calculator-results").find("table").rows()[1:]
        for row, gpu in zip(rows, data["gpus"], strict=True):
            memory = csv_memory(gpu["name"])
            count, no_headroom = expected_estimates.fit_tab_training(memory, size, method)
            assert (gpu["gpu_count"], (gpu.get("no_headroom") or {}).get("gpu_count")) == (count, no_headroom), (
                gpu["name"], method)
            if gpu["fits"]:
                need = expected_estimates.training_memory_gb(size, method, gpu["gpu_count"])
                assert need <= memory * share, (gpu["name"], method)
                assert numbers_in(row.cells()[3].squashed_text, "en") == [count]
            note = row.find("span", class_="no-headroom")
            assert (note is not None) == (no_headroom is not None), (gpu["name"], method)
            named += no_headroom is not None
    assert named or size == "8"


@pytest.mark.parametrize("path, query, field", [
    ("/data/estimates/inference.json", {"size": "7", "weights": "int3"}, "weights"),
    ("/data/estimates/inference.json", {"size": "7", "batch": "0"}, "batch"),
    ("/data/estimates/fit.json", {"size": "abc", "method": "full_adam"}, "size"),
    ("/data/estimates/fit.json", {"size": "7"}, "method"),
])
def test_an_invalid_query_is_a_json_400_with_each_fields_message(client, launch_content, path, query, field):
    response = client.get(path, query)
    assert response.status_code == 400
    body = json.loads(response.content)
    assert body["error"] == "invalid_query" and body["detail"][field]


def test_the_schemas_are_valid_and_served(client, launch_content):
    for name in ("estimates-fit", "estimates-inference"):
        response = client.get(f"/data/schema/v1/{name}.json")
        assert response.status_code == 200
        Draft202012Validator.check_schema(json.loads(response.content))


def test_the_files_are_open_to_other_sites(client, launch_content):
    response = client.get("/data/estimates/inference.json", {"size": "8"}, headers={"Origin": "https://example.org"})
    assert response.status_code == 200 and response["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("language", ["es", "pt", "de", "en"])
def test_the_open_data_page_names_the_estimate_files(client, launch_content, language):
    document = parse(client.get(url_in(language, "open_data:docs")).content)
    assert "/data/estimates/inference.json" in document.squashed_text
    assert "/data/estimates/fit.json" in document.squashed_text


@pytest.mark.parametrize("preset", ["llama-3-1-8b", "llama-3-1-70b", "llama-3-1-405b"])
@pytest.mark.parametrize("method, weights", [("weights_16bit", "bf16"), ("weights_8bit", "fp8"),
                                             ("weights_4bit", "int4")])
@pytest.mark.parametrize("context, batch", [(8192, 1), (4096, 32)])
def test_the_fit_and_inference_tabs_hold_a_model_on_the_same_gpus(client, launch_content, preset, method, weights,
                                                                  context, batch):
    """One memory model: for the same precision, context and batch, each GPU needs as many GPUs in both tabs."""
    size = {"llama-3-1-8b": "8", "llama-3-1-70b": "70", "llama-3-1-405b": "405"}[preset]
    fit = fetch(client, "/data/estimates/fit.json", {"size": size, "method": method, "shape": preset,
                                                     "context": str(context), "batch": str(batch)})
    inference = fetch(client, "/data/estimates/inference.json", {
        "size": size, "shape": preset, "weights": weights, "kv": "16", "input": str(context - 500),
        "output": "500", "batch": str(batch)})
    counts = {gpu["slug"]: gpu["gpu_count"] for gpu in inference["gpus"]}
    assert {gpu["slug"]: gpu["gpu_count"] for gpu in fit["gpus"]} == counts
    assert any(counts.values())
