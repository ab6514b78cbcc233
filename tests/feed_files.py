"""The feed's JSON files as the tests read them: fetched with their decimals exact, and validated against the JSON
Schema each names (fetched from the site too)."""
import json
from decimal import Decimal

from django.conf import settings
from jsonschema import Draft202012Validator


def fetch_json(client, path, **headers):
    response = client.get(path, headers=headers)
    assert response.status_code == 200, path
    assert response["Content-Type"].startswith(("application/json", "application/schema+json"))
    # Decimals as written: a float would hide a number the writer rounded.
    return json.loads(response.content, parse_float=Decimal)


def validate_against_its_schema(client, data):
    """``data`` validates against the schema it names, fetched from the site (which must be a valid schema)."""
    assert data["schema"].startswith(settings.SITE_URL + "/")
    schema = fetch_json(client, data["schema"].removeprefix(settings.SITE_URL))
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == data["schema"]
    Draft202012Validator(schema).validate(data)
    return schema
