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


def _compile(schema: dict[str, Any], *targets: str) -> Any:
    """The compiled validator of `schema`, which validates against `targets`, or None where there is
    none (then jsonschema decides)."""
    try:
        return jsonschema_rs.validator_for(
            {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema},
            registry=_compiled_registry(),
            retriever=_refuse,
            validate_formats=True,
            formats=_annotations(targets) or None,
        )
    except Exception:  # any refusal means: ask jsonschema
        return None


@cache
def _compiled(reference: str) -> Any:
    """The compiled validator of `reference`, or None where there is none."""
    return _compile({"$ref": reference}, reference)


def _annotations(targets: tuple[str, ...]) -> dict[str, Any]:
    """The annotation-only formats a validation against `targets` may meet (all of them when the
    generator could not tell): each one given to the compiled validator costs every validation a
    call back into Python, so those no target can meet are left out."""
    known: dict[str, list[str]] = corpus().get("formats", {})
    met: set[str] = set()
    for target in targets:
        # A subschema meets no format its whole file cannot: the file's answer holds for its pointers.
        formats = known.get(target, known.get(target.partition("#")[0]))
        if formats is None:
            return _ANNOTATIONS
        met.update(formats)
    return {name: check for name, check in _ANNOTATIONS.items() if name in met}


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


def judged_valid(judge: Any, instance: Any) -> bool:
    """Whether a compiled judge accepts `instance`; False when it cannot judge it (jsonschema then does)."""
    try:
        return bool(judge(instance))
    except Exception:  # an instance it cannot judge goes to jsonschema
        return False


def errors(name: str, instance: Any, pointer: str = "") -> list[str]:
    """Messages for every way `instance` breaks schema `name` (or its subschema at `pointer`)."""
    spend()
    judge = _judge(name, pointer)
    if judge is not None and judged_valid(judge, instance):
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


def event_judge(event_type: str) -> Any:
    """The compiled `is_valid` of a whole `event_type` event, or None where there is none: the envelope
    and, under `payload`, the payload schema of the type, so one pass over the event answers both. It is
    compiled on every call; the event log keeps one per type.

    This is the fast half of the event log's validation: when it says no (or cannot say), the log asks
    `event_errors`, whose answer decides and words the refusal.
    """
    pointer = _payload_pointer(event_type)
    if pointer is None:
        return None
    envelope, payload = schema_uri("run-event"), schema_uri("run-event-payloads", pointer)
    typed = _typed_envelope(event_type, payload)
    compiled = None if typed is None else _compile(typed, envelope, payload)
    if compiled is None:  # the general form: the envelope, and the payload schema under `payload`
        both = {"allOf": [{"$ref": envelope}, {"properties": {"payload": {"$ref": payload}}}]}
        compiled = _compile(both, envelope, payload)
    return None if compiled is None else compiled.is_valid


def _typed_envelope(event_type: str, payload: str) -> dict[str, Any] | None:
    """The envelope schema as it reads for events of `event_type` only, or None when it cannot be written so.

    A copy of the envelope in which `payload` also refers to the payload schema of the type, and `type`
    is the constant `event_type`, once the envelope's own `type` subschema has accepted that value:
    for an event whose type is `event_type` both forms give the same verdict, and this one checks it
    without an `allOf` or a walk through the enum of every event type. The copy gets an `$id` of its
    own next to the envelope's, so relative references in it resolve as they do in the envelope.
    """
    uri = schema_uri("run-event")
    envelope = corpus()["schemas"].get(uri)
    properties = envelope.get("properties") if isinstance(envelope, dict) else None
    if not isinstance(properties, dict) or not isinstance(properties.get("type"), dict):
        return None
    payload_schema = properties.get("payload", {})
    if not isinstance(payload_schema, dict) or "$ref" in payload_schema:
        return None
    type_check = _compiled(uri + "#/properties/type")
    if type_check is None or not type_check.is_valid(event_type):
        return None
    return {
        **envelope,
        "$id": uri.rpartition("/")[0] + f"/run-event.{event_type}.typed.json",
        "properties": {**properties, "type": {"const": event_type}, "payload": {**payload_schema, "$ref": payload}},
    }


def event_errors(event_type: str, payload: Any, event: dict[str, Any]) -> list[str]:
    """Messages for every way an event breaks its payload schema or the envelope (none: it is valid), from
    jsonschema: asked once `event_judge` has said no or could not say."""
    return payload_errors(event_type, payload) + errors("run-event", event)
