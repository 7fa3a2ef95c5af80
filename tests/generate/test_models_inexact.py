"""`wopgen models` says where a model cannot check its schema as JSON Schema does (`models-inexact`):
each finding is a model that really disagrees with `jsonschema` (or with ECMA-262 for a pattern), and
the forms a model does check draw none."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from support.corpus_factory import good_files, schema, write
from support.generated_models import imported_package, takes
from wopgen.cli import cli
from wopgen.corpus import load
from wopgen.corpus.validation import FORMAT_CHECKER
from wopgen.diagnostics import Diagnostic
from wopgen.generate.models_formats import FORMAT_SAMPLES
from wopgen.generate.models_inexact import inexact, pattern_differences

# Per schema: its body, an instance the schema refuses and the model takes (or the reverse), and the
# keyword the finding names.
INEXACT = {
    # an array beside a union whose branches are classes of their own: the library types it by the keywords
    # beside the union, and checks no branch
    "listbeside": (
        {
            "type": "array",
            "items": {"type": "string"},
            "anyOf": [{"$ref": "#/$defs/few"}, {"$ref": "#/$defs/many"}],
            "$defs": {"few": {"type": "array", "maxItems": 2}, "many": {"type": "array", "minItems": 4}},
        },
        ["a", "b", "c"],
        "anyOf",
    ),
    # a branch of another type than the array's integer: writing the array's keywords into it would let it take
    # 1.5, which the type beside the union refuses, so the branches stay unchecked, and are reported
    "listnumber": (
        {"type": ["array", "integer"], "items": {"type": "string"}, "anyOf": [{"type": "number"}, {"maxItems": 1}]},
        ["a", "b"],
        "anyOf",
    ),
    "holds": ({"type": "array", "contains": {"type": "integer"}}, ["a"], "contains"),
    "depends": ({"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}}, {"a": 1}, "dependentSchemas"),
    "pair": ({"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}, ["a", 1], "prefixItems"),
    "other": (
        {"type": "object", "properties": {"a": {}}, "not": {"properties": {"a": {"type": "string"}}}},
        {"a": "x"},
        "not",
    ),
    "when": (
        {
            "type": "object",
            "properties": {"tier": {"type": "string"}, "source": {"type": "string"}},
            "if": {"properties": {"tier": {"const": "exec"}}, "required": ["tier"]},
            "then": {"properties": {"source": {"const": "host"}}},
        },
        {"tier": "exec", "source": "mcp"},
        "if",
    ),
    # A keyword of one type on a member that names none: the library drops it, or types the member by it.
    "loose": ({"type": "object", "properties": {"n": {"minimum": 5}}}, {"n": 4}, "minimum"),
    "listed": ({"type": "object", "properties": {"tags": {"items": {"type": "string"}}}}, {"tags": "x"}, "items"),
    # `required` first does not make the finding say the model takes any value: `properties` types it an object
    "requiredfirst": (
        {"type": "object", "properties": {"v": {"required": ["a"], "properties": {"a": {}}}}},
        {"v": 5},
        "properties",
    ),
    "secure": (
        {"type": "object", "properties": {"u": {"type": "string", "format": "date", "pattern": "^2"}}},
        {"u": "1999-12-31"},
        "pattern",
    ),
    # a format on a string or a number: the library would type the number by it, so the model leaves it out
    # a member a branch declares and the object, closed beside the union, does not: refused, and the
    # branch's class (closed as the object is) takes it
    "branchmember": (
        {
            "type": "object",
            "additionalProperties": False,
            "properties": {"name": {"type": "string"}, "nodes": {"type": "array"}},
            "anyOf": [{"required": ["nodes"]}, {"properties": {"extra": {"type": "string"}}, "required": ["extra"]}],
        },
        {"extra": "x"},
        "additionalProperties",
    ),
    "stamporcount": ({"type": ["string", "integer"], "format": "date-time"}, "x", "format"),
    "mailbox": (
        {"type": "object", "properties": {"to": {"type": "string", "format": "email"}}},
        {"to": "nope"},
        "format",
    ),
    "fenced": (
        {
            "type": "object",
            "properties": {"v": {"allOf": [{"$ref": "#/$defs/base"}], "unevaluatedProperties": False}},
            "$defs": {"base": {"type": "object", "properties": {"a": {"type": "integer"}}}},
        },
        {"v": {"a": 1, "d": 1}},
        "unevaluatedProperties",
    ),
    # An `allOf` that names no type types nothing: the keyword beside it is as untyped as without it.
    "unrolled": ({"allOf": [True], "unevaluatedItems": False}, ["a"], "unevaluatedItems"),
    "partclosed": (
        {"type": "object", "allOf": [{"properties": {"a": True}}, {"unevaluatedProperties": False}]},
        {"a": 1},
        "unevaluatedProperties",
    ),
    # A closed part composed of its own: its `unevaluatedProperties` sees what its parts declare.
    "nestclosed": (
        {
            "type": "object",
            "allOf": [
                {"properties": {"a": True}},
                {"allOf": [{"properties": {"b": True}}], "unevaluatedProperties": False},
            ],
        },
        {"a": 1},
        "unevaluatedProperties",
    ),
    "branchclosed": (
        {
            "type": "object",
            "anyOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "integer"}}}],
            "unevaluatedProperties": False,
        },
        {"a": "x", "b": "y"},
        "unevaluatedProperties",
    ),
    "maybenull": (
        {
            "type": "object",
            "required": ["v"],
            "properties": {"v": {"$ref": "#/$defs/s", "type": ["string", "null"]}},
            "$defs": {"s": {"type": "string"}},
        },
        {"v": None},
        "type",
    ),
    "voidable": ({"type": ["object", "null"], "properties": {"a": {"type": "integer"}}}, None, "type"),
    "depending": (
        {"type": "object", "properties": {"d": {"dependentRequired": {"a": ["b"]}}}},
        {"d": {"a": 1}},
        "dependentRequired",
    ),
    "stamped": ({"type": "object", "properties": {"at": {"format": "date-time"}}}, {"at": "x"}, "format"),
    # The same on a branch whose holder names no type, and on a definition used where none is named.
    "looseunion": ({"anyOf": [{"type": "string"}, {"maximum": 9}]}, 12, "maximum"),
    "capped": (
        {"type": "object", "properties": {"n": {"$ref": "#/$defs/small"}}, "$defs": {"small": {"maximum": 10}}},
        {"n": 50},
        "maximum",
    ),
    # Groups of `required` alone on an object the library makes no class of (so it checks no group).
    "loosegroups": ({"oneOf": [{"required": ["a"]}, {"type": "object", "required": ["b"]}]}, {}, "required"),
    "sharedgroups": (
        {
            "type": "object",
            "allOf": [{"$ref": "#/$defs/o"}],
            "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
            "$defs": {"o": {"type": "object"}},
        },
        {"a": 1, "b": 2},
        "oneOf",
    ),
    # A dynamic reference whose own resource holds a plain anchor of the name: the model takes the other one.
    "dynamic": (
        {
            "$ref": "bagged.json",
            "$defs": {
                "word": {"$dynamicAnchor": "entry", "type": "string"},
                "bag": {
                    "$id": "bagged.json",
                    "type": "array",
                    "items": {"$dynamicRef": "#entry"},
                    "$defs": {"entry": {"$anchor": "entry"}},
                },
            },
        },
        [5],
        "$dynamicRef",
    ),
    # A schema that takes no value: the model takes values.
    "nolist": ({"type": "string", "enum": []}, "a", "enum"),
    "barred": (
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/no"}}, "$defs": {"no": False}},
        {"a": 1},
        "$ref",
    ),
    # A closed object composed with a part: `additionalProperties` sees only the members beside it.
    "sealedbase": (
        {
            "type": "object",
            "allOf": [{"$ref": "#/$defs/base"}],
            "additionalProperties": False,
            "$defs": {"base": {"properties": {"a": {}}}},
        },
        {"a": 1},
        "additionalProperties",
    ),
    "heldbase": (
        {
            "type": "object",
            "allOf": [{"$ref": "#/$defs/base"}],
            "additionalProperties": {"type": "boolean"},
            "$defs": {"base": {"type": "object", "properties": {"a": {}}}},
        },
        {"a": 1},
        "additionalProperties",
    ),
    "closedpart": (
        {
            "type": "object",
            "$ref": "#/$defs/base",
            "properties": {"c": {"type": "integer"}},
            "$defs": {"base": {"type": "object", "properties": {"a": {}}, "additionalProperties": False}},
        },
        {"c": 1},
        "$ref",
    ),
    # Two closed branches that both take an object holding only the member they share.
    "talks": (
        {
            "oneOf": [
                {
                    "type": "object",
                    "required": ["id"],
                    "properties": {"id": {}, "title": {}},
                    "additionalProperties": False,
                },
                {
                    "type": "object",
                    "required": ["id"],
                    "properties": {"id": {}, "why": {}},
                    "additionalProperties": False,
                },
            ]
        },
        {"id": "c1"},
        "oneOf",
    ),
    # A branch closed to a member declared beside the `anyOf`: the library mixes the member into it.
    "mixed": (
        {
            "type": "object",
            "properties": {"steps": {"type": "array"}, "fast": {"type": "boolean"}, "lanes": {"type": "object"}},
            "anyOf": [
                {"$ref": "#/$defs/single"},
                {"properties": {"fast": {}, "lanes": {}}, "required": ["lanes"], "additionalProperties": False},
            ],
            "additionalProperties": False,
            "$defs": {
                "single": {
                    "type": "object",
                    "properties": {"steps": {"type": "array"}},
                    "required": ["steps"],
                    "additionalProperties": False,
                }
            },
        },
        {"steps": [], "fast": False},
        "anyOf",
    ),
}
# Forms the models do check: no finding.
EXACT = {
    # `properties: {}` declares nothing: the schema takes any value, as the model does, a member or a definition
    "declaresnone": {
        "type": "object",
        "properties": {"v": {"properties": {}}, "w": {"$ref": "#/$defs/none"}},
        "$defs": {"none": {"title": "None", "properties": {}}},
    },
    # an array beside a union of arrays: its keywords are written into each branch
    "listunion": {
        "type": "array",
        "anyOf": [{"type": "array", "items": {"type": "string"}}, {"items": {"type": "integer"}}],
    },
    "listrefs": {
        "type": "array",
        "anyOf": [{"$ref": "#/$defs/few"}, {"$ref": "#/$defs/many"}],
        "$defs": {"few": {"type": "array", "maxItems": 2}, "many": {"type": "array", "minItems": 4}},
    },
    "exclusive": {"type": "object", "properties": {"a": {}, "b": {}}, "not": {"required": ["a", "b"]}},
    "conditional": {
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"enum": ["a", "b"]}, "n": {"type": "integer"}},
        "allOf": [{"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["n"]}}],
    },
    "plain": {"type": "string", "pattern": "^[0-9]{4}-[a-z]+$"},
    "choices": {"enum": [1, 2, "true"]},
    # The same keywords where a type is named, or where the place says it (a branch's holder, a name).
    "bounded": {"type": "object", "properties": {"n": {"type": ["integer", "string"], "minimum": 5}}},
    "branched": {"type": "integer", "allOf": [{"minimum": 5}]},
    "partnered": {"allOf": [{"type": "integer"}, {"maximum": 30}]},
    "distinct": {"type": "object", "properties": {"t": {"uniqueItems": True}}},
    "usedtyped": {
        "type": "object",
        "properties": {"n": {"type": "integer", "$ref": "#/$defs/small"}},
        "$defs": {"small": {"maximum": 10}},
    },
    # oneOf branches that never take one value together: by type, by a required member's const, by a
    # member a closed branch lacks, by a `not`; and groups of `required` alone, which the library checks.
    "either": {"type": "object", "properties": {"at": {"oneOf": [{"type": "string"}, {"type": "null"}]}}},
    "tagged": {
        "oneOf": [
            {"type": "object", "required": ["k"], "properties": {"k": {"const": "a"}, "n": {"type": "integer"}}},
            {"$ref": "#/$defs/b"},
        ],
        "$defs": {"b": {"type": "object", "required": ["k"], "properties": {"k": {"const": "b"}}}},
    },
    "sealed": {
        "oneOf": [
            {"type": "object", "required": ["a"], "properties": {"a": {}}, "additionalProperties": False},
            {"type": "object", "required": ["b"], "properties": {"b": {}}, "additionalProperties": False},
        ]
    },
    "single": {
        "type": "object",
        "properties": {"x": {"type": "string"}, "y": {"type": "string"}},
        "oneOf": [{"required": ["x"], "not": {"required": ["y"]}}, {"required": ["y"], "not": {"required": ["x"]}}],
    },
    "routed": {
        "type": "object",
        "required": ["k"],
        "oneOf": [{"properties": {"k": {"const": "a"}}}, {"properties": {"k": {"const": "b"}}}],
    },
    "groups": {"type": "object", "properties": {"x": {}, "y": {}}, "oneOf": [{"required": ["x"]}, {"required": ["y"]}]},
    "groupsonly": {"type": "object", "oneOf": [{"required": ["p", "q"]}, {"required": ["p", "r"]}]},
    # The members beside a closed keyword list every member of the part; a type beside `properties`.
    "relisted": {
        "$ref": "#/$defs/base",
        "properties": {"a": {"description": "Again."}, "n": {"minimum": 5}},
        "additionalProperties": False,
        "$defs": {"base": {"type": "object", "properties": {"a": {"type": "string"}, "n": {"type": "integer"}}}},
    },
    # A part that names the type types the keyword beside the `allOf`.
    "parted": {"allOf": [{"type": "string"}], "minLength": 2},
    # A closed part composed of nothing, alone: it closes the merged class exactly.
    "partsealed": {
        "type": "object",
        "allOf": [{"properties": {"a": {"type": "string"}}, "unevaluatedProperties": False}],
    },
    "heldagain": {
        "type": "object",
        "allOf": [{"$ref": "#/$defs/base"}],
        "properties": {"a": {}},
        "additionalProperties": {"type": "boolean"},
        "$defs": {"base": {"type": "object", "properties": {"a": {}}}},
    },
    # A pattern every value of the format matches: the type the format gets holds it.
    "dated": {"type": "string", "format": "date", "pattern": "^\\d{4}-\\d{2}-\\d{2}$", "maxLength": 10},
    # A hostname is an annotation, fed without its format: the pattern beside it holds.
    "named": {"type": "string", "format": "hostname", "pattern": "^[a-z]+$"},
    # a closed object whose union's branches become classes: each class is closed as the object is
    "closedunion": {
        "type": "object",
        "required": ["name"],
        "additionalProperties": False,
        "properties": {"name": {"type": "string"}, "nodes": {"type": "array"}, "agents": {"type": "array"}},
        "anyOf": [
            {"properties": {"nodes": {"type": "array", "minItems": 1}}, "required": ["nodes"]},
            {"properties": {"agents": {"type": "array", "minItems": 1}}, "required": ["agents"]},
        ],
    },
    "closedbranches": {
        "type": "object",
        "properties": {
            "p": {
                "type": "object",
                "additionalProperties": False,
                "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
                "oneOf": [{"required": ["a"], "not": {"required": ["b"]}}, {"required": ["b"]}],
            }
        },
    },
    # `uri` is an annotation, as for `check`: the model holds the string to the pattern beside it
    "linked": {"type": "string", "format": "uri", "pattern": "^https://"},
    # Positions the library writes as a tuple; an allOf the root closes with unevaluatedProperties.
    "fixed": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "minItems": 2, "maxItems": 2},
    "merged": {
        "type": "object",
        "properties": {
            "v": {
                "allOf": [{"$ref": "#/$defs/base"}, {"properties": {"b": {}}}],
                "unevaluatedProperties": False,
            }
        },
        "$defs": {"base": {"type": "object", "properties": {"a": {"type": "integer"}}}},
    },
    "lone": {"type": "array", "prefixItems": [{"type": "integer"}], "items": False},
    "rooted": {
        "allOf": [{"$ref": "#/$defs/base"}],
        "unevaluatedProperties": False,
        "$defs": {"base": {"type": "object", "properties": {"a": {"type": "integer"}}}},
    },
    # The same on a member that may be left out: the models refuse null there as the schema does.
    "optionalnull": {
        "type": "object",
        "properties": {"v": {"$ref": "#/$defs/s", "type": ["string", "null"]}},
        "$defs": {"s": {"type": "string"}},
    },
    # A member that may not be present, written `false` in place.
    "absent": {"type": "object", "properties": {"a": False, "b": {"$ref": "#/$defs/yes"}}, "$defs": {"yes": True}},
    # A definition names no type, but every use of it does.
    "defined": {
        "type": "object",
        "properties": {"a": {"type": "object", "$ref": "#/$defs/A"}},
        "$defs": {"A": {"properties": {"n": {"type": "integer"}}}},
    },
    "keyed": {"type": "object", "propertyNames": {"maxLength": 8}, "properties": {"propertyNames": {"type": "string"}}},
}


def _files(bodies: dict[str, dict[str, Any]]) -> dict[str, Any]:
    files = good_files()
    for name, body in bodies.items():
        files[f"schemas/{name}.schema.json"] = {**schema(name, body), "title": name.title()}
    return files


def _corpus(tmp_path: Path, bodies: dict[str, dict[str, Any]]) -> Path:
    return write(tmp_path / "corpus", _files(bodies))


def _found(warnings: list[Diagnostic], name: str) -> list[str]:
    return [d.message for d in warnings if d.rule == "models-inexact" and d.path == f"schemas/{name}.schema.json"]


def test_each_keyword_a_model_does_not_check_is_reported_and_the_model_disagrees(tmp_path: Path) -> None:
    warnings: list[Diagnostic] = []
    bodies = {name: body for name, (body, _instance, _keyword) in INEXACT.items()}
    imported_package(_files(bodies), tmp_path, "inexact_models", warnings)
    for name, (body, instance, keyword) in INEXACT.items():
        found = _found(warnings, name)
        assert len(found) == 1 and f"`{keyword}`" in found[0], (name, found)
        model = getattr(importlib.import_module(f"inexact_models.{name}_schema"), name.title())
        judge = Draft202012Validator(body, format_checker=FORMAT_CHECKER)  # as the corpus
        assert takes(model, instance) != judge.is_valid(instance), name  # the disagreement reported


def test_what_the_models_check_draws_no_finding(tmp_path: Path) -> None:
    assert not [d for d in inexact(load(_corpus(tmp_path, EXACT))) if d.rule == "models-inexact"]


# Instances that a keyword drawing no finding decides: the model agrees with the schema on each.
AGREES = {
    "declaresnone": [{"v": 5}, {"v": {"a": 1}}, {"w": 5}, {"w": []}],
    "listunion": [["a"], [1], ["a", 1], [None], "a", 1],
    "listrefs": [[1], [1, 2, 3], [1, 2, 3, 4], "x"],
    "partnered": [35, 20, "x"],
    "usedtyped": [{"n": 50}, {"n": 5}, {"n": "x"}],
    "absent": [{"a": 1}, {"b": 1}, {}],
    "distinct": [{"t": [1, 1]}, {"t": [1, 2]}, {"t": "x"}, {"t": 5}],
    "heldagain": [{"a": 1}, {"a": 1, "b": True}, {"b": 1}],
    "partsealed": [{"a": "x"}, {"a": "x", "b": 1}, {"a": 1}, {}],
    "parted": ["a", "ab", 5],
    "groups": [{"x": 1}, {"x": 1, "y": 2}, {}],
    "single": [{"x": "a"}, {"x": "a", "y": "b"}],
    "tagged": [{"k": "a", "n": 1}, {"k": "b"}, {"k": "c"}],
    "sealed": [{"a": 1}, {"a": 1, "b": 2}],
    "routed": [{"k": "a"}, {"k": "c"}, {}],
    "closedunion": [
        {"name": "a", "nodes": [1]},
        {"name": "a", "agents": [1], "nodes": []},
        {"name": "a", "nodes": [1], "zz": 1},
        {"name": "a", "agents": [1], "zz": 1},
        {"name": "a", "nodes": []},
    ],
    "closedbranches": [{"p": {"a": 1}}, {"p": {"b": "s"}}, {"p": {"a": 1, "z": 1}}, {"p": {"b": "s", "z": 1}}],
    "linked": ["https://a.example", "http://a.example", "https:a", "a/b", 5],
}


def test_a_schema_without_a_finding_takes_what_its_schema_takes(tmp_path: Path) -> None:
    imported_package(_files({name: EXACT[name] for name in AGREES}), tmp_path, "agreeing_models", [])
    for name, instances in AGREES.items():
        model = getattr(importlib.import_module(f"agreeing_models.{name}_schema"), name.title())
        for instance in instances:
            assert takes(model, instance) == Draft202012Validator(EXACT[name]).is_valid(instance), (name, instance)


def test_each_value_a_format_finding_cites_is_one_the_model_takes(tmp_path: Path) -> None:
    """A finding on a string keyword beside a format names a value of the format as the model's type
    takes it: each sample is one, or the finding would claim a disagreement that is not there."""
    bodies = {f"f{n}": {"type": "string", "format": name} for n, name in enumerate(FORMAT_SAMPLES)}
    imported_package(_files(bodies), tmp_path, "format_models", [])
    for n, (name, samples) in enumerate(FORMAT_SAMPLES.items()):
        model = getattr(importlib.import_module(f"format_models.f{n}_schema"), f"F{n}")
        assert all(takes(model, sample) for sample in samples), name


def test_the_cli_says_it_beside_writing_the_package(tmp_path: Path) -> None:
    root = _corpus(tmp_path, {"holds": INEXACT["holds"][0]})
    result = CliRunner().invoke(cli, ["--root", str(root), "models", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "schemas/holds.schema.json" in result.output and "[models-inexact]" in result.output
    assert (tmp_path / "out" / "wop_models" / "holds_schema.py").is_file()


@pytest.mark.parametrize(
    ("pattern", "python", "words"),
    [
        (r"^[\d\W]+$", False, ["`\\d`", "`\\w`"]),  # a class with \W is fed as written
        (r"^\w+\b", False, ["`\\b`"]),
        (r"^\S+$", False, ["`\\s`"]),
        (r"^.$", False, ["`.`"]),
        (r"^[]a]$", False, ["class opening with `]`"]),
        (r"^(?!x)[a-z]+$", False, ["`$`"]),  # look-ahead: the model runs Python's re
        (r"^x-[a-z]+$", True, ["`$`"]),  # a patternProperties key: matched with Python's re
    ],
)
def test_a_pattern_read_otherwise_in_ecma_262_is_named(pattern: str, python: bool, words: list[str]) -> None:
    found = " ".join(what for what, _hint in pattern_differences(pattern, python=python))
    assert all(word in found for word in words), found


def test_a_pattern_the_model_cannot_read_is_named_and_the_model_fails_on_it(tmp_path: Path) -> None:
    """`\\p{L}` is ECMA-262; Python's `re`, which matches the keys of patternProperties, refuses it, so the
    model raised re.error instead of a validation error on every object."""
    body = {"type": "object", "patternProperties": {"^\\p{L}+$": {"type": "integer"}}}
    warnings: list[Diagnostic] = []
    imported_package(_files({"lettered": body}), tmp_path, "lettered_models", warnings)
    found = _found(warnings, "lettered")
    assert len(found) == 1 and "cannot read it (bad escape \\p" in found[0], found
    model = importlib.import_module("lettered_models.lettered_schema").Lettered
    with pytest.raises(re.error):
        takes(model, {"ab": 1})
    assert "cannot read it" in pattern_differences("^(?<n>a)b", python=True)[0][0]  # a named group, as ECMA writes it


@pytest.mark.parametrize(
    "pattern",
    [r"^\d{4}$", r"^[\d.]+$", r"^\w+\W$", r"^[0-9]+$", r"^[a-z]+$", r"^[\s\S]*$", r"^a\.b[.]c$", r"^[\b]$", r"^a\$$"],
)
def test_a_pattern_both_readings_agree_on_is_not(pattern: str) -> None:
    assert pattern_differences(pattern, python=False) == []


# `unevaluatedProperties` over an `allOf` whose part reaches a `oneOf` through `$ref`s, each branch composed
# of its own: the members a branch declares are evaluated, which the model does not see.
THROUGH = {
    "type": "object",
    "properties": {"src": {"$ref": "#/$defs/outer"}},
    "$defs": {
        "outer": {
            "allOf": [{"type": "object", "properties": {"name": {"type": "string"}}}, {"$ref": "#/$defs/sources"}],
            "unevaluatedProperties": False,
        },
        "sources": {
            "oneOf": [
                {
                    "allOf": [
                        {"$ref": "#/$defs/demo"},
                        {"type": "object", "required": ["type"], "properties": {"type": {"const": "demo"}}},
                    ]
                },
                {
                    "allOf": [
                        {"$ref": "#/$defs/file"},
                        {"type": "object", "required": ["type"], "properties": {"type": {"const": "file"}}},
                    ]
                },
            ]
        },
        "demo": {
            "allOf": [
                {"type": "object", "properties": {"count": {"type": "integer"}}},
                {
                    "oneOf": [
                        {"type": "object", "required": ["format"], "properties": {"format": {"const": "a"}}},
                        {"type": "object", "required": ["format"], "properties": {"format": {"const": "b"}}},
                    ]
                },
            ]
        },
        "file": {"type": "object", "properties": {"path": {"type": "string"}}},
    },
}


def test_unevaluated_properties_over_a_union_reached_through_refs_is_reported(tmp_path: Path) -> None:
    warnings: list[Diagnostic] = []
    files = good_files()
    files["schemas/through.schema.json"] = schema("through", THROUGH)
    model = imported_package(files, tmp_path, "through_models", warnings).Through
    instance = {"src": {"type": "demo", "count": 1, "format": "a"}}
    assert Draft202012Validator(THROUGH).is_valid(instance) and not takes(model, instance)  # the disagreement
    found = [d.message for d in warnings if d.path == "schemas/through.schema.json"]
    assert any("`unevaluatedProperties` over an `allOf` part that reaches" in m for m in found), found
