"""`wopgen models` feeds the library the conditions it can check at run time: `dependentRequired`, an
`if` over members the object requires anyway, an `if` without the openness stated on every other object
schema, every part of an `allOf`, and the patternProperties a declared member's name matches."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from support.corpus_factory import good_files, schema
from support.generated_models import imported_package, mypy_strict, takes
from wopgen.generate.models_input import library_schema

CONDITIONS = {
    "type": "object",
    "required": ["kind"],
    "properties": {
        "kind": {"enum": ["rating", "flag"]},
        "rating": {"type": "integer"},
        "transcription": {"const": "streaming"},
        "turnDetection": {"enum": ["vad", "semantic"]},
        "role": {"type": "string"},
        "speakerId": {"type": "string"},
        "code": {"allOf": [{"type": "string", "minLength": 2}, {"maxLength": 3}]},
        "ab": {},
        "supported": {"type": "boolean"},
        "trigger": {"type": "string"},
    },
    "patternProperties": {"^a": {"type": "string"}},
    "dependentRequired": {"turnDetection": ["transcription"]},
    "allOf": [
        # `kind` is required above, so the `if` need not require it for the two to read alike
        {"if": {"properties": {"kind": {"const": "rating"}}}, "then": {"required": ["rating"]}},
        {"if": {"properties": {"role": {"const": "agent"}}, "required": ["role"]}, "then": {"required": ["speakerId"]}},
        {
            "if": {"properties": {"supported": {"const": True}}, "required": ["supported"]},
            "then": {"required": ["trigger"]},
        },
    ],
}
TAKEN = [
    {"kind": "flag"},
    {"kind": "rating", "rating": 3},
    {"kind": "flag", "turnDetection": "vad", "transcription": "streaming"},
    {"kind": "flag", "transcription": "streaming"},
    {"kind": "flag", "role": "user"},
    {"kind": "flag", "role": "agent", "speakerId": "s1"},
    {"kind": "flag", "code": "ab"},
    {"kind": "flag", "ab": "x"},
    {"kind": "flag", "supported": False},
    {"kind": "flag", "supported": True, "trigger": "t"},
]
REFUSED = [
    {"kind": "rating"},  # the `if` holds: `then` requires `rating`
    {"kind": "flag", "turnDetection": "vad"},  # dependentRequired
    {"kind": "flag", "role": "agent"},
    {"kind": "flag", "code": "a"},  # the first part of the allOf
    {"kind": "flag", "code": "abcd"},  # the second
    {"kind": "flag", "ab": 1},  # declared, and named as the pattern `^a` says
    {"kind": "flag", "supported": True},
]


@pytest.fixture(scope="module")
def conditions(tmp_path_factory: pytest.TempPathFactory) -> Any:
    files = good_files()
    body = {**schema("conditions", CONDITIONS), "title": "Conditions"}
    files["schemas/conditions.schema.json"] = body
    imported_package(files, tmp_path_factory.mktemp("conditions"), "condition_models")
    return importlib.import_module("condition_models.conditions_schema").Conditions


def test_the_package_passes_mypy_strict(conditions: Any) -> None:
    """The library's run-time checks of conditions and patternProperties, as `wopgen models` repairs them."""
    out = Path(sys.modules[conditions.__module__].__file__ or "").parents[1]
    assert mypy_strict(out, "condition_models") == ""


@pytest.mark.parametrize("instance", TAKEN, ids=json.dumps)
def test_an_instance_the_schema_takes_is_taken(conditions: Any, instance: Any) -> None:
    assert Draft202012Validator(CONDITIONS).is_valid(instance)
    assert takes(conditions, instance)


@pytest.mark.parametrize("instance", REFUSED, ids=json.dumps)
def test_an_instance_the_schema_refuses_is_refused(conditions: Any, instance: Any) -> None:
    assert not Draft202012Validator(CONDITIONS).is_valid(instance)
    assert not takes(conditions, instance)


def test_the_fed_schema_reads_as_the_corpus_schema_does() -> None:
    fed = library_schema(CONDITIONS)
    assert "dependentRequired" not in fed
    assert fed["allOf"][0]["if"] == {"properties": {"kind": {"const": "rating"}}, "required": ["kind"]}
    assert fed["allOf"][1]["if"] == CONDITIONS["allOf"][1]["if"]  # no openness stated in a condition
    assert fed["allOf"][3] == {"if": {"required": ["turnDetection"]}, "then": {"required": ["transcription"]}}
    for instance in TAKEN + REFUSED:
        assert Draft202012Validator(fed).is_valid(instance) == Draft202012Validator(CONDITIONS).is_valid(instance)


def test_an_if_over_a_member_the_object_may_leave_out_is_not_required_into_it() -> None:
    """Without `kind` an object meets `if: {properties: {kind: ...}}`; requiring it would change that. The
    library reads no such `if`, so it is left out (and reported), not rewritten."""
    optional = {**CONDITIONS, "required": []}
    assert library_schema(optional)["allOf"][0] is True


