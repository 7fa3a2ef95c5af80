"""An `if`/`then`/`else` set against a `oneOf`/`anyOf`: read as the union of its two arms.

OpenAPI 3.1 wrote every `oneOf: [Reference, X]` of 3.0 as `if` the object has `$ref`, `then` a
Reference, `else` an X. Where `else` takes no value `if` takes, the conditional accepts what the
union of (`then` with `if` laid in) and `else` accepts, so the two are compared branch by branch;
where that cannot be shown, nothing is read into them. `disjoint` is the test behind it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.compat_support import corpus_files, outcome, run_compat, thing
from support.corpus_factory import write
from wopgen.compat.cover import Side
from wopgen.compat.disjoint import disjoint, name_matching_only, patterns_apart
from wopgen.compat.normalize import Resolver, root
from wopgen.corpus import load

C, H = "client-sent", "host-emitted"
E, W, INFO = "error", "warning", "info"
TEXT = {"type": "string"}
DRAFT7 = "http://json-schema.org/draft-07/schema#"

REFERENCE = {"type": "object", "required": ["$ref"], "properties": {"$ref": TEXT}}
CALLBACK = {"type": "object", "properties": {"url": TEXT}, "additionalProperties": False}
IS_REFERENCE = {"type": "object", "required": ["$ref"]}


def document(holder: dict[str, Any], **defs: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"cb": holder}, "$defs": {"Reference": REFERENCE, **defs}}


def union(callback: dict[str, Any] = CALLBACK) -> dict[str, Any]:
    either = {"oneOf": [{"$ref": "#/$defs/Reference"}, {"$ref": "#/$defs/Callback"}]}
    return document({"$ref": "#/$defs/either"}, Callback=callback, either=either)


UNION = union()


def conditional(callback: dict[str, Any] = CALLBACK, test: dict[str, Any] = IS_REFERENCE) -> dict[str, Any]:
    chosen = {"if": test, "then": {"$ref": "#/$defs/Reference"}, "else": {"$ref": "#/$defs/Callback"}}
    return document({"$ref": "#/$defs/either"}, Callback=callback, either=chosen)


def compared(tmp_path: Path, base: dict[str, Any], head: dict[str, Any], direction: str = C) -> set[tuple[str, str]]:
    return outcome(run_compat(tmp_path, {"thing": thing(base, direction)}, {"thing": thing(head, direction)}))


@pytest.mark.parametrize("direction", [C, H])
def test_a_one_of_rewritten_as_if_then_else_is_no_change(tmp_path: Path, direction: str) -> None:
    # read as one branch, the conditional made both branches "removed": two false errors
    assert compared(tmp_path / "there", UNION, conditional(), direction) == set()
    assert compared(tmp_path / "back", conditional(), UNION, direction) == set()


def test_a_change_inside_an_arm_is_reported_where_it_sits(tmp_path: Path) -> None:
    narrowed = {**CALLBACK, "properties": {"url": {"type": "string", "maxLength": 10}}}
    changes = run_compat(tmp_path, {"thing": thing(UNION, C)}, {"thing": thing(conditional(narrowed), C)})
    assert outcome(changes) == {("compat-bound-tightened", E)}
    (change,) = changes
    assert change.head is not None and change.head.pointer == "/$defs/Callback/properties/url/maxLength"


def test_if_keywords_are_laid_into_then(tmp_path: Path) -> None:
    # `then` alone takes an object without `$ref`; with `if` laid in, it is the Reference of before
    head = conditional()
    head["$defs"]["Reference"] = {"type": "object", "properties": {"$ref": TEXT}}
    changes = run_compat(tmp_path, {"thing": thing(UNION, C)}, {"thing": thing(head, C)})
    (change,) = changes  # the definition alone, compared as itself, lost `required`; the arm did not
    assert (change.rule, change.base and change.base.pointer) == (
        "compat-required-removed",
        "/$defs/Reference/required",
    )


def test_an_else_that_may_take_what_if_takes_is_not_read_as_an_arm(tmp_path: Path) -> None:
    # an open Callback takes `{"$ref": ...}` too: such a value now goes to `then`, which may refuse it
    open_callback = {"type": "object", "properties": {"url": TEXT}}
    assert compared(tmp_path, union(open_callback), conditional(open_callback)) != set()


# --- disjoint ---------------------------------------------------------------------------------------


def apart(tmp_path: Path, a: dict[str, Any], b: dict[str, Any], draft: str | None = None, **defs: Any) -> bool:
    body: dict[str, Any] = {"$defs": {"a": a, "b": b, **defs}}
    if draft:
        body["$schema"] = draft
    corpus = load(write(tmp_path, corpus_files({"thing": thing(body)})))
    resolver = Resolver(corpus)
    doc = root(corpus.schemas["schemas/thing.schema.json"])
    found = disjoint(Side(resolver, doc.child("$defs", "a")), Side(resolver, doc.child("$defs", "b")))
    assert found == disjoint(Side(resolver, doc.child("$defs", "b")), Side(resolver, doc.child("$defs", "a")))
    return found


EXTENSIONS = {"patternProperties": {"^x-": {}}}


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (TEXT, {"type": "integer"}, True),
        ({"type": "number"}, {"type": "integer"}, False),  # an integer is a number
        ({"enum": ["a", "b"]}, {"const": "c"}, True),
        ({"enum": ["a", "b"]}, {"const": "b"}, False),
        (IS_REFERENCE, CALLBACK, True),  # the member `if` requires is one `additionalProperties` refuses
        (IS_REFERENCE, {"type": "object", "properties": {"url": TEXT}}, False),  # open: it takes `$ref`
        ({"required": ["$ref"]}, {"additionalProperties": False}, False),  # a non-object passes both
        (IS_REFERENCE, {"type": "object", **EXTENSIONS, "additionalProperties": False}, True),
        (IS_REFERENCE, {"type": "object", "patternProperties": {"ref": {}}, "additionalProperties": False}, False),
        (IS_REFERENCE, {"type": "object", "properties": {"$ref": False}}, True),
        (IS_REFERENCE, {"type": "object", "$ref": "#/$defs/ext", "unevaluatedProperties": False}, True),
        (
            IS_REFERENCE,
            {"type": "object", "allOf": [{"properties": {"$ref": {}}}], "unevaluatedProperties": False},
            False,
        ),
        (IS_REFERENCE, {"type": "object", "$dynamicRef": "#meta", "unevaluatedProperties": False}, False),
        (IS_REFERENCE, {"not": {"required": ["$ref"]}}, True),
        (IS_REFERENCE, {"anyOf": [TEXT, CALLBACK]}, True),
        (IS_REFERENCE, {"anyOf": [TEXT, {"type": "object"}]}, False),
        (IS_REFERENCE, {"allOf": [CALLBACK, {"minProperties": 1}]}, True),
        (  # a member both require, held to two constants
            {"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "b"}}},
            True,
        ),
        ({"type": "object", "properties": {"kind": {"const": "a"}}}, {"properties": {"kind": {"const": "b"}}}, False),
        (True, False, True),
        (True, TEXT, False),
    ],
)
def test_disjoint_shows_only_schemas_that_share_no_value(
    tmp_path: Path, a: dict[str, Any], b: dict[str, Any], expected: bool
) -> None:
    assert apart(tmp_path, a, b, ext=EXTENSIONS) is expected


def test_unevaluated_properties_is_read_only_in_the_drafts_that_define_it(tmp_path: Path) -> None:
    closed = {"type": "object", "properties": {"url": TEXT}, "unevaluatedProperties": False}
    assert apart(tmp_path / "2020-12", IS_REFERENCE, closed) is True
    assert apart(tmp_path / "draft-07", IS_REFERENCE, closed, DRAFT7) is False  # ignored there: it takes `$ref`


def test_branches_are_paired_by_the_values_they_share(tmp_path: Path) -> None:
    # neither pair has the same text, a `$ref`, a constant, or one side covering the other: what each
    # base branch shares values with is the one head branch it became
    named = {"type": "object", "required": ["$ref"], "properties": {"$ref": TEXT}, "maxProperties": 3}
    patterned = {"type": "object", "required": ["$ref"], "patternProperties": {"^\\$ref$": TEXT}, "maxProperties": 2}
    short = {**CALLBACK, "properties": {"url": {"type": "string", "maxLength": 5}, "note": TEXT}}
    changes = run_compat(
        tmp_path, {"thing": thing({"oneOf": [named, CALLBACK]}, C)}, {"thing": thing({"oneOf": [short, patterned]}, C)}
    )
    assert not {c.rule for c in changes} & {"compat-branch-removed", "compat-branch-added"}
    assert ("compat-bound-tightened", E) in outcome(changes)


@pytest.mark.parametrize(
    ("first", "second", "apart"),
    [
        ("^x-", "^y-", True),  # no name starts with both
        ("^x\\.a", "^x\\.b", True),  # an escaped sign stands for itself
        ("^x-", "^x-a", False),  # x-a matches both
        ("^ab?c", "^ac", False),  # the b may be absent: ac matches both
        ("^a+b", "^aab", False),
        ("^.+$", "^[a-z]+$", False),  # no prefix: not shown apart (here they share `a`)
        ("^x-|^y-", "^z-", False),  # an alternative is not read
        ("x-", "^y-", False),  # not anchored: matches inside a name
    ],
)
def test_patterns_are_shown_apart_by_anchored_prefixes_only(first: str, second: str, apart: bool) -> None:
    assert patterns_apart(first, second) is apart
    assert patterns_apart(second, first) is apart


def test_a_name_one_pattern_matches_alone_is_looked_for_in_a_sample() -> None:
    assert name_matching_only("^[a-zA-Z]+$", ["^[a-z]+$"]) == "A"
    assert name_matching_only("^x-[0-9]+$", ["^x-[a-z]+$"]) == "x-0"  # read after the anchored prefix
    assert name_matching_only("^[a-z]+$", ["^.+$"]) is None  # `^.+$` matches every name it does


# --- one conditional in two spellings -----------------------------------------------------------------

A = "artifact"
HAS_KIND = {"required": ["kind"]}


def when(test: dict[str, Any], then: Any = None, otherwise: Any = None, **beside: Any) -> dict[str, Any]:
    """An object with a conditional on `test` (an arm left out when None) and `beside` next to it."""
    body: dict[str, Any] = {"type": "object", "if": test, **beside}
    body |= {"then": then} if then is not None else {}
    body |= {"else": otherwise} if otherwise is not None else {}
    return body


@pytest.mark.parametrize("direction", [C, A])
def test_a_member_required_in_both_arms_is_required_beside_them(tmp_path: Path, direction: str) -> None:
    # it was required whichever arm applied: moved out, it was read as a new required member
    both = when(HAS_KIND, {"required": ["name"]}, {"required": ["name"]})
    plain = {"type": "object", "required": ["name"]}
    assert compared(tmp_path / "out", both, plain, direction) == set()
    assert compared(tmp_path / "in", plain, both, direction) == set()


def test_a_member_required_in_one_arm_moved_out_is_still_required_added(tmp_path: Path) -> None:
    # {} passes the base (no kind, and `else` asks nothing) and fails the head
    one = when(HAS_KIND, {"required": ["name"]}, {"required": ["size"]})
    moved = when(HAS_KIND, {}, {"required": ["size"]}, required=["name"])
    assert compared(tmp_path, one, moved) == {("compat-required-added", E)}


def test_a_member_both_arms_require_stays_required_when_one_arm_changes(tmp_path: Path) -> None:
    base = when(HAS_KIND, {"required": ["name", "size"]}, {"required": ["name"]})
    head = when(HAS_KIND, {"required": ["name"]}, {"required": ["name", "size"]}, required=["name"])
    assert compared(tmp_path, base, head, A) == {("compat-required-added", E), ("compat-required-removed", E)}


def test_conditionals_in_a_draft_without_them_are_not_read(tmp_path: Path) -> None:
    # draft-06 ignores `if`, `then` and `else`: the member was never required there
    draft6 = "http://json-schema.org/draft-06/schema#"
    both = {"$schema": draft6, **when(HAS_KIND, {"required": ["name"]}, {"required": ["name"]})}
    plain = {"$schema": draft6, "type": "object", "required": ["name"]}
    assert ("compat-required-added", E) in compared(tmp_path, both, plain)


@pytest.mark.parametrize("direction", [C, A])
def test_a_negated_test_with_its_arms_swapped_is_the_same_conditional(tmp_path: Path, direction: str) -> None:
    base = when(HAS_KIND, {"required": ["name"]}, {"required": ["name", "size"]})
    head = when({"not": HAS_KIND}, {"required": ["size"]}, required=["name"])
    assert compared(tmp_path / "there", base, head, direction) == set()
    assert compared(tmp_path / "back", head, base, direction) == set()


def test_a_negated_test_with_the_same_arms_is_a_change(tmp_path: Path) -> None:
    # {} passed the base (no kind: `else` asks nothing) and fails the head; {"kind": 1} the other way
    base = when(HAS_KIND, {"required": ["name"]})
    head = when({"not": HAS_KIND}, {"required": ["name"]})
    assert compared(tmp_path, base, head, A) == {("compat-required-added", E), ("compat-required-removed", E)}


def test_an_arm_added_on_the_same_test_is_compared_as_an_empty_one(tmp_path: Path) -> None:
    base = when(HAS_KIND, {"required": ["name"]})
    head = when(HAS_KIND, {"required": ["name"]}, {"required": ["size"]})
    assert compared(tmp_path, base, head) == {("compat-required-added", E)}


def test_a_member_required_beside_is_no_member_an_arm_adds(tmp_path: Path) -> None:
    # the base required `size` of every object; the head asks it where `kind` is missing only
    base = when(HAS_KIND, {"required": ["name"]}, required=["size"])
    head = when(HAS_KIND, {"required": ["name"]}, {"required": ["size"]})
    assert compared(tmp_path, base, head, A) == {("compat-required-removed", E)}
    assert compared(tmp_path / "client", base, head, C) == {("compat-required-removed", INFO)}


def test_conditionals_of_an_all_of_on_one_test_are_read_as_one(tmp_path: Path) -> None:
    # a conditional inserted before another on the same test shifted what each was compared with
    base = {"type": "object", "allOf": [{"required": ["name", "size"]}, when(HAS_KIND, {"required": ["tag"]})]}
    inserted = when(HAS_KIND, {"required": ["name"]}, {"required": ["name", "size"]})
    del inserted["type"]
    head = {"type": "object", "allOf": [inserted, {"if": HAS_KIND, "then": {"required": ["tag"]}}]}
    assert compared(tmp_path, base, head, C) == {("compat-required-removed", INFO)}  # size, where kind is
    assert compared(tmp_path / "back", head, base, C) == {("compat-required-added", E)}


def test_a_member_added_to_one_of_two_conditionals_on_one_test_is_found(tmp_path: Path) -> None:
    first = {"if": HAS_KIND, "then": {"required": ["name"]}}
    base = {"type": "object", "allOf": [first, {"if": HAS_KIND, "then": {"required": ["tag"]}}]}
    head = {"type": "object", "allOf": [first, {"if": HAS_KIND, "then": {"required": ["tag", "size"]}}]}
    assert compared(tmp_path, base, head) == {("compat-required-added", E)}


def test_a_conditional_dropped_on_one_side_is_still_seen(tmp_path: Path) -> None:
    # the head's lone `if` says nothing; the base's `else` wanted size where kind is missing
    base = {"type": "object", "allOf": [{"if": HAS_KIND, "else": {"required": ["size"]}}]}
    head = {"type": "object", "allOf": [{"if": HAS_KIND}]}
    assert compared(tmp_path, base, head, A) == {("compat-keyword-changed", W)}


def test_a_member_the_test_requires_is_no_member_then_adds(tmp_path: Path) -> None:
    base = when(HAS_KIND, {"required": ["name"]})
    assert compared(tmp_path, base, when(HAS_KIND, {"required": ["name", "kind"]})) == set()
