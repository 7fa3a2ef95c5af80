"""The compat engine on a table of before/after schema pairs, one or more per rule.

Each row names the direction of the schema (`x-wop-direction`), the base and head bodies, and the
exact set of (rule id, severity) the comparison must report; an empty set means "no change".
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from support.compat_support import outcome, ref, run_compat, thing

C, H, A = "client-sent", "host-emitted", "artifact"
E, W, INFO = "error", "warning", "info"


class Row(NamedTuple):
    id: str
    direction: str
    base: dict[str, Any]
    head: dict[str, Any]
    expected: set[tuple[str, str]]


def obj(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, **extra}


NAME = {"type": "string"}
NUM = {"type": "number"}
INT = {"type": "integer"}
CYCLE_NODE = {"type": "object", "properties": {"value": INT, "next": {"$ref": "#/$defs/node"}}}
CYCLE_LINK = {"type": "object", "properties": {"next": {"$ref": "#/$defs/link"}, "value": INT}}

ROWS = [
    Row("identical", C, obj({"a": NAME}), obj({"a": NAME}), set()),
    Row(
        "keys-reordered",
        C,
        obj({"a": NAME, "b": INT}, required=["a", "b"]),
        {"required": ["b", "a"], "properties": {"b": INT, "a": NAME}, "type": "object"},
        set(),
    ),
    Row("annotations-only", H, obj({"a": NAME}), obj({"a": {**NAME, "description": "new words", "title": "A"}}), set()),
    Row(  # then, else, contains, propertyNames: a change inside is classified where it sits
        "then-required-added",
        C,
        {"type": "object", "if": {"required": ["kind"]}, "then": {"required": ["a"]}},
        {"type": "object", "if": {"required": ["kind"]}, "then": {"required": ["a", "b"]}},
        {("compat-required-added", E)},
    ),
    Row(  # the same text whose $ref leads to a changed definition: the change is reported there, once
        "else-and-not-through-a-changed-def",
        H,
        {
            "else": {"$ref": "#/$defs/x"},
            "if": {"type": "string"},
            "not": {"$ref": "#/$defs/x"},
            "$defs": {"x": obj({"a": NAME})},
        },
        {
            "else": {"$ref": "#/$defs/x"},
            "if": {"type": "string"},
            "not": {"$ref": "#/$defs/x"},
            "$defs": {"x": obj({"a": NAME, "b": NAME})},
        },
        {("compat-property-added", INFO)},
    ),
    Row(  # `properties` never applies to a string
        "keyword-of-a-ruled-out-type",
        C,
        {"type": "string", "properties": {"a": NAME}, "required": ["a"]},
        {"type": "string"},
        set(),
    ),
    Row(  # a subschema holding only annotations accepts every value: as good as absent
        "vacuous-dependent-schemas",
        C,
        obj({"a": NAME}),
        obj({"a": NAME}, dependentSchemas={"a": {"properties": {"b": {"default": 1}}}}),
        set(),
    ),
    Row(  # {$ref, siblings} rewritten as {allOf: [$ref], siblings}: the same conjunction
        "ref-siblings-to-all-of",
        C,
        {"$ref": "#/$defs/x", "properties": {"b": NAME}, "$defs": {"x": {"type": "object", "minProperties": 1}}},
        {
            "allOf": [{"$ref": "#/$defs/x"}],
            "properties": {"b": NAME},
            "$defs": {"x": {"type": "object", "minProperties": 1}},
        },
        set(),
    ),
    Row(  # a oneOf moved out of an allOf member into the object that held it
        "union-out-of-all-of",
        C,
        {"allOf": [{"not": {"required": ["a", "b"]}}, {"oneOf": [obj({"a": NAME}), obj({"b": INT})]}]},
        {"allOf": [{"not": {"required": ["a", "b"]}}], "oneOf": [obj({"a": NAME}), obj({"b": INT})]},
        set(),
    ),
    Row(  # the one object branch of a union on each side is the same branch, however much it grew
        "only-branch-of-its-type",
        H,
        {"oneOf": [NAME, obj({"a": NAME})]},
        {"oneOf": [NAME, obj({"b": INT, "c": NUM, "d": NAME}, required=["b"])]},
        {("compat-property-removed", E), ("compat-property-added", INFO), ("compat-required-added", INFO)},
    ),
    Row(  # S beside oneOf [A, B] accepts what oneOf [S and A, S and B] does: members moved into the branches
        "keywords-moved-into-union-branches",
        C,
        {"properties": {"a": NAME}, "oneOf": [{"type": "object", "required": ["a"]}, {"type": "null"}]},
        {"oneOf": [{"type": "object", "properties": {"a": NAME}, "required": ["a"]}, {"type": "null"}]},
        set(),
    ),
    Row(  # ... and a member dropped on the way is still found, in the branch it applied to
        "keywords-moved-into-union-branches-one-lost",
        H,
        {"properties": {"a": NAME, "b": NAME}, "oneOf": [{"type": "object", "required": ["a"]}, {"type": "null"}]},
        {"oneOf": [{"type": "object", "properties": {"a": NAME}, "required": ["a"]}, {"type": "null"}]},
        {("compat-property-removed", E)},
    ),
    Row(  # a type list naming every JSON type restricts nothing
        "type-every-type-to-none",
        H,
        obj({"a": {"type": ["array", "boolean", "null", "number", "object", "string"]}}),
        obj({"a": {}}),
        set(),
    ),
    Row(  # members no JSON Schema draft defines are ignored by validators: a vendor's keyword, a typo
        "unknown-keywords-only",
        C,
        obj({"a": {**NAME, "markdownDescription": "old words"}}),
        obj({"a": {**NAME, "markdownDescription": "new words", "minLenght": 3}}, deprecationMessage="gone soon"),
        set(),
    ),
    Row(
        "ref-renamed-same-target",
        C,
        obj({"a": {"$ref": "#/$defs/x"}}, **{"$defs": {"x": {"type": "string", "minLength": 1}}}),
        obj({"a": {"$ref": "#/$defs/renamed"}}, **{"$defs": {"renamed": {"type": "string", "minLength": 1}}}),
        {("compat-schema-renamed", W)},  # the wire meaning is the same; a pointer to $defs/x breaks
    ),
    Row(
        "ref-relative-to-absolute",
        H,
        obj({"a": {"$ref": "#/$defs/x"}}, **{"$defs": {"x": NAME}}),
        obj({"a": {"$ref": ref("thing", "/$defs/x")}}, **{"$defs": {"x": NAME}}),
        set(),
    ),
    Row(
        "inline-moved-into-def",
        C,
        obj({"a": {"type": "string", "enum": ["x", "y"]}}),
        obj({"a": {"$ref": "#/$defs/a"}}, **{"$defs": {"a": {"type": "string", "enum": ["y", "x"]}}}),
        set(),
    ),
    Row(
        "def-inlined",
        A,
        obj({"a": {"$ref": "#/$defs/a"}}, **{"$defs": {"a": INT}}),
        obj({"a": INT}),
        {("compat-def-removed", W)},  # the wire meaning is the same; the $def is gone by name
    ),
    Row(
        "ref-cycle-on-both-sides-renamed",
        H,
        obj({"head": {"$ref": "#/$defs/node"}}, **{"$defs": {"node": CYCLE_NODE}}),
        obj({"head": {"$ref": "#/$defs/link"}}, **{"$defs": {"link": CYCLE_LINK}}),
        {("compat-schema-renamed", W)},
    ),
    Row(
        "ref-cycle-on-both-sides-with-a-change",
        H,
        obj({"head": {"$ref": "#/$defs/node"}}, **{"$defs": {"node": CYCLE_NODE}}),
        obj(
            {"head": {"$ref": "#/$defs/node"}},
            **{"$defs": {"node": {**CYCLE_NODE, "properties": {**CYCLE_NODE["properties"], "value": NUM}}}},
        ),
        {("compat-type-widened", E)},
    ),
    Row(
        "property-removed-open-request",  # any value is accepted under "b" now: looser for senders
        C,
        obj({"a": NAME, "b": INT}),
        obj({"a": NAME}),
        {("compat-property-unlisted", INFO)},
    ),
    Row(
        "property-removed-closed-request",
        C,
        obj({"a": NAME, "b": INT}, additionalProperties=False),
        obj({"a": NAME}, additionalProperties=False),
        {("compat-property-removed", E)},
    ),
    Row("property-removed-event", H, obj({"a": NAME, "b": INT}), obj({"a": NAME}), {("compat-property-removed", E)}),
    Row(
        "optional-property-added-closed-request",
        C,
        obj({"a": NAME}, additionalProperties=False),
        obj({"a": NAME, "b": INT}, additionalProperties=False),
        {("compat-property-added", INFO)},
    ),
    Row(
        "optional-property-added-closed-event",
        H,
        obj({"a": NAME}, additionalProperties=False),
        obj({"a": NAME, "b": INT}, additionalProperties=False),
        {("compat-property-added", INFO)},
    ),
    Row(
        "required-added-request",
        C,
        obj({"a": NAME, "b": INT}),
        obj({"a": NAME, "b": INT}, required=["b"]),
        {("compat-required-added", E)},
    ),
    Row(
        "required-added-event",
        H,
        obj({"a": NAME, "b": INT}),
        obj({"a": NAME, "b": INT}, required=["b"]),
        {("compat-required-added", INFO)},
    ),
    Row(
        "required-added-artifact",
        A,
        obj({"a": NAME}),
        obj({"a": NAME}, required=["a"]),
        {("compat-required-added", E)},
    ),
    Row(
        "new-required-property-request",
        C,
        obj({"a": NAME}),
        obj({"a": NAME, "b": INT}, required=["b"]),
        {("compat-property-added", INFO), ("compat-required-added", E)},
    ),
    Row(
        "required-removed-event",
        H,
        obj({"a": NAME}, required=["a"]),
        obj({"a": NAME}),
        {("compat-required-removed", E)},
    ),
    Row(
        "required-removed-request",
        C,
        obj({"a": NAME}, required=["a"]),
        obj({"a": NAME}),
        {("compat-required-removed", INFO)},
    ),
    Row("integer-to-number-event", H, obj({"n": INT}), obj({"n": NUM}), {("compat-type-widened", E)}),
    Row("integer-to-number-request", C, obj({"n": INT}), obj({"n": NUM}), {("compat-type-widened", INFO)}),
    Row("number-to-integer-request", C, obj({"n": NUM}), obj({"n": INT}), {("compat-type-narrowed", E)}),
    Row("number-to-integer-event", H, obj({"n": NUM}), obj({"n": INT}), {("compat-type-narrowed", INFO)}),
    Row("string-to-integer", A, obj({"n": NAME}), obj({"n": INT}), {("compat-type-changed", E)}),
    Row("type-dropped-event", H, obj({"n": NAME}), obj({"n": {}}), {("compat-type-widened", E)}),
    Row(
        "nullable-request",
        C,
        obj({"n": NAME}),
        obj({"n": {"type": ["string", "null"]}}),
        {("compat-type-widened", INFO)},
    ),
    Row(
        "type-spelled-out-for-an-enum",
        C,
        obj({"k": {"enum": ["a", "b"]}}),
        obj({"k": {"type": "string", "enum": ["a", "b"]}}),
        set(),
    ),
    Row(
        "enum-widened-event",
        H,
        obj({"k": {"enum": ["a", "b"]}}),
        obj({"k": {"enum": ["a", "b", "c"]}}),
        {("compat-enum-value-added", INFO)},
    ),
    Row(
        "enum-widened-request",
        C,
        obj({"k": {"enum": ["a", "b"]}}),
        obj({"k": {"enum": ["a", "b", "c"]}}),
        {("compat-enum-value-added", INFO)},
    ),
    Row(
        "enum-widened-artifact",
        A,
        obj({"k": {"enum": ["a", "b"]}}),
        obj({"k": {"enum": ["a", "b", "c"]}}),
        {("compat-enum-value-added", W)},
    ),
    Row(
        "enum-value-removed-request",
        C,
        obj({"k": {"enum": ["a", "b"]}}),
        obj({"k": {"enum": ["a"]}}),
        {("compat-enum-value-removed", E)},
    ),
    Row(
        "enum-value-removed-event",
        H,
        obj({"k": {"enum": ["a", "b"]}}),
        obj({"k": {"enum": ["a"]}}),
        {("compat-enum-value-removed", E)},
    ),
    Row("enum-reordered", C, obj({"k": {"enum": ["a", "b"]}}), obj({"k": {"enum": ["b", "a"]}}), set()),
    Row(
        "const-changed",
        H,
        obj({"k": {"const": "left"}}),
        obj({"k": {"const": "right"}}),
        {("compat-const-changed", E)},
    ),
    Row(
        "minimum-raised-request",
        C,
        obj({"n": {**INT, "minimum": 0}}),
        obj({"n": {**INT, "minimum": 1}}),
        {("compat-bound-tightened", E)},
    ),
    Row(
        "minimum-raised-event",
        H,
        obj({"n": {**INT, "minimum": 0}}),
        obj({"n": {**INT, "minimum": 1}}),
        {("compat-bound-tightened", INFO)},
    ),
    Row(
        "maximum-raised-event",
        H,
        obj({"n": {**NUM, "maximum": 1}}),
        obj({"n": {**NUM, "maximum": 2}}),
        {("compat-bound-loosened", W)},
    ),
    Row(
        "max-length-lowered-request",
        C,
        obj({"s": {**NAME, "maxLength": 64}}),
        obj({"s": {**NAME, "maxLength": 32}}),
        {("compat-bound-tightened", E)},
    ),
    Row(
        "min-length-dropped-request",
        C,
        obj({"s": {**NAME, "minLength": 1}}),
        obj({"s": NAME}),
        {("compat-bound-loosened", INFO)},
    ),
    Row(
        "min-items-added-artifact",
        A,
        obj({"l": {"type": "array"}}),
        obj({"l": {"type": "array", "minItems": 1}}),
        {("compat-bound-tightened", E)},
    ),
    Row(
        "max-items-raised-artifact",
        A,
        obj({"l": {"type": "array", "maxItems": 3}}),
        obj({"l": {"type": "array", "maxItems": 5}}),
        {("compat-bound-loosened", W)},
    ),
    Row(
        "multiple-of-tightened",
        C,
        obj({"n": {**NUM, "multipleOf": 0.5}}),
        obj({"n": {**NUM, "multipleOf": 1}}),
        {("compat-bound-tightened", E)},
    ),
    Row(
        "multiple-of-loosened",
        C,
        obj({"n": {**NUM, "multipleOf": 1}}),
        obj({"n": {**NUM, "multipleOf": 0.25}}),
        {("compat-bound-loosened", INFO)},
    ),
    Row(
        "unique-items-added",
        C,
        obj({"l": {"type": "array"}}),
        obj({"l": {"type": "array", "uniqueItems": True}}),
        {("compat-bound-tightened", E)},
    ),
    Row(
        "version-ceiling-raised",
        H,
        obj({"version": {**INT, "minimum": 1, "maximum": 5}}),
        obj({"version": {**INT, "minimum": 1, "maximum": 6}}),
        {("compat-version-ceiling-raised", INFO)},
    ),
    Row(
        "version-ceiling-lowered",
        H,
        obj({"version": {**INT, "minimum": 1, "maximum": 6}}),
        obj({"version": {**INT, "minimum": 1, "maximum": 5}}),
        {("compat-version-ceiling-lowered", E)},
    ),
    Row(  # compared pattern by pattern; on an open object a pattern gone frees its members, one new holds them
        "pattern-properties-shared-pattern-narrowed",
        C,
        {"type": "object", "patternProperties": {"^a": NUM, "^b": NAME}},
        {"type": "object", "patternProperties": {"^a": INT, "^c": NAME}},
        {("compat-type-narrowed", E), ("compat-type-widened", INFO)},
    ),
    Row(  # a pattern gone and one new that may match the same names: where no name is found that the new
        # one matches alone, the gone one may have held them all to another schema, so it is not compared
        # against `{}` (it read as a union added, an error, where the members were widened); the gone one
        # matches names the new one does not (`A`), freed to take anything
        "pattern-properties-rival-patterns",
        C,
        {"type": "object", "patternProperties": {"^.+$": NAME}},
        {"type": "object", "patternProperties": {"^[a-z]+$": {"oneOf": [NAME, {"type": "object"}]}}},
        {("compat-type-widened", INFO), ("compat-keyword-changed", W)},
    ),
    Row(  # a pattern widened: the names only the new one matches (`A`) were free and are now held
        "pattern-properties-rival-pattern-widened",
        C,
        {"type": "object", "patternProperties": {"^[a-z]+$": NAME}},
        {"type": "object", "patternProperties": {"^[a-zA-Z]+$": NAME}},
        {("compat-type-narrowed", E), ("compat-keyword-changed", W)},
    ),
    Row(  # beside a closure and another pattern, a pattern gone or new is left to the reader
        "pattern-properties-pattern-apart-beside-a-closure",
        C,
        {"type": "object", "patternProperties": {"^a": NUM, "^b": NAME}, "additionalProperties": False},
        {"type": "object", "patternProperties": {"^a": NUM, "^c": NAME}, "additionalProperties": False},
        {("compat-keyword-changed", W)},
    ),
    Row(
        "pattern-properties-empty-pattern-added-to-an-open-object",
        C,
        {"type": "object", "patternProperties": {"^a": NUM}},
        {"type": "object", "patternProperties": {"^a": INT, "^x-": {}}},
        {("compat-type-narrowed", E)},
    ),
    Row(  # a character class is a set: its letters and ranges in another order match the same
        "pattern-class-reordered",
        C,
        obj({"s": {**NAME, "pattern": "^[a-zA-Z0-9_]+$"}}),
        obj({"s": {**NAME, "pattern": "^[_0-9A-Za-z]+$"}}),
        set(),
    ),
    Row(  # ... and a class that gains a letter is still a change
        "pattern-class-widened",
        C,
        obj({"s": {**NAME, "pattern": "^[a-z]+$"}}),
        obj({"s": {**NAME, "pattern": "^[a-z_]+$"}}),
        {("compat-pattern-changed", W)},
    ),
    Row(  # the two spellings of one case-blind letter pair up, and the constants each side lists the
        # pattern takes: no value moves (the enum of each side was paired with the other's pattern)
        "pattern-class-reordered-beside-constants",
        C,
        obj({"a": {**NAME, "anyOf": [{"enum": ["x"]}, {"pattern": "^[xX]$"}]}}),
        obj({"a": {**NAME, "anyOf": [{"enum": ["X"]}, {"pattern": "^[Xx]$"}]}}),
        {("compat-branch-covered", INFO)},
    ),
    Row(  # `\/` is `/`: the same pattern in the spelling of a JavaScript regex literal
        "pattern-slash-escaped",
        C,
        obj({"s": {**NAME, "pattern": "^\\/a"}}),
        obj({"s": {**NAME, "pattern": "^/a"}}),
        set(),
    ),
    Row(  # an escaped backslash before the slash is no escaped slash
        "pattern-backslash-then-slash",
        C,
        obj({"s": {**NAME, "pattern": "^\\\\/a"}}),
        obj({"s": {**NAME, "pattern": "^/a"}}),
        {("compat-pattern-changed", W)},
    ),
    Row(
        "pattern-changed",
        C,
        obj({"s": {**NAME, "pattern": "^[a-z]+$"}}),
        obj({"s": {**NAME, "pattern": "^[a-z0-9]+$"}}),
        {("compat-pattern-changed", W)},
    ),
    Row(
        "format-changed",
        H,
        obj({"s": {**NAME, "format": "date"}}),
        obj({"s": {**NAME, "format": "date-time"}}),
        {("compat-format-changed", W)},
    ),
    Row(
        "additional-properties-true-to-false-request",
        C,
        obj({"a": NAME}, additionalProperties=True),
        obj({"a": NAME}, additionalProperties=False),
        {("compat-additional-properties-closed", E)},
    ),
    Row(
        "event-closed",
        H,
        obj({"a": NAME}),
        obj({"a": NAME}, additionalProperties=False),
        {("compat-additional-properties-closed", E)},
    ),
    Row(
        "request-opened",
        C,
        obj({"a": NAME}, additionalProperties=False),
        obj({"a": NAME}),
        {("compat-additional-properties-opened", INFO)},
    ),
    Row(
        "content-free-event-opened",
        H,
        obj({"a": NAME}, additionalProperties=False),
        obj({"a": NAME}, additionalProperties=True),
        {("compat-additional-properties-opened", E)},
    ),
    Row(
        "additional-properties-schema-narrowed",
        C,
        {"type": "object", "additionalProperties": NUM},
        {"type": "object", "additionalProperties": INT},
        {("compat-type-narrowed", E)},
    ),
    Row(
        "one-of-branch-added-request",
        C,
        {"oneOf": [{"$ref": "#/$defs/left"}], "$defs": {"left": obj({"side": {"const": "left"}})}},
        {
            "oneOf": [{"$ref": "#/$defs/left"}, {"$ref": "#/$defs/right"}],
            "$defs": {"left": obj({"side": {"const": "left"}}), "right": obj({"side": {"const": "right"}})},
        },
        {("compat-branch-added", INFO)},
    ),
    Row(
        "one-of-branch-added-event",
        H,
        {"oneOf": [NAME]},
        {"oneOf": [NAME, INT]},
        {("compat-branch-added", W)},
    ),
    Row(
        "any-of-branch-removed-request",
        C,
        {"anyOf": [NAME, INT, {"type": "boolean"}]},
        {"anyOf": [NAME]},
        {("compat-branch-removed", E)},
    ),
    Row("one-of-reordered", C, {"oneOf": [NAME, INT]}, {"oneOf": [INT, NAME]}, set()),
    Row(
        "one-of-branch-changed-in-place",
        H,
        {"oneOf": [obj({"a": NAME}), INT]},
        {"oneOf": [INT, obj({"a": NAME, "b": NAME})]},
        {("compat-property-added", INFO)},
    ),
    Row(
        "all-of-member-laid-in",  # an allOf member that shares no keyword with the rest is part of the object
        C,
        {"allOf": [obj({"a": NAME})]},
        {"allOf": [obj({"a": NAME}), {"required": ["a"]}]},
        {("compat-required-added", E)},
    ),
    Row(
        "all-of-branch-added",  # one that repeats a keyword of another stays a member: unclassified
        C,
        {"allOf": [obj({"a": NAME})]},
        {"allOf": [obj({"a": NAME}), obj({"b": NAME})]},
        {("compat-keyword-changed", W)},
    ),
    Row("not-added", C, obj({"a": NAME}), obj({"a": {**NAME, "not": {"const": ""}}}), {("compat-keyword-changed", W)}),
    Row(
        "items-retyped",
        A,
        obj({"l": {"type": "array", "items": NAME}}),
        obj({"l": {"type": "array", "items": INT}}),
        {("compat-type-changed", E)},
    ),
    Row("boolean-schema-closed", C, obj({"a": True}), obj({"a": False}), {("compat-type-narrowed", E)}),
    Row(
        "deep-property-removed-in-def",
        H,
        obj({"x": {"$ref": "#/$defs/x"}}, **{"$defs": {"x": obj({"inner": obj({"deep": NAME, "kept": NAME})})}}),
        obj({"x": {"$ref": "#/$defs/x"}}, **{"$defs": {"x": obj({"inner": obj({"kept": NAME})})}}),
        {("compat-property-removed", E)},
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_schema_pair(tmp_path: Path, row: Row) -> None:
    base = {"thing": thing(copy.deepcopy(row.base), row.direction)}
    head = {"thing": thing(copy.deepcopy(row.head), row.direction)}
    changes = run_compat(tmp_path, base, head)
    assert outcome(changes) == row.expected, [c.message for c in changes]
    for change in changes:
        assert change.path == "schemas/thing.schema.json"
        assert change.base is not None and change.head is not None
        assert change.base.line >= 1 and change.head.line >= 1


def test_table_is_large_enough() -> None:
    assert len(ROWS) >= 40
    rule_ids = {rule for row in ROWS for rule, _ in row.expected}
    assert len(rule_ids) >= 20


def test_lines_and_pointers_on_both_sides(tmp_path: Path) -> None:
    base = {"thing": thing(obj({"a": NAME, "b": INT}), H)}
    head = {"thing": thing(obj({"a": NAME}), H)}
    (change,) = run_compat(tmp_path, base, head)
    assert change.rule == "compat-property-removed"
    assert change.base is not None and change.head is not None
    assert change.base.pointer == "/properties/b"
    assert change.head.pointer == "/properties"
    base_text = (tmp_path / "base/schemas/thing.schema.json").read_text().splitlines()
    head_text = (tmp_path / "head/schemas/thing.schema.json").read_text().splitlines()
    assert base_text[change.base.line - 1].strip().startswith('"b"')
    assert head_text[change.head.line - 1].strip().startswith('"properties"')


@pytest.mark.parametrize(
    ("base", "head", "message"),
    [
        (obj({"a": NAME}, additionalProperties=True), obj({"a": NAME}, additionalProperties=INT), "open -> "),
        (obj({"a": NAME}), obj({"a": NAME}, additionalProperties=False), "additionalProperties open -> false"),
        ({"type": "array"}, {"type": "array", "maxItems": 5}, "maxItems absent -> 5"),
        ({"type": "string", "pattern": "^a"}, {"type": "string"}, 'pattern "^a" -> absent'),
    ],
)
def test_a_keyword_that_is_absent_or_open_is_named_so(
    tmp_path: Path, base: dict[str, Any], head: dict[str, Any], message: str
) -> None:
    (change,) = run_compat(tmp_path, {"thing": thing(base, C)}, {"thing": thing(head, C)})
    assert message in change.message and "null" not in change.message