# Conditions the library cannot read as JSON Schema does: what it is fed of them reads them more loosely,
# never more strictly, so the model refuses nothing the schema takes (and `models-inexact` names them).
LOOSE = {
    "type": "object",
    "properties": {"v": {"type": "integer"}, "kind": {"type": "string"}},
    # an `if` the library does not read (a `minimum`): its `then` typed `x` whatever `v` was
    "if": {"properties": {"v": {"minimum": 3}}},
    "then": {"properties": {"x": {"type": "object"}}},
    "allOf": [
        # an `if` over a member the object may leave out: the library reads none
        {"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["p"]}, "else": {"required": ["q"]}},
        # an `if` it reads, whose `then` declares a member: only the `then`'s `required` is read alike
        {
            "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
            "then": {"required": ["p"], "properties": {"p": {"type": "integer"}}},
        },
    ],
}
LOOSE_TAKEN = [
    {"v": 2, "x": "s", "p": 1},
    {"v": 3, "x": {}, "p": 1},
    {"p": 1},
    {"kind": "b", "q": 1},
    {"kind": "a", "p": 1},
]


def test_a_condition_the_library_cannot_read_refuses_nothing_the_schema_takes(tmp_path: Path) -> None:
    files = good_files()
    files["schemas/loose.schema.json"] = schema("loose", LOOSE)
    warnings: list[Any] = []
    model = imported_package(files, tmp_path, "loose_models", warnings).Loose
    for instance in LOOSE_TAKEN:
        assert Draft202012Validator(LOOSE).is_valid(instance), instance
        assert takes(model, instance), instance
    assert not takes(model, {"kind": "a"})  # where the library reads the `if` as JSON Schema does, it holds
    named = [w for w in warnings if w.path == "schemas/loose.schema.json" and "`if`" in w.message]
    assert len(named) == 3


def test_what_a_ref_leads_into_is_never_cut() -> None:
    # the `$ref` names the `if` by the `$id` it declares: cutting the unread `if` would leave it dangling
    named = {"$ref": "https://example.test/ref/if", "if": {"$id": "https://example.test/ref/if", "type": "integer"}}
    assert library_schema(named)["if"] == named["if"]
    pointed = {"$ref": "#/then", "if": {"minimum": 3}, "then": {"type": "integer"}}
    assert library_schema(pointed)["then"] == {"type": "integer"}
    # a keyword draft-07 ignores beside a `$ref`, kept where another `$ref` points into it
    legacy = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "properties": {
            "a": {"$ref": "#/definitions/s", "items": {"type": "string"}},
            "b": {"$ref": "#/properties/a/items"},
        },
        "definitions": {"s": {"type": "array"}},
    }
    assert library_schema(legacy)["properties"]["a"]["items"] == {"type": "string"}
    unpointed = {**legacy, "properties": {"a": legacy["properties"]["a"]}}
    assert "items" not in library_schema(unpointed)["properties"]["a"]
    # a member named `id` is no id: what sits beside the `$ref` is still cut
    member = {**unpointed, "properties": {"a": {"$ref": "#/definitions/s", "properties": {"id": {"type": "integer"}}}}}
    assert "properties" not in library_schema(member)["properties"]["a"]


# A name that two patternProperties keys match holds to both values; each is an object the library makes
# a class of.
TWO_PATTERNS = {
    "type": "object",
    "patternProperties": {
        "^env$": {"type": "object", "properties": {"path": {"type": "string"}}, "additionalProperties": False},
        "^[a-z]+$": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "additionalProperties": False,
}


def test_a_name_two_patterns_match_is_checked_against_each(tmp_path: Path) -> None:
    """The library's check gave the second pattern's class the instance of the first's, which it refused."""
    files = good_files()
    files["schemas/plugins.schema.json"] = {**schema("plugins", TWO_PATTERNS), "title": "Plugins"}
    imported_package(files, tmp_path, "two_pattern_models")
    model = importlib.import_module("two_pattern_models.plugins_schema").Plugins
    judge = Draft202012Validator(TWO_PATTERNS)
    for instance in (
        {"env": {"path": "a"}, "other": {"k": "v"}},
        {"env": {"path": 1}},  # the first value refuses it
        {"env": {"other": "x"}},  # the first value is closed
        {"other": {"k": 1}},
    ):
        assert takes(model, instance) == judge.is_valid(instance), instance
        if judge.is_valid(instance):
            assert model.model_validate(instance).model_dump(mode="json", exclude_unset=True) == instance
    assert mypy_strict(tmp_path / "models", "two_pattern_models") == ""


# An `allOf` part left taking every value, as a condition the library does not read is cut to (or as
# written, with annotations alone), beside a union of a string and an object.
TASKS = {
    "type": "array",
    "items": {
        "allOf": [
            {"$ref": "#/$defs/task"},
            {"if": {"type": "object"}, "then": {"type": "object", "properties": {"args": False}}},
            {"description": "A task or its name."},
        ]
    },
    "$defs": {
        "task": {
            "oneOf": [
                {"type": "string"},
                {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]},
            ]
        }
    },
}


def test_an_all_of_part_that_takes_every_value_keeps_the_union_beside_it(tmp_path: Path) -> None:
    """The library made a class of such a part and mixed it into each branch of the union, so the model
    took objects alone and refused every name."""
    files = good_files()
    files["schemas/tasks.schema.json"] = {**schema("tasks", TASKS), "title": "Tasks"}
    imported_package(files, tmp_path, "task_models")
    model = importlib.import_module("task_models.tasks_schema").Tasks
    judge = Draft202012Validator(TASKS)
    taken = ["lint", {"cmd": "pytest"}]
    assert judge.is_valid(taken) and takes(model, taken)
    assert model.model_validate(taken).model_dump(mode="json", exclude_unset=True) == taken
    for refused in ([{"cmd": 1}], [5]):
        assert not judge.is_valid(refused) and not takes(model, refused), refused
