"""Validation against the corpus schemas bundled into this package (corpus.json).

Every schema of the corpus is registered under its `$id`, so cross-file references resolve
without touching the network or the disk. A compiled `jsonschema-rs` validator per target answers
first; `jsonschema` runs only to word the errors of an
instance the compiled one rejected, so a valid event costs one compiled check.
"""

from __future__ import annotations

import json
import pkgutil
import re
from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple

import jsonschema_rs
import referencing
from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import ValidationError
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
def _validator() -> Validator:
    resources = [
        (uri, referencing.Resource.from_contents(schema, default_specification=DRAFT202012))
        for uri, schema in corpus()["schemas"].items()
    ]
    registry: referencing.Registry[Any] = referencing.Registry().with_resources(resources)
    validator: Validator = _Explaining({}, registry=registry, format_checker=_format_checker())
    return validator


def _asserted() -> frozenset[str]:
    """The formats this host asserts: those wopgen asserts (`assertedFormats`, fixed when the host was
    generated). jsonschema would also assert any other format whose checking package happens to be
    installed, so the verdicts would vary from machine to machine."""
    return frozenset(corpus().get("assertedFormats", ()))


def _compiled_format(name: str) -> Callable[[Any], bool]:
    judge = jsonschema_rs.validator_for({"$schema": _DIALECT, "format": name}, validate_formats=True).is_valid
    return lambda value: bool(judge(value))


def _format_checker() -> FormatChecker:
    """The asserted formats, read as the compiled validator reads them: jsonschema's own checkers take
    values RFC 3339, 5321 and 4122 refuse (`te..st@example.com`, a UUID with a trailing hyphen)."""
    checker = FormatChecker(())
    for name in sorted(_asserted()):
        checker.checks(name)(_compiled_format(name))
    return checker


@cache
def _pattern_judge(pattern: str) -> Any:
    try:
        return jsonschema_rs.validator_for({"$schema": _DIALECT, "pattern": pattern})
    except Exception:  # a pattern the compiled validator refuses: Python's `re` reads it
        return None


