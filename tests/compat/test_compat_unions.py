"""Unions read by what they accept: a schema is the union of itself alone.

A shape split into variants (`X` becomes `anyOf: [X', Y]`) or variants merged into one shape is
compared branch by branch: the old shape pairs with the variant it became and only the other
variants count as added or removed, never the union's lack of `type` or `properties`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.compat_support import outcome, run_compat, thing

C, H = "client-sent", "host-emitted"
E, W, INFO = "error", "warning", "info"
TEXT = {"type": "string"}


def obj(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, **extra}


def compare_one(tmp_path: Path, base: dict[str, Any], head: dict[str, Any], direction: str) -> Any:
    return run_compat(tmp_path, {"thing": thing(base, direction)}, {"thing": thing(head, direction)})


FORM = obj({"message": TEXT, "fields": TEXT}, required=["message", "fields"])
FORM_WITH_MODE = obj({"message": TEXT, "fields": TEXT, "mode": {"const": "form"}}, required=["message", "fields"])
URL = obj({"message": TEXT, "url": TEXT, "mode": {"const": "url"}}, required=["message", "url", "mode"])


@pytest.mark.parametrize("union", ["anyOf", "oneOf"])
def test_a_shape_split_into_variants_adds_only_the_new_variant(tmp_path: Path, union: str) -> None:
    changes = compare_one(tmp_path, FORM, {"description": "either", union: [URL, FORM_WITH_MODE]}, H)
    assert outcome(changes) == {("compat-property-added", INFO), ("compat-branch-added", W)}
    (added,) = [c for c in changes if c.rule == "compat-branch-added"]
    assert added.head is not None and added.head.pointer == f"/{union}/0"
    (member,) = [c for c in changes if c.rule == "compat-property-added"]
    assert member.head is not None and member.head.pointer == f"/{union}/1/properties/mode"


def test_variants_merged_into_one_shape_remove_only_the_lost_variants(tmp_path: Path) -> None:
    changes = compare_one(tmp_path, {"anyOf": [URL, FORM]}, FORM, C)
    assert outcome(changes) == {("compat-branch-removed", E)}
    (removed,) = changes
    assert removed.base is not None and removed.base.pointer == "/anyOf/0"


def test_a_shape_replaced_by_unrelated_variants_is_still_breaking(tmp_path: Path) -> None:
    changes = compare_one(tmp_path, FORM, {"anyOf": [{"type": "integer"}, {"type": "boolean"}]}, C)
    assert outcome(changes) == {("compat-branch-removed", E), ("compat-branch-added", INFO)}


def test_a_union_beside_other_keywords_is_compared_keyword_by_keyword(tmp_path: Path) -> None:
    head = {"type": "object", "anyOf": [{"required": ["message"]}, {"required": ["fields"]}]}
    changes = compare_one(tmp_path, FORM, head, H)
    assert ("compat-property-removed", E) in outcome(changes)  # the properties are really gone


# An anyOf whose catch-all branch (an open result type) accepts what the specific branches accept.
META = {"type": "object"}
RESULT = obj({"meta": META})
DEFS = {
    "result": RESULT,
    "built": {"allOf": [{"$ref": "#/$defs/result"}, obj({"id": TEXT}, required=["id"])]},
    "listed": obj({"meta": META, "items": {"type": "array"}}, required=["items"]),
    "loose": obj({"meta": {"type": ["object", "string"]}}),
}


def union(keyword: str, *names: str, defs: dict[str, Any] = DEFS) -> dict[str, Any]:
    return {keyword: [{"$ref": f"#/$defs/{n}"} for n in names], "$defs": defs}


def test_removing_branches_the_catch_all_accepted_changes_nothing(tmp_path: Path) -> None:
    changes = compare_one(tmp_path, union("anyOf", "result", "built", "listed"), union("anyOf", "result"), C)
    assert outcome(changes) == {("compat-branch-covered", INFO)}
    assert sorted(c.message for c in changes) == [
        "anyOf branch built removed; branch result accepted all it accepted",
        "anyOf branch listed removed; branch result accepted all it accepted",
    ]


def test_adding_a_branch_the_catch_all_accepts_changes_nothing(tmp_path: Path) -> None:
    changes = compare_one(tmp_path, union("anyOf", "result"), union("anyOf", "result", "listed"), H)
    assert outcome(changes) == {("compat-branch-covered", INFO)}


def test_merging_variants_into_their_catch_all_changes_nothing(tmp_path: Path) -> None:
    head = {"$ref": "#/$defs/result", "$defs": DEFS}
    changes = compare_one(tmp_path, union("anyOf", "result", "built"), head, C)
    assert outcome(changes) == {("compat-branch-covered", INFO)}


@pytest.mark.parametrize(
    ("defs", "keyword"),
    [
        ({**DEFS, "result": obj({"meta": META}, additionalProperties=False)}, "anyOf"),  # closed: no catch-all
        ({**DEFS, "result": obj({"meta": META}, required=["meta"])}, "anyOf"),  # asks what `listed` may omit
        ({**DEFS, "result": obj({"meta": {"type": "object", "maxProperties": 1}})}, "anyOf"),  # stricter member
        (DEFS, "oneOf"),  # a value two branches accept is rejected: no branch is redundant
    ],
)
def test_a_branch_the_rest_do_not_cover_stays_removed(tmp_path: Path, defs: dict[str, Any], keyword: str) -> None:
    base, head = union(keyword, "result", "listed", defs=defs), union(keyword, "result", defs=defs)
    changes = compare_one(tmp_path, base, head, C)
    assert outcome(changes) == {("compat-branch-removed", E)}


def test_a_wider_member_is_not_covered(tmp_path: Path) -> None:
    changes = compare_one(tmp_path, union("anyOf", "result", "loose"), union("anyOf", "result"), C)
    assert outcome(changes) == {("compat-branch-removed", E)}


def test_a_union_merged_into_one_of_its_definitions_pairs_with_it_however_much_it_grew(tmp_path: Path) -> None:
    grown = obj({"meta": META, "kind": TEXT, "size": {"type": "integer"}, "tags": {"type": "array"}}, required=["kind"])
    other = obj({"name": TEXT}, required=["name"])
    base = union("anyOf", "result", "other", defs={"result": RESULT, "other": other})
    head = {"$ref": "#/$defs/result", "$defs": {"result": grown, "other": other}}
    changes = compare_one(tmp_path, base, head, C)
    assert outcome(changes) == {
        ("compat-property-added", INFO),
        ("compat-required-added", E),
        ("compat-branch-removed", E),
    }
    (removed,) = [c for c in changes if c.rule == "compat-branch-removed"]
    assert removed.message == "anyOf branch other removed"
