"""Every example in schemas/examples validates (valid/) or fails (invalid/) against its schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from support.spec_corpus import EXAMPLES, payload_validator, schemas, validator
from wopgen.semantics import problems as semantic_problems

CASES = sorted(EXAMPLES.glob("*/*/*.json"))


def _validator_for(path: Path, instance: object) -> tuple[Draft202012Validator, object]:
    schema_name = path.parent.parent.name
    if schema_name == "run-event-payloads":
        assert isinstance(instance, dict) and set(instance) == {"type", "payload"}, path
        return payload_validator(instance["type"]), instance["payload"]
    return validator(schema_name), instance


def test_every_schema_is_valid_2020_12() -> None:
    for name, doc in schemas().items():
        Draft202012Validator.check_schema(doc)
        assert doc["$id"].endswith(f"/{name}.schema.json")


def test_every_schema_has_valid_and_invalid_examples() -> None:
    for name in schemas():
        assert list((EXAMPLES / name / "valid").glob("*.json")), f"{name}: no valid example"
        assert list((EXAMPLES / name / "invalid").glob("*.json")), f"{name}: no invalid example"


def test_examples_only_name_known_schemas() -> None:
    for folder in EXAMPLES.iterdir():
        assert folder.name in schemas(), folder


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.stem}")
def test_example(path: Path) -> None:
    instance = json.loads(path.read_text())
    v, target = _validator_for(path, instance)
    errors = list(v.iter_errors(target))
    if path.parent.name == "valid":
        assert not errors, [e.message for e in errors]
        assert semantic_problems(path.parent.parent.name, target) == []
    else:
        # Rejected by the schema, or by a rule JSON Schema cannot state (wopgen.semantics, RFC 0901).
        assert errors or semantic_problems(path.parent.parent.name, target), f"{path} validated but should not"
        assert path.with_suffix(".why").is_file(), f"{path}: missing .why"
