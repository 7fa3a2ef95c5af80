"""Shared helpers for the corpus tests: load every schema into one `referencing.Registry`."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "schemas"
EXAMPLES = SCHEMAS / "examples"
ID_BASE = "https://openwop.dev/spec/v1/"


@cache
def schemas() -> dict[str, dict[str, Any]]:
    """Every schema, keyed by its name (the file name without `.schema.json`)."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        out[path.name.removesuffix(".schema.json")] = json.loads(path.read_text())
    return out


@cache
def registry() -> Registry:
    resources = [(doc["$id"], Resource.from_contents(doc)) for doc in schemas().values()]
    return Registry().with_resources(resources)


def validator(name: str, pointer: str = "") -> Draft202012Validator:
    """A validator for schema `name`, or for the subschema at `#<pointer>` inside it."""
    base = ID_BASE + name + ".schema.json"
    schema: dict[str, Any] = {"$ref": base + ("#" + pointer if pointer else "")}
    return Draft202012Validator(schema, registry=registry())


def payload_validator(event_type: str) -> Draft202012Validator:
    """A validator for the payload of `event_type`, found through `_typeIndex`."""
    index = schemas()["run-event-payloads"]["$defs"]["_typeIndex"]["properties"]
    ref = index[event_type]["$ref"]
    assert ref.startswith("#/$defs/"), ref
    return validator("run-event-payloads", ref[1:])
