"""Union branches paired by identity then similarity, no-op keywords, renames and removed definitions.

Each case is a before/after pair that the position-and-fingerprint matching got wrong: it must
report only what really changed, with branches named by what they hold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.compat_support import outcome, run_compat, thing
from wopgen.compat.pairing import assign

C, H, A = "client-sent", "host-emitted", "artifact"
E, W, INFO = "error", "warning", "info"


def obj(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, **extra}


def kind(value: str, **props: Any) -> dict[str, Any]:
    """An object discriminated by `kind`."""
    return obj({"kind": {"type": "string", "const": value}, **props}, required=["kind"])


TEXT = {"type": "string"}
DEEP = obj({"inner": obj({"x": TEXT})})
DEEPER = obj({"inner": obj({"x": TEXT, "y": TEXT})})  # an optional member added deep inside


def compare_one(tmp_path: Path, base: dict[str, Any], head: dict[str, Any], direction: str = H) -> Any:
    return run_compat(tmp_path, {"thing": thing(base, direction)}, {"thing": thing(head, direction)})


def test_reordered_and_evolved_branches_pair_by_discriminator(tmp_path: Path) -> None:
    base = {"anyOf": [kind("url", url=TEXT, extra=DEEP), kind("form", fields=DEEP)]}
    head = {"anyOf": [kind("form", fields=DEEPER), kind("url", url=TEXT, extra=DEEPER)]}
    changes = compare_one(tmp_path, base, head)
    assert outcome(changes) == {("compat-property-added", INFO)}
    assert sorted(c.head.pointer for c in changes if c.head) == [
        "/anyOf/0/properties/fields/properties/inner/properties/y",
        "/anyOf/1/properties/extra/properties/inner/properties/y",
    ]
    assert sorted(c.base.pointer for c in changes if c.base) == [
        "/anyOf/0/properties/extra/properties/inner/properties",
        "/anyOf/1/properties/fields/properties/inner/properties",
    ]


def test_grown_and_evolved_union_reports_only_the_new_branch(tmp_path: Path) -> None:
    defs_base = {"left": obj({"a": DEEP}), "right": obj({"b": DEEP})}
    defs_head = {"left": obj({"a": DEEPER}), "right": obj({"b": DEEPER}), "middle": obj({"m": TEXT})}
    base = {"oneOf": [{"$ref": "#/$defs/left"}, {"$ref": "#/$defs/right"}], "$defs": defs_base}
    head = {
        "oneOf": [{"$ref": "#/$defs/left"}, {"$ref": "#/$defs/middle"}, {"$ref": "#/$defs/right"}],
        "$defs": defs_head,
    }
    changes = compare_one(tmp_path, base, head, C)
    assert outcome(changes) == {("compat-property-added", INFO), ("compat-branch-added", INFO)}
    (added,) = [c for c in changes if c.rule == "compat-branch-added"]
    assert added.message == "oneOf branch middle added"
    assert added.head is not None and added.head.pointer == "/oneOf/1"


def test_grown_and_evolved_inline_branches_pair_by_similarity(tmp_path: Path) -> None:
    first = obj({"name": TEXT, "size": {"type": "integer"}, "inner": DEEP}, required=["name"])
    second = obj({"items": {"type": "array", "items": TEXT}, "count": {"type": "integer"}}, required=["items"])
    first_evolved = obj({"name": TEXT, "size": {"type": "integer"}, "inner": DEEPER}, required=["name"])
    second_evolved = obj(
        {"items": {"type": "array", "items": TEXT}, "count": {"type": "integer"}, "note": TEXT}, required=["items"]
    )
    new = {"type": "boolean"}
    base = {"anyOf": [first, second]}
    head = {"anyOf": [new, second_evolved, first_evolved]}
    changes = compare_one(tmp_path, base, head, A)
    assert outcome(changes) == {("compat-property-added", INFO), ("compat-branch-added", W)}
    assert not [c for c in changes if c.rule == "compat-branch-removed"]
    (added,) = [c for c in changes if c.rule == "compat-branch-added"]
    assert added.message == "anyOf branch 0 added"


def test_a_removed_branch_is_named_by_its_discriminator(tmp_path: Path) -> None:
    base = {"oneOf": [kind("url", url=TEXT), kind("form", fields=DEEP), kind("file", path=TEXT)]}
    head = {"oneOf": [kind("file", path=TEXT), kind("url", url=TEXT)]}
    (change,) = compare_one(tmp_path, base, head, C)
    assert (change.rule, change.severity.value) == ("compat-branch-removed", E)
    assert change.message == 'oneOf branch 1 (kind "form") removed'
    assert change.base is not None and change.base.pointer == "/oneOf/1"


def test_a_removed_inline_branch_is_named_by_the_definition_it_has_the_shape_of(tmp_path: Path) -> None:
    batch = {"type": "array", "items": {"$ref": "#/$defs/one"}}
    defs = {"one": obj({"id": TEXT}), "batch": batch}
    base = {"anyOf": [{"$ref": "#/$defs/one"}, batch], "$defs": defs}
    head = {"anyOf": [{"$ref": "#/$defs/one"}], "$defs": {"one": obj({"id": TEXT})}}
    changes = compare_one(tmp_path, base, head, A)
    removed = {c.message for c in changes if c.rule == "compat-branch-removed"}
    assert removed == {"anyOf branch 1 (the shape of $defs/batch) removed"}
    assert {c.message for c in changes if c.rule == "compat-def-removed"} == {"$defs/batch removed"}


def test_a_branch_behind_a_renamed_ref_pairs_by_discriminator(tmp_path: Path) -> None:
    base = {
        "anyOf": [{"$ref": "#/$defs/prompt"}, {"$ref": "#/$defs/resource"}],
        "$defs": {"prompt": kind("ref/prompt", name=TEXT), "resource": kind("ref/resource", uri=TEXT)},
    }
    head = {
        "anyOf": [{"$ref": "#/$defs/prompt"}, {"$ref": "#/$defs/template"}],
        "$defs": {"prompt": kind("ref/prompt", name=TEXT), "template": kind("ref/resource", uri=TEXT, title=TEXT)},
    }
    changes = compare_one(tmp_path, base, head, C)
    assert outcome(changes) == {("compat-property-added", INFO), ("compat-def-removed", W)}


NOOP_PAIRS = [
    ("additional-properties-empty", obj({"a": TEXT}), obj({"a": TEXT}, additionalProperties={})),
    ("additional-properties-true", obj({"a": TEXT}), obj({"a": TEXT}, additionalProperties=True)),
    ("items-empty", {"type": "array"}, {"type": "array", "items": {}}),
    ("items-true", {"type": "array", "items": True}, {"type": "array"}),
    ("empty-properties", {"type": "object"}, {"type": "object", "properties": {}}),
    ("empty-required", obj({"a": TEXT}), obj({"a": TEXT}, required=[])),
    ("type-list-of-one", obj({"a": {"type": ["string"]}}), obj({"a": TEXT})),
    ("all-of-one", obj({"a": {"allOf": [TEXT]}}), obj({"a": TEXT})),
]


@pytest.mark.parametrize(("base", "head"), [(b, h) for _, b, h in NOOP_PAIRS], ids=[n for n, _, _ in NOOP_PAIRS])
def test_no_op_keywords_are_no_change(tmp_path: Path, base: dict[str, Any], head: dict[str, Any]) -> None:
    assert compare_one(tmp_path, base, head, A) == []


def test_no_op_keywords_do_not_break_branch_pairing(tmp_path: Path) -> None:
    """A branch that only gained `additionalProperties: {}` and a one-value enum is the same branch."""
    base = {"anyOf": [obj({"k": {"const": "a"}, "v": TEXT}), obj({"k": {"const": "b"}, "n": {"type": "integer"}})]}
    head = {
        "anyOf": [
            obj({"k": {"enum": ["b"]}, "n": {"type": "integer"}}, additionalProperties={}),
            obj({"k": {"const": "a"}, "v": TEXT}, additionalProperties=True),
        ]
    }
    assert compare_one(tmp_path, base, head, A) == []


def test_renamed_file_with_the_same_shape(tmp_path: Path) -> None:
    body = obj({"uri": {"type": "string", "format": "uri"}}, required=["uri"])
    changes = run_compat(
        tmp_path, {"resource-ref": thing(body, name="resource-ref")}, {"template-ref": thing(body, name="template-ref")}
    )
    (change,) = changes
    assert (change.rule, change.severity.value) == ("compat-schema-renamed", W)
    assert change.base is not None and change.base.path == "schemas/resource-ref.schema.json"
    assert change.head is not None and change.head.path == "schemas/template-ref.schema.json"


def test_renamed_file_with_another_shape_is_a_removal_and_an_addition(tmp_path: Path) -> None:
    changes = run_compat(
        tmp_path,
        {"old": thing(obj({"a": TEXT}), name="old")},
        {"new": thing(obj({"a": {"type": "integer"}}), name="new")},
    )
    assert outcome(changes) == {("compat-schema-removed", E), ("compat-schema-added", INFO)}


def test_an_unreferenced_def_removed_inside_one_file_is_reported_by_name(tmp_path: Path) -> None:
    base = obj({"a": TEXT}, **{"$defs": {"kept": TEXT, "batch": {"type": "array"}}})
    head = obj({"a": TEXT}, **{"$defs": {"kept": TEXT}})
    (change,) = compare_one(tmp_path, base, head, C)
    assert (change.rule, change.severity.value, change.direction) == ("compat-def-removed", W, C)
    assert change.message == "$defs/batch removed"
    assert change.base is not None and change.base.pointer == "/$defs/batch"


def test_every_change_carries_a_hint(tmp_path: Path) -> None:
    base = {"oneOf": [kind("a", v=TEXT), kind("b")], "$defs": {"gone": TEXT}}
    head = {"oneOf": [kind("a", v=TEXT, w=TEXT), kind("c")]}
    changes = compare_one(tmp_path, base, head, A)
    assert {c.rule for c in changes} >= {"compat-branch-removed", "compat-branch-added", "compat-def-removed"}
    assert all(c.hint for c in changes), [c.rule for c in changes if not c.hint]


def test_assignment_maximises_the_total_not_the_first_row() -> None:
    scores = [[0.9, 0.8], [0.85, 0.1]]
    assert assign(scores, 0.5) == [(0, 1), (1, 0)]  # 0.8 + 0.85 beats 0.9 alone
    assert assign([[0.2, 0.3]], 0.5) == []
    assert assign([[0.6], [0.7]], 0.5) == [(1, 0)]
    wide = [[1.0 if r == c else 0.0 for c in range(14)] for r in range(14)]
    assert assign(wide, 0.5) == [(i, i) for i in range(14)]  # the greedy path past the exact size
