"""Validation against the corpus schemas bundled into this package (corpus.json).

Every schema of the corpus is registered under its `$id`, so cross-file references resolve
without touching the network or the disk. A compiled `jsonschema-rs` validator per target answers
first; `jsonschema` runs only to word the errors of an
instance the compiled one rejected, so a valid event costs one compiled check.
"""

from __future__ import annotations

import json
import pkgutil
from functools import cache
from typing import Any

import jsonschema_rs
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


def _refuse(uri: str) -> Any:
    raise ValueError(f"{uri} is not part of this host's corpus")


@cache
def _compiled_registry() -> Any:
    return jsonschema_rs.Registry(list(corpus()["schemas"].items()), retriever=_refuse)


@cache
def _compiled(reference: str) -> Any:
    """The compiled validator of `reference`, or None where there is none (then jsonschema decides)."""
    try:
        return jsonschema_rs.validator_for(
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": reference},
            registry=_compiled_registry(),
            retriever=_refuse,
            validate_formats=True,
            formats=_ANNOTATIONS,
        )
    except Exception:  # any refusal means: ask jsonschema
        return None


# Formats jsonschema only annotates here (no checker installed) are annotations for the compiled
# validator too, so both give the same verdict.
_ANNOTATIONS = {
    name: (lambda _value: True)
    for name in (
        *("date", "date-time", "duration", "email", "hostname", "idn-email", "idn-hostname", "ipv4", "ipv6"),
        *("iri", "iri-reference", "json-pointer", "regex", "relative-json-pointer", "time", "uri"),
        *("uri-reference", "uri-template", "uuid"),
    )
    if name not in Draft202012Validator.FORMAT_CHECKER.checkers
}


def schema_uri(name: str, pointer: str = "") -> str:
    uri = str(corpus()["idBase"]) + name + ".schema.json"
    return uri + ("#" + pointer if pointer else "")


@cache
def _judge(name: str, pointer: str) -> Any:
    """The compiled `is_valid` of schema `name` at `pointer`, looked up once per target."""
    compiled = _compiled(schema_uri(name, pointer))
    return None if compiled is None else compiled.is_valid


def _judged_valid(judge: Any, instance: Any) -> bool:
    try:
        return bool(judge(instance))
    except Exception:  # an instance it cannot judge goes to jsonschema
        return False


def errors(name: str, instance: Any, pointer: str = "") -> list[str]:
    """Messages for every way `instance` breaks schema `name` (or its subschema at `pointer`)."""
    spend()
    judge = _judge(name, pointer)
    if judge is not None and _judged_valid(judge, instance):
        return []
    found = sorted(_for(schema_uri(name, pointer)).iter_errors(instance), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}" for e in found]


@cache
def _payload_pointer(event_type: str) -> str | None:
    definition = corpus()["payloadDefs"].get(event_type)
    return None if definition is None else "/$defs/" + definition


def payload_errors(event_type: str, payload: Any) -> list[str]:
    """Messages for every way `payload` breaks the payload schema of `event_type`."""
    pointer = _payload_pointer(event_type)
    if pointer is None:
        return [f"{event_type!r} is not an event type of the corpus"]
    return errors("run-event-payloads", payload, pointer)


@cache
def _payload_judge(event_type: str) -> Any:
    pointer = _payload_pointer(event_type)
    return None if pointer is None else _judge("run-event-payloads", pointer)


def event_errors(event_type: str, payload: Any, event: dict[str, Any]) -> list[str]:
    """Messages for every way an event breaks its payload schema or the envelope: the hot path of
    every append, one compiled check each when the event is valid."""
    spend()
    payload_judge, envelope_judge = _payload_judge(event_type), _judge("run-event", "")
    if (
        payload_judge is not None
        and envelope_judge is not None
        and _judged_valid(payload_judge, payload)
        and _judged_valid(envelope_judge, event)
    ):
        return []
    return payload_errors(event_type, payload) + errors("run-event", event)
