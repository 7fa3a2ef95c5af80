"""Validation against the corpus schemas bundled into this package (corpus.json).

Every schema of the corpus is registered under its `$id`, so cross-file references resolve
without touching the network or the disk.
"""

from __future__ import annotations

import json
import pkgutil
from functools import cache
from typing import Any

import referencing
from jsonschema import Draft202012Validator
from jsonschema.protocols import Validator
from referencing.jsonschema import DRAFT202012

from .budget import spend


@cache
def corpus() -> dict[str, Any]:
    """The corpus data this host was generated from (schemas, event types, profiles, routes)."""
    raw = pkgutil.get_data(__package__ or __name__.rpartition(".")[0], "corpus.json")
    if raw is None:  # pragma: no cover - the file is part of the generated package
        raise RuntimeError("corpus.json is missing from the generated host")
    data: dict[str, Any] = json.loads(raw.decode("utf-8"))
    return data


@cache
def _validator() -> Draft202012Validator:
    resources = [
        (uri, referencing.Resource.from_contents(schema, default_specification=DRAFT202012))
        for uri, schema in corpus()["schemas"].items()
    ]
    registry: referencing.Registry[Any] = referencing.Registry().with_resources(resources)
    return Draft202012Validator({}, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)


@cache
def _for(reference: str) -> Validator:
    return _validator().evolve(schema={"$ref": reference})


def schema_uri(name: str, pointer: str = "") -> str:
    uri = str(corpus()["idBase"]) + name + ".schema.json"
    return uri + ("#" + pointer if pointer else "")


def errors(name: str, instance: Any, pointer: str = "") -> list[str]:
    """Messages for every way `instance` breaks schema `name` (or its subschema at `pointer`)."""
    spend()
    found = sorted(_for(schema_uri(name, pointer)).iter_errors(instance), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}" for e in found]


def payload_errors(event_type: str, payload: Any) -> list[str]:
    """Messages for every way `payload` breaks the payload schema of `event_type`."""
    definition = corpus()["payloadDefs"].get(event_type)
    if definition is None:
        return [f"{event_type!r} is not an event type of the corpus"]
    return errors("run-event-payloads", payload, "/$defs/" + definition)