def _matches(pattern: str, text: str) -> bool:
    """Whether `pattern` matches in `text` as ECMA-262 reads it (through the compiled validator, whose `\\d`
    takes no Arabic-Indic digit and whose `$` takes no final newline), where it can tell; else as Python's
    `re` does (a pattern it refuses, or a search past its backtracking limit)."""
    judge = _pattern_judge(pattern)
    if judge is not None:
        if judge.is_valid(text):
            return True
        if not any(error.message.startswith("Error executing regex") for error in judge.iter_errors(text)):
            return False
    return re.search(pattern, text) is not None


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    if validator.is_type(instance, "string") and not _matches(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_Explaining: Any = validators.extend(Draft202012Validator, {"pattern": _pattern})  # type: ignore[no-untyped-call]


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


# The formats the compiled validator knows. Those this host does not assert (`_asserted`) are annotations
# for it too, so both give the same verdict.
_ANNOTATIONS = {
    name: (lambda _value: True)
    for name in (
        *("date", "date-time", "duration", "email", "hostname", "idn-email", "idn-hostname", "ipv4", "ipv6"),
        *("iri", "iri-reference", "json-pointer", "regex", "relative-json-pointer", "time", "uri"),
        *("uri-reference", "uri-template", "uuid"),
    )
    if name not in _asserted()
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

    The event log uses it where the envelope does not validate in parts (`envelope_parts`), and for an
    event its parts do not accept; when it says no (or cannot say), the log asks `event_errors`, whose
    answer decides and words the refusal.
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


# Keywords that never change a verdict; with them, the few below are all a subschema of the envelope may
# hold for `envelope_parts` to reason about it (`x-` keywords are unknown ones, which validation ignores).
_NOTES = frozenset({"title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly"})
_ENVELOPE_KEYWORDS = _NOTES | {"$schema", "$id", "$defs", "type", "required", "properties", "additionalProperties"}
# The members of every event the log builds (a causationId only when it is given).
_BUILT = ("eventId", "runId", "type", "payload", "timestamp", "sequence")


def _plain(schema: dict[str, Any], keywords: frozenset[str]) -> bool:
    return all(key in keywords or key in _NOTES or key.startswith("x-") for key in schema)


def _allows(schema: dict[str, Any], json_type: str) -> bool:
    """Whether the `type` of `schema` (when it has one) admits `json_type`."""
    declared = schema.get("type", json_type)
    return declared == json_type or (isinstance(declared, list) and json_type in declared)


def _least_string(schema: Any) -> int | None:
    """The length from which `schema` accepts every string, when it says no more than a string type and a
    `minLength`; None when it says more (or something else)."""
    if schema is True:
        return 0
    if not isinstance(schema, dict) or not _plain(schema, frozenset({"type", "minLength"})):
        return None
    least = schema.get("minLength", 0)
    return least if _allows(schema, "string") and type(least) is int and least >= 0 else None


def _any_count(schema: Any) -> bool:
    """Whether `schema` accepts every integer from 0 up, saying no more than a numeric type and a lower bound."""
    if schema is True:
        return True
    if not isinstance(schema, dict) or not _plain(schema, frozenset({"type", "minimum", "exclusiveMinimum"})):
        return False
    least, above = schema.get("minimum", 0), schema.get("exclusiveMinimum", -1)
    numbers = all(type(bound) in (int, float) for bound in (least, above))
    return (_allows(schema, "integer") or _allows(schema, "number")) and numbers and least <= 0 and above < 0


class EnvelopeParts(NamedTuple):
    """The envelope, split for an event log: the members the log builds itself are checked once (the
    `runId` of a log, each event type, each new timestamp) or hold by construction (`eventId`, `sequence`,
    a `causationId` string long enough), so an append validates only its payload (`payload_judge`)."""

    run_id: Callable[[Any], bool]  # the compiled `is_valid` of the envelope's runId subschema
    timestamp: Callable[[Any], bool]  # ... and of its timestamp subschema
    event_id_length: int  # every eventId at least this long is valid
    causation_length: int  # every causationId string at least this long is valid


@cache
def envelope_parts() -> EnvelopeParts | None:
    """How the envelope validates in parts, or None when it cannot be split so (then the log validates each
    event whole, with `event_judge`).

    An event is a JSON object whose members are the ones the log built; it is valid against an envelope
    that says nothing but its type (`object`), required members (all of them built) and a subschema per
    member, with any other member allowed, exactly when each member is valid against its own subschema.
    """
    uri = schema_uri("run-event")
    envelope = corpus()["schemas"].get(uri)
    if not isinstance(envelope, dict) or not _plain(envelope, _ENVELOPE_KEYWORDS) or not _allows(envelope, "object"):
        return None
    properties, required = envelope.get("properties", {}), envelope.get("required", [])
    if not isinstance(properties, dict) or not isinstance(required, list) or any(n not in _BUILT for n in required):
        return None
    if any(name not in properties for name in (*_BUILT, "causationId")) and envelope.get(
        "additionalProperties", True
    ) not in (True, {}):
        return None  # a member without a subschema of its own would be judged by additionalProperties
    event_id, causation = (
        _least_string(properties.get("eventId", True)),
        _least_string(properties.get("causationId", True)),
    )
    run_id, timestamp = _compiled(uri + "#/properties/runId"), _compiled(uri + "#/properties/timestamp")
    if event_id is None or causation is None or not _any_count(properties.get("sequence", True)):
        return None
    if run_id is None or timestamp is None or _compiled(uri + "#/properties/type") is None:
        return None
    return EnvelopeParts(run_id.is_valid, timestamp.is_valid, event_id, causation)


def payload_judge(event_type: str) -> Any:
    """The compiled `is_valid` of the payload of an `event_type` event, against the envelope's subschema for
    `payload` and the payload schema of the type; None when the log must validate its events whole: the
    envelope does not split (`envelope_parts`), the envelope's `type` refuses `event_type`, or there is no
    compiled form."""
    pointer = _payload_pointer(event_type)
    if pointer is None or envelope_parts() is None:
        return None
    uri = schema_uri("run-event")
    type_check = _compiled(uri + "#/properties/type")
    if type_check is None or not judged_valid(type_check.is_valid, event_type):
        return None
    payload = schema_uri("run-event-payloads", pointer)
    within = corpus()["schemas"][uri].get("properties", {}).get("payload", True)
    if within is True:
        schema: dict[str, Any] = {"$ref": payload}
    elif isinstance(within, dict) and _plain(within, frozenset({"type"})):  # nothing in it to resolve: one schema
        schema = {**within, "$ref": payload}
    else:
        schema = {"allOf": [{"$ref": uri + "#/properties/payload"}, {"$ref": payload}]}
    compiled = _compile(schema, uri, payload)
    return None if compiled is None else compiled.is_valid


def event_errors(event_type: str, payload: Any, event: dict[str, Any]) -> list[str]:
    """Messages for every way an event breaks its payload schema or the envelope (none: it is valid), from
    jsonschema: asked once `event_judge` has said no or could not say."""
    return payload_errors(event_type, payload) + errors("run-event", event)
