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
