"""Conventions the generators rely on: ids, directions, titles, type index, discriminators."""

from __future__ import annotations

from collections import Counter
from typing import Any

from support.spec_corpus import ID_BASE, schemas

CONTENT_FIELDS = {"content", "output", "result", "text", "prompt", "response", "taskOutput"}


def _walk(node: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(node, dict):
        out.append(node)
        for value in node.values():
            out.extend(_walk(value))
    elif isinstance(node, list):
        for value in node:
            out.extend(_walk(value))
    return out


def test_root_annotations() -> None:
    for name, doc in schemas().items():
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert doc["$id"] == f"{ID_BASE}{name}.schema.json"
        assert isinstance(doc["title"], str) and doc["description"]
        assert doc["x-wop-direction"] in {"client-sent", "host-emitted", "artifact"}


def test_every_def_has_a_title_and_titles_are_unique() -> None:
    titles: Counter[str] = Counter()
    for name, doc in schemas().items():
        for key, definition in doc.get("$defs", {}).items():
            assert isinstance(definition.get("title"), str), f"{name}#/$defs/{key}"
        titles.update(n["title"] for n in _walk(doc) if isinstance(n.get("title"), str))
    assert [t for t, c in titles.items() if c > 1] == []


def test_type_index_matches_event_enum() -> None:
    enum = schemas()["run-event"]["$defs"]["RunEventType"]["enum"]
    index = schemas()["run-event-payloads"]["$defs"]["_typeIndex"]["properties"]
    assert set(enum) == set(index)
    for event_type, ref in index.items():
        head, *rest = event_type.split(".")
        camel = head + "".join(part[:1].upper() + part[1:] for part in rest)
        assert ref == {"$ref": f"#/$defs/{camel}"}


def test_no_constructs_the_model_generator_cannot_express() -> None:
    banned = {"if", "then", "else", "dependentRequired", "dependentSchemas"}
    for name, doc in schemas().items():
        for node in _walk(doc):
            assert not banned & set(node), name


def test_every_one_of_branch_has_a_required_const_discriminator() -> None:
    for name, doc in schemas().items():
        defs = doc.get("$defs", {})
        for node in _walk(doc):
            for branch in node.get("oneOf", []):
                target = defs[branch["$ref"].removeprefix("#/$defs/")] if "$ref" in branch else branch
                consts = [k for k, v in target["properties"].items() if "const" in v]
                assert consts and set(consts) <= set(target["required"]), name


def test_client_sent_shapes_are_closed() -> None:
    for name, doc in schemas().items():
        if doc["x-wop-direction"] == "client-sent":
            assert doc["additionalProperties"] is False, name


def test_content_free_payloads_are_closed_and_clean() -> None:
    defs = schemas()["run-event-payloads"]["$defs"]
    for key, definition in defs.items():
        if key.startswith("_"):
            continue
        assert isinstance(definition["x-wop-content-free"], bool), key
        if definition["x-wop-content-free"]:
            assert definition["additionalProperties"] is False, key
            assert not CONTENT_FIELDS & set(definition["properties"]), key


def test_error_codes_have_http_statuses() -> None:
    statuses = schemas()["error-envelope"]["x-wop-http-status"]
    assert statuses["validation_error"] == 400
    assert statuses["not_found"] == 404
    assert statuses["conflict"] == 409
    assert statuses["capability_not_provided"] == 501
    assert "loop_limit_exceeded" in statuses
    assert all(isinstance(s, int) and 400 <= s <= 599 for s in statuses.values())
