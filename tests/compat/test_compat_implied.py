"""Keywords that change nothing a validator decides, and changes the walk must still classify.

A keyword whose effect the rest of the schema already has (a `type` beside a union that admits no
other type), one a draft does not read where it sits (`additionalItems` beside a single `items`
schema), one that refuses no value (an `additionalProperties` schema that accepts anything) or one
no draft defines the meaning of (an unknown `format`) is no change when it comes or goes; the same
keyword where it does refuse something is still reported, by direction.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from support.compat_support import outcome, run_compat, thing
from wopgen.cli import cli

DRAFT7 = "http://json-schema.org/draft-07/schema#"
C, H, A = "client-sent", "host-emitted", "artifact"
E, W, INFO = "error", "warning", "info"
TEXT = {"type": "string"}


def compared(tmp_path: Path, base: dict[str, Any], head: dict[str, Any], direction: str = A) -> set[tuple[str, str]]:
    """(rule, severity) of each change from `base` to `head`, the member `ref` of an object."""
    wrap = {"type": "object", "properties": {"ref": base}}
    into = {"type": "object", "properties": {"ref": head}}
    return outcome(run_compat(tmp_path, {"thing": thing(wrap, direction)}, {"thing": thing(into, direction)}))


# --- a type beside a union -------------------------------------------------------------------------

LINK = {"$defs": {"link": {"type": "string", "minLength": 1}}}


@pytest.mark.parametrize("union", ["anyOf", "oneOf"])
def test_a_type_every_branch_already_has_narrows_nothing(tmp_path: Path, union: str) -> None:
    branches = [{"type": "string", "minLength": 1}, {"type": "string", "pattern": "^urn:"}]
    assert compared(tmp_path / "inline", {union: branches}, {"type": "string", union: branches}, C) == set()
    assert compared(tmp_path / "gone", {"type": "string", union: branches}, {union: branches}, H) == set()


def test_a_type_branches_reached_by_ref_already_have_narrows_nothing(tmp_path: Path) -> None:
    branches = [{"$ref": "#/$defs/link"}, {"allOf": [{"$ref": "#/$defs/link"}]}, {"type": "string", "pattern": "^u"}]
    base = {"type": "object", "properties": {"ref": {"anyOf": branches}}, **LINK}
    head = {"type": "object", "properties": {"ref": {"type": "string", "anyOf": branches}}, **LINK}
    assert outcome(run_compat(tmp_path, {"thing": thing(base, C)}, {"thing": thing(head, C)})) == set()


def test_a_type_both_outcomes_of_a_condition_already_have_narrows_nothing(tmp_path: Path) -> None:
    """A reference or the object itself: whether `if` passes or not, the value is an object."""
    chosen = {"if": {"type": "object", "required": ["$ref"]}, "then": {"type": "object"}, "else": {"type": "object"}}
    assert compared(tmp_path, chosen, {"type": "object", **chosen}, C) == set()


def test_a_type_one_outcome_of_a_condition_lacks_still_narrows(tmp_path: Path) -> None:
    chosen = {"if": {"type": "object"}, "then": {"required": ["name"]}}  # a string fails `if`: no `else` holds it
    assert compared(tmp_path, chosen, {"type": "object", **chosen}, C) == {("compat-type-narrowed", E)}


def test_a_type_one_branch_lacks_still_narrows(tmp_path: Path) -> None:
    branches = [{"type": "string"}, {"type": "integer"}]
    assert compared(tmp_path, {"anyOf": branches}, {"type": "string", "anyOf": branches}, C) == {
        ("compat-type-narrowed", E)
    }


REQUIRED_ONLY = [{"required": ["license"]}, {"required": ["expression"]}]
MEMBERS = {"license": TEXT, "expression": TEXT}


def test_object_beside_a_one_of_of_required_only_branches_narrows_nothing(tmp_path: Path) -> None:
    # a non-object passes both branches, so the oneOf already refused every non-object
    base = {"properties": MEMBERS, "oneOf": REQUIRED_ONLY}
    assert compared(tmp_path, base, {"type": "object", **base}, C) == set()


def test_object_beside_an_any_of_of_required_only_branches_narrows(tmp_path: Path) -> None:
    # a non-object passes every branch of the anyOf: "x" was accepted and is now refused
    base = {"properties": MEMBERS, "anyOf": REQUIRED_ONLY}
    assert compared(tmp_path, base, {"type": "object", **base}, C) == {("compat-type-narrowed", E)}


def test_object_beside_a_one_of_one_of_whose_branches_takes_every_string_narrows(tmp_path: Path) -> None:
    # a string passes {"required": ...} and fails {"type": "object", ...}: exactly one branch, accepted
    base = {"oneOf": [{"required": ["license"]}, {"type": "object", "required": ["expression"]}]}
    assert compared(tmp_path, base, {"type": "object", **base}, C) == {("compat-type-narrowed", E)}


def test_a_type_list_shortened_to_what_the_union_admits_narrows_nothing(tmp_path: Path) -> None:
    strings = [{"type": "string", "minLength": 1}, {"type": "string", "pattern": "^urn:"}]
    base, head = {"type": ["string", "null"], "anyOf": strings}, {"type": "string", "anyOf": strings}
    assert compared(tmp_path / "same", base, head, C) == set()
    either = [{"type": "string"}, {"type": "null"}]
    assert compared(
        tmp_path / "less", {"type": ["string", "null"], "anyOf": either}, {"type": "string", "anyOf": either}, C
    ) == {("compat-type-narrowed", E)}


# --- additionalItems where a draft does not read it ------------------------------------------------


def compared_files(tmp_path: Path, base: dict[str, Any], head: dict[str, Any], *args: str) -> set[tuple[str, str]]:
    """(rule, severity) of each change between two plain draft-07 files whose `list` is `base`, `head`."""
    paths = []
    for name, body in (("old", base), ("new", head)):
        path = tmp_path / f"{name}.json"
        tmp_path.mkdir(parents=True, exist_ok=True)
        doc = {"$schema": DRAFT7, "definitions": {"Doc": {"type": "object", "properties": {"list": body}}}}
        path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        paths.append(str(path))
    command = ["compat", "--against", paths[0], "--head", paths[1], *args, "--format", "json"]
    result = CliRunner().invoke(cli, command, catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return {(c["rule"], c["severity"]) for c in json.loads(result.output)["changes"]}


@pytest.mark.parametrize("items", [{"items": TEXT}, {"items": {"$ref": "#/definitions/Doc"}}, {}])
def test_additional_items_beside_a_single_items_schema_is_no_change(tmp_path: Path, items: dict[str, Any]) -> None:
    # draft-07 reads additionalItems only beside an array of items: ["a", 5] is refused either way
    base = {"type": "array", **items}
    assert compared_files(tmp_path / "closed", base, {**base, "additionalItems": False}) == set()
    assert compared_files(tmp_path / "opened", {**base, "additionalItems": TEXT}, base) == set()


def test_additional_items_beside_a_tuple_is_still_a_change(tmp_path: Path) -> None:
    base = {"type": "array", "items": [TEXT]}
    assert compared_files(tmp_path, base, {**base, "additionalItems": False}) == {("compat-type-narrowed", E)}


# --- the rest of an array closed or opened -----------------------------------------------------------

TUPLE = {"type": "array", "items": [TEXT]}
CLOSED_TUPLE = {**TUPLE, "additionalItems": False}


@pytest.mark.parametrize(
    ("base", "head"),
    [
        (TUPLE, CLOSED_TUPLE),  # no item past the tuple any more
        ({**TUPLE, "additionalItems": TEXT}, CLOSED_TUPLE),
        ({"type": "array"}, {"type": "array", "items": False}),  # only the empty array
        ({"type": "array", "items": TEXT}, {"type": "array", "items": False}),
        (TUPLE, {**TUPLE, "additionalItems": {"type": "integer"}}),  # a schema gained is compared as one
    ],
)
def test_closing_the_rest_of_an_array_is_a_narrowing(
    tmp_path: Path, base: dict[str, Any], head: dict[str, Any]
) -> None:
    """Like `items` tightened: senders of the longer arrays are refused, readers never meet more."""
    assert compared_files(tmp_path / "sent", base, head, "--direction", C) == {("compat-type-narrowed", E)}
    assert compared_files(tmp_path / "read", base, head, "--direction", H) == {("compat-type-narrowed", INFO)}
    assert compared_files(tmp_path / "opened", head, base, "--direction", C) == {("compat-type-widened", INFO)}
    assert compared_files(tmp_path / "met", head, base, "--direction", H) == {("compat-type-widened", E)}


def test_closing_the_rest_of_a_2020_tuple_is_a_narrowing(tmp_path: Path) -> None:
    base = {"type": "array", "prefixItems": [TEXT]}
    for keyword in ("items", "unevaluatedItems"):
        closed = {**base, keyword: False}
        assert compared(tmp_path / keyword, base, closed, C) == {("compat-type-narrowed", E)}
        assert compared(tmp_path / f"{keyword}-read", base, closed, H) == {("compat-type-narrowed", INFO)}


@pytest.mark.parametrize("items", [TEXT, True, {}])
def test_unevaluated_items_beside_a_single_items_schema_reads_no_item(tmp_path: Path, items: Any) -> None:
    """`items` evaluates every item past the tuple (none here), so the closure beside it is idle."""
    listed = {"type": "array", "items": items}
    assert compared(tmp_path / "sent", listed, {**listed, "unevaluatedItems": False}, C) == set()
    assert compared(tmp_path / "read", {**listed, "unevaluatedItems": False}, listed, H) == set()


# --- an additionalProperties schema that refuses nothing -------------------------------------------

SCALARS = {"type": ["string", "number", "boolean", "null"]}


def json_value(scalars: dict[str, Any]) -> dict[str, Any]:
    """An object whose unnamed members hold a recursive JSON value of objects, arrays and `scalars`."""
    return {
        "type": "object",
        "properties": {"form": {"$ref": "#/$defs/object"}},
        "$defs": {
            "object": {"type": "object", "additionalProperties": {"$ref": "#/$defs/value"}},
            "value": {
                "anyOf": [
                    {"$ref": "#/$defs/object"},
                    {"type": "array", "items": {"$ref": "#/$defs/value"}},
                    scalars,
                ]
            },
        },
    }


OPEN_FORM = {"type": "object", "properties": {"form": {"type": "object", "additionalProperties": True}}}


def test_an_additional_properties_schema_of_every_type_closes_nothing(tmp_path: Path) -> None:
    every = {"type": ["string", "number", "boolean", "null", "array", "object"]}
    closed = {"type": "object", "properties": {"form": {"type": "object", "additionalProperties": every}}}
    assert outcome(run_compat(tmp_path, {"thing": thing(OPEN_FORM, C)}, {"thing": thing(closed, C)})) == set()


def test_an_additional_properties_schema_of_any_json_value_closes_nothing(tmp_path: Path) -> None:
    head = json_value(SCALARS)
    assert outcome(run_compat(tmp_path, {"thing": thing(OPEN_FORM, C)}, {"thing": thing(head, C)})) == set()


@pytest.mark.parametrize(
    "scalars",
    [
        {"type": ["string", "integer", "boolean"]},  # 1.5 and null were accepted, now refused
        {"type": ["string", "number", "boolean", "null"], "maxLength": 9},
    ],
)
def test_an_additional_properties_schema_that_refuses_a_value_still_closes(
    tmp_path: Path, scalars: dict[str, Any]
) -> None:
    head = json_value(scalars)
    assert outcome(run_compat(tmp_path, {"thing": thing(OPEN_FORM, C)}, {"thing": thing(head, C)})) == {
        ("compat-additional-properties-closed", E)
    }


def test_a_member_schema_that_holds_only_objects_is_no_json_value(tmp_path: Path) -> None:
    # objects whose members are such objects, or any scalar or array: {"a": 1} is refused
    only_objects = {"type": "object", "additionalProperties": {"$ref": "#/$defs/nested"}}
    rest = {"type": ["string", "number", "boolean", "null", "array"]}
    head = {
        "type": "object",
        "properties": {"form": {"type": "object", "additionalProperties": {"$ref": "#/$defs/either"}}},
        "$defs": {"either": {"anyOf": [{"$ref": "#/$defs/nested"}, rest]}, "nested": only_objects},
    }
    assert outcome(run_compat(tmp_path, {"thing": thing(OPEN_FORM, C)}, {"thing": thing(head, C)})) == {
        ("compat-additional-properties-closed", E)
    }


# --- keywords for a type the other side refuses ----------------------------------------------------

COMMAND = {"type": ["string", "array"], "items": TEXT}


def test_object_keywords_beside_objects_gained_are_part_of_the_type_gained(tmp_path: Path) -> None:
    """The base took no object at all, so what the head asks of one refuses nothing the base took."""
    named = {**COMMAND, "type": ["string", "array", "object"], "additionalProperties": COMMAND}
    assert compared(tmp_path / "gained", COMMAND, named, C) == {("compat-type-widened", INFO)}
    assert compared(tmp_path / "lost", named, COMMAND, C) == {("compat-type-narrowed", E)}


def test_object_keywords_gained_where_objects_were_taken_still_close(tmp_path: Path) -> None:
    taken = {**COMMAND, "type": ["string", "array", "object"]}
    assert compared(tmp_path, taken, {**taken, "additionalProperties": COMMAND}, C) == {
        ("compat-additional-properties-closed", E)
    }


# --- an allOf member that repeats the object's type -------------------------------------------------

REQUIREMENTS = {"type": "object", "properties": {"cpus": {"type": "integer", "minimum": 1}, "memory": TEXT}}


@pytest.mark.parametrize("direction", [C, H])
def test_an_all_of_member_repeating_the_type_beside_it_reads_as_the_object(tmp_path: Path, direction: str) -> None:
    """`"type": "object"` asked by the object and by its one member is asked once: moving the member's
    members into the object moves no value."""
    wrapped = {"type": "object", "allOf": [REQUIREMENTS]}
    assert compared(tmp_path / "out", wrapped, REQUIREMENTS, direction) == set()
    assert compared(tmp_path / "in", REQUIREMENTS, wrapped, direction) == set()


def test_an_all_of_member_repeating_the_type_is_compared_member_by_member(tmp_path: Path) -> None:
    wrapped = {"type": "object", "allOf": [REQUIREMENTS]}
    closed = {**REQUIREMENTS, "unevaluatedProperties": False}
    assert compared(tmp_path, wrapped, closed, C) == {("compat-additional-properties-closed", E)}


# --- items gained where there were none ------------------------------------------------------------


@pytest.mark.parametrize("before", [{}, {"items": {}}, {"items": True}])
@pytest.mark.parametrize(("direction", "severity"), [(C, E), (A, E), (H, INFO)])
def test_items_gained_is_classified_as_items_tightened(
    tmp_path: Path, before: dict[str, Any], direction: str, severity: str
) -> None:
    # [5] was accepted and is now refused: the narrowing a tightened items schema is
    base, head = {"type": "array", **before}, {"type": "array", "items": {"type": "string"}}
    assert compared(tmp_path, base, head, direction) == {("compat-type-narrowed", severity)}
    assert compared(tmp_path / "tightened", {"type": "array", "items": {}}, head, direction) == {
        ("compat-type-narrowed", severity)
    }


def test_items_dropped_is_classified_as_items_loosened(tmp_path: Path) -> None:
    base = {"type": "array", "items": {"type": "string", "maxLength": 5}}
    assert compared(tmp_path, base, {"type": "array"}, H) == {
        ("compat-type-widened", E),
        ("compat-bound-loosened", W),
    }


def test_items_gained_that_refuse_nothing_are_no_change(tmp_path: Path) -> None:
    every = {"type": ["string", "number", "boolean", "null", "array", "object"], "description": "anything"}
    assert compared(tmp_path, {"type": "array"}, {"type": "array", "items": every}, C) == set()


# --- a format no draft defines ---------------------------------------------------------------------


@pytest.mark.parametrize(("before", "after"), [("string", None), (None, "strnig"), ("string", "text")])
def test_a_format_no_draft_defines_is_no_change(tmp_path: Path, before: str | None, after: str | None) -> None:
    def text(name: str | None) -> dict[str, Any]:
        return {"type": "string", **({"format": name} if name else {})}

    assert compared(tmp_path, text(before), text(after), C) == set()


@pytest.mark.parametrize(("before", "after"), [("string", "date"), ("date", None), (None, "iri-reference")])
def test_a_format_a_draft_defines_is_still_a_change(tmp_path: Path, before: str | None, after: str | None) -> None:
    def text(name: str | None) -> dict[str, Any]:
        return {"type": "string", **({"format": name} if name else {})}

    assert compared(tmp_path, text(before), text(after), C) == {("compat-format-changed", W)}


# --- an empty member schema beside a closure -------------------------------------------------------

CLOSED = {"type": "object", "properties": {"name": TEXT}, "additionalProperties": False}


@pytest.mark.parametrize(
    ("direction", "gained", "lost"),
    [
        (C, ("compat-additional-properties-opened", INFO), ("compat-additional-properties-closed", E)),
        (H, ("compat-additional-properties-opened", E), ("compat-additional-properties-closed", E)),
    ],
)
def test_an_empty_pattern_schema_beside_a_closure_opens_it_for_the_members_it_matches(
    tmp_path: Path, direction: str, gained: tuple[str, str], lost: tuple[str, str]
) -> None:
    # {"x-a": 1} is refused without the pattern and taken with it: the closure opened for `x-` members
    extensible = {**CLOSED, "patternProperties": {"^x-": {}}}
    assert compared(tmp_path / "gained", CLOSED, extensible, direction) == {gained}
    assert compared(tmp_path / "lost", extensible, CLOSED, direction) == {lost}


def test_an_exemption_from_a_closure_that_may_meet_a_listed_member_is_left_to_the_reader(tmp_path: Path) -> None:
    # `name` is listed and `^na` matches it: what the pattern changes for it is not the closure's
    extensible = {**CLOSED, "patternProperties": {"^na": {}}}
    assert compared(tmp_path, CLOSED, extensible, C) == {("compat-keyword-changed", W)}


def test_a_false_pattern_removed_beside_an_additional_properties_schema_accepts_what_that_does(
    tmp_path: Path,
) -> None:
    # {"x-a": "s"} was refused and is now taken, as additionalProperties takes it
    open_to_text = {"type": "object", "additionalProperties": TEXT}
    guarded = {**open_to_text, "patternProperties": {"^x-": False}}
    assert compared(tmp_path / "removed", guarded, open_to_text, C) == {("compat-type-widened", INFO)}
    assert compared(tmp_path / "added", open_to_text, guarded, C) == {("compat-type-narrowed", E)}


def test_a_pattern_held_to_a_shape_beside_another_closure_is_left_to_the_reader(tmp_path: Path) -> None:
    # the two may say the same in other words (a oneOf of two shapes against an if/then/else of them)
    either = {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    chosen = {"if": {"type": "string"}, "then": {"type": "string"}, "else": {"type": "integer"}}
    base = {"type": "object", "patternProperties": {"^[a-z]+$": either}}
    head = {"type": "object", "additionalProperties": chosen}
    assert ("compat-keyword-changed", W) in compared(tmp_path, base, head, C)
    assert not {rule for rule, _ in compared(tmp_path, base, head, C)} & {
        "compat-branch-removed",
        "compat-branch-added",
    }


def test_an_empty_pattern_schema_on_an_open_object_is_no_change(tmp_path: Path) -> None:
    opened = {"type": "object", "properties": {"name": TEXT}}
    assert compared(tmp_path, opened, {**opened, "patternProperties": {"^x-": {}}}, C) == set()


def test_an_empty_pattern_schema_gone_with_its_closure_is_the_closure_opened(tmp_path: Path) -> None:
    """Without the closure the exemption exempts nothing: the closure opening is the whole change."""
    extensible = {**CLOSED, "patternProperties": {"^x-": {}}}
    opened = {"type": "object", "properties": {"name": TEXT}}
    assert compared(tmp_path / "gone", extensible, opened, C) == {("compat-additional-properties-opened", INFO)}
    assert compared(tmp_path / "come", opened, extensible, C) == {("compat-additional-properties-closed", E)}


# --- additionalProperties: false become unevaluatedProperties: false --------------------------------

EXTENSIONS = {"$defs": {"extensions": {"patternProperties": {"^x-": True}}}}


def compared_roots(tmp_path: Path, base: dict[str, Any], head: dict[str, Any], direction: str) -> set[tuple[str, str]]:
    return outcome(run_compat(tmp_path, {"thing": thing(base, direction)}, {"thing": thing(head, direction)}))


def test_a_closure_moved_to_unevaluated_properties_is_no_change(tmp_path: Path) -> None:
    """The usual move to 2020-12: the same names, the extensions through a `$ref` beside the closure."""
    base = {**EXTENSIONS, **CLOSED, "patternProperties": {"^x-": {}}}
    head = {**EXTENSIONS, "type": "object", "properties": {"name": TEXT}, "$ref": "#/$defs/extensions"}
    head["unevaluatedProperties"] = False
    for direction in (C, H):
        assert compared_roots(tmp_path / direction / "moved", base, head, direction) == set()
        assert compared_roots(tmp_path / direction / "back", head, base, direction) == set()


def test_a_closure_moved_beside_an_applicator_naming_members_is_still_a_change(tmp_path: Path) -> None:
    """unevaluatedProperties also takes what a branch evaluates: {"name": "a", "extra": 1} is now taken."""
    base = {**CLOSED, "anyOf": [{"required": ["name"]}, {"properties": {"extra": {}}}]}
    head = {**{k: v for k, v in base.items() if k != "additionalProperties"}, "unevaluatedProperties": False}
    assert compared_roots(tmp_path / "sent", base, head, C) == {("compat-additional-properties-opened", INFO)}
    assert compared_roots(tmp_path / "read", base, head, H) == {("compat-additional-properties-opened", E)}
    assert compared_roots(tmp_path / "back", head, base, C) == {("compat-additional-properties-closed", E)}


def test_unevaluated_properties_beside_additional_properties_reads_no_member(tmp_path: Path) -> None:
    """additionalProperties evaluates every member the rest do not name, so the closure beside it is idle."""
    opened = {"type": "object", "properties": {"name": TEXT}}
    assert (
        compared(tmp_path / "idle", opened, {**opened, "additionalProperties": True, "unevaluatedProperties": False}, C)
        == set()
    )
    moved = {**opened, "additionalProperties": {}, "unevaluatedProperties": False}  # open, not a closure moved
    assert compared(tmp_path / "open", CLOSED, moved, H) == {("compat-additional-properties-opened", E)}


def test_a_pattern_gone_whose_member_the_other_side_lists_is_left_to_the_reader(tmp_path: Path) -> None:
    # `^\$ref$` matches only `$ref`, which the head holds to a string by name: nothing was loosened
    base = {"type": "object", "patternProperties": {"^\\$ref$": TEXT}}
    head = {"type": "object", "properties": {"$ref": TEXT}}
    found = compared_roots(tmp_path, base, head, C)
    assert ("compat-keyword-changed", W) in found
    assert ("compat-type-widened", INFO) not in found


def test_a_property_removed_from_an_object_whose_patterns_do_not_match_it_is_unlisted(tmp_path: Path) -> None:
    # package.json's `coreProperties`: only `^_` is patterned, so `a` is held to nothing now
    base = {"type": "object", "patternProperties": {"^_": {}}, "properties": {"a": TEXT}}
    assert compared_roots(tmp_path / "apart", base, {"type": "object", "patternProperties": {"^_": {}}}, C) == {
        ("compat-property-unlisted", INFO)
    }
    matching = {"type": "object", "patternProperties": {"^a": {"type": "integer"}}}
    base = {**matching, "properties": {"a": TEXT}}
    assert ("compat-property-removed", E) in compared_roots(tmp_path / "matched", base, matching, C)


def test_a_property_added_where_additional_properties_held_the_name_is_compared_with_it(tmp_path: Path) -> None:
    # {"r": "x"} was taken as any string-valued member; the head's `r` must be an object
    base = {"type": "object", "additionalProperties": TEXT}
    narrowed = {**base, "properties": {"r": {"type": "object"}}}
    assert compared_roots(tmp_path / "narrowed", base, narrowed, C) == {("compat-type-changed", E)}
    same = {**base, "properties": {"r": TEXT}}
    assert compared_roots(tmp_path / "same", base, same, C) == {("compat-property-added", INFO)}


def test_a_type_the_base_enum_already_implied_is_no_narrowing(tmp_path: Path) -> None:
    # tsconfig's `module`: an enum of strings became a string of that enum or a pattern
    head = {"type": "string", "anyOf": [{"enum": ["a", "b"]}, {"pattern": "^x"}]}
    assert compared_roots(tmp_path, {"enum": ["a", "b"]}, head, C) == {("compat-branch-added", INFO)}


@pytest.mark.parametrize(
    ("kind", "keyword"), [("array", "minItems"), ("string", "minLength"), ("object", "minProperties")]
)
def test_a_lower_bound_of_zero_is_no_bound(tmp_path: Path, kind: str, keyword: str) -> None:
    # dependabot's `labels`: `minItems: 0` added
    assert compared_roots(tmp_path, {"type": kind}, {"type": kind, keyword: 0}, C) == set()
