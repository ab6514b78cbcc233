"""The calculator's answers as data (/data/estimates/fit.json and inference.json): each validates against its
JSON Schema, equals the page for the same query (the same GPUs in the same order, the same counts and figures),
answers an invalid query with 400 and each field's message, and is open to other sites like the rest of the feed."""
import json
from decimal import Decimal

import pytest
from django.utils import translation
from jsonschema import Draft202012Validator

from core.formatting import format_usd_rate

from .html import parse
from .localized_numbers import numbers_in
from .localized_urls import url_in
from .test_open_data import validate_against_its_schema

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
]


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
