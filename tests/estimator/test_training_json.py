"""/data/estimates/training.json: the training tab's answer as data, from the same computation as the page, valid
against open_data/schemas/v1/estimates-training.json; an invalid query is refused with the fields named, as the
other tabs' files."""
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from .. import expected_estimates

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "open_data" / "schemas" / "v1"
                     / "estimates-training.json").read_text(encoding="utf-8"))


def get(client, **params):
    return client.get("/data/estimates/training.json", params, HTTP_ORIGIN="https://example.org")


@pytest.mark.parametrize("params", [
    {"size": "7", "method": "full_adam", "tokens": "1000", "cluster": "64"},
    {"size": "70", "method": "qlora_4bit", "examples": "5000", "cluster": "8", "within": "2"},
    {"size": "8", "method": "lora_16bit", "tokens": "1", "sequence": "8192", "checkpointing": "off",
     "optimizer": "adam_8bit", "mfu": "30"},
])
def test_the_answer_is_valid_against_its_schema_and_equals_the_page_computation(client, launch_content, params):
    response = get(client, **params)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response["Access-Control-Allow-Origin"] == "*" and "max-age" in response["Cache-Control"]
    document = json.loads(response.content)
    Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(document)
    inputs = document["inputs"]
    assert inputs["method"] == params["method"] and inputs["within_days"] == int(params.get("within", 30))
    memory = expected_estimates.training_memory_gb(
        Decimal(params["size"]), params["method"], 1, int(params.get("sequence", 4096)), 1,
        params.get("checkpointing") != "off", params.get("optimizer", "adam"))
    assert abs(Fraction(str(document["memory_on_one_gpu"]["total_gb"])) / Fraction(memory) - 1) < Fraction(1, 10**9)
    marked = [gpu for gpu in document["gpus"] if gpu["cheapest_in_time"]]
    for gpu in marked:
        best = next(c for c in gpu["configurations"] if c["gpu_count"] == gpu["best_gpu_count"])
        assert best["in_time"] and best["practical"] and best["within_bounds"]
    for gpu in document["gpus"]:
        for configuration in gpu["configurations"]:
            if configuration["fastest"]:
                assert configuration["practical"] and configuration["within_bounds"]
    assert all(source["source"] is None or source["source"].startswith("https://") for source in document["sources"])


def test_an_invalid_query_is_refused_with_each_field(client, launch_content):
    response = get(client, size="7", method="full_adam", within="0", optimizer="sgd")
    assert response.status_code == 400
    body = json.loads(response.content)
    assert body["error"] == "invalid_query" and set(body["detail"]) == {"within", "optimizer"}
