"""The JSON Schemas (draft 2020-12) of the feed, versioned data files in ``schemas/v<major>/``: a new major
version gets new files beside the old ones, at a new address."""
import json
from functools import cache
from pathlib import Path

SCHEMA_MAJOR_VERSION = 1
SCHEMA_DIR = Path(__file__).resolve().parent / "schemas" / f"v{SCHEMA_MAJOR_VERSION}"
SCHEMA_NAMES = ("gpus", "prices", "estimates-fit", "estimates-inference", "estimates-training")


@cache
def schema_file(name):
    """The schema as stored (a dict); KeyError for a name that is not one."""
    if name not in SCHEMA_NAMES:
        raise KeyError(name)
    return json.loads((SCHEMA_DIR / f"{name}.json").read_text(encoding="utf-8"))


def schema_document(name, address):
    """The schema served at ``address``, its "$id"."""
    return {"$schema": schema_file(name)["$schema"], "$id": address, **schema_file(name)}
