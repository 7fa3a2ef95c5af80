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

C, H, A = "client-sent", "host-emitted", "artifact"
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


def test_keywords_moved_into_a_union_beside_others_form_its_old_branch(tmp_path: Path) -> None:
    head = {"type": "object", "anyOf": [{"required": ["message"]}, {"required": ["fields"]}]}
    changes = compare_one(tmp_path, FORM, head, H)
    # every value the old shape took, the new branches take; they take more, which readers may meet
    assert outcome(changes) == {("compat-branch-covered", INFO), ("compat-branch-added", W)}


def test_a_union_added_or_removed_as_a_whole_is_a_constraint_gained_or_lifted(tmp_path: Path) -> None:
    either = {"type": "object", "anyOf": [{"required": ["message"]}, {"required": ["fields"]}]}
    plain = {"type": "object"}
    assert outcome(compare_one(tmp_path / "added", plain, either, C)) == {("compat-union-added", E)}
    assert outcome(compare_one(tmp_path / "removed", either, plain, C)) == {("compat-union-removed", INFO)}
    assert outcome(compare_one(tmp_path / "read", either, plain, H)) == {("compat-union-removed", W)}


def test_a_keyword_moved_into_a_union_pairs_with_the_branch_it_became(tmp_path: Path) -> None:
    base = {"type": "string", "pattern": "^[a-z]+@[0-9]+$"}
    head = {"type": "string", "oneOf": [{"pattern": "^[a-z]+@[0-9]+$"}, {"const": "latest"}]}
    changes = compare_one(tmp_path, base, head, A)
    assert [(c.rule, c.message) for c in changes] == [("compat-branch-added", 'oneOf branch 1 ("latest") added')]


def test_a_shape_split_by_type_into_a_union_changes_nothing(tmp_path: Path) -> None:
    base = {"type": ["string", "null"]}
    head = {"anyOf": [{"enum": ["react", "preact"]}, {"type": "string"}, {"type": "null"}]}
    assert outcome(compare_one(tmp_path, base, head, A)) == {("compat-branch-covered", INFO)}


def test_a_widened_branch_pairs_with_the_branch_it_was(tmp_path: Path) -> None:
    base = {"type": "object", "additionalProperties": TEXT}
    scalar = {"oneOf": [TEXT, {"type": "number"}, {"type": "boolean"}]}
    head = {"oneOf": [{"type": "object", "additionalProperties": scalar}, {"type": "string", "pattern": "^x"}]}
    changes = compare_one(tmp_path, base, head, A)
    assert outcome(changes) == {("compat-branch-added", W)}  # number, boolean, and the string form
    assert len(changes) == 3


def test_in_a_oneof_removing_a_branch_another_covers_loses_no_value(tmp_path: Path) -> None:
    # a value both took matched two branches, so the oneOf rejected it: removing one lets it through
    changes = compare_one(tmp_path, union("oneOf", "result", "listed"), union("oneOf", "result"), C)
    assert outcome(changes) == {("compat-branch-covered", INFO)}
    added = compare_one(tmp_path / "added", union("oneOf", "result"), union("oneOf", "result", "listed"), C)
    # a listed value matched `result` alone and now matches both, so the oneOf refuses it: a narrowing
    assert outcome(added) == {("compat-branch-overlaps", E)}


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


def test_a_branch_whose_pattern_was_edited_pairs_with_its_old_self(tmp_path: Path) -> None:
    base = {"anyOf": [{"enum": ["es5", "es6"]}, {"pattern": "^[Ee][Ss]5|[Ee][Ss]6$"}]}
    head = {"anyOf": [{"enum": ["es5", "es6"]}, {"pattern": "^[Ee][Ss][56]$"}]}
    changes = compare_one(tmp_path, base, head, C)
    assert outcome(changes) == {("compat-pattern-changed", W)}  # whether it accepts more cannot be told


def test_an_enum_value_another_branch_still_accepts_moves_no_value(tmp_path: Path) -> None:
    names = {"pattern": "^[Ee][Ss](5|2022(\\.[Rr][Ee][Gg][Ee][Xx][Pp])?)$"}
    base = {"anyOf": [{"enum": ["es5", "ES2022.RegExp", "es2020"]}, names]}
    head = {"anyOf": [{"enum": ["es5", "ES2022.Regexp"]}, names]}
    changes = compare_one(tmp_path, base, head, A)
    found = {(c.rule, c.message.split(";")[0]) for c in changes}
    assert found == {
        ("compat-enum-value-covered", 'enum value "ES2022.RegExp" removed'),  # the pattern takes it
        ("compat-enum-value-covered", 'enum value "ES2022.Regexp" added'),  # and took this one already
        ("compat-enum-value-removed", 'enum value "es2020" removed'),  # nothing else takes this one
    }


def test_keywords_beside_the_union_bound_what_another_branch_still_accepts(tmp_path: Path) -> None:
    """The head's `maxLength` beside its union applies to every branch: the pattern branch takes the
    short removed value, not the long one."""
    base = {"anyOf": [{"enum": ["a", "bb", "bbbb"]}, {"pattern": "^b+$"}]}
    head = {"maxLength": 3, "anyOf": [{"enum": ["a"]}, {"pattern": "^b+$"}]}
    changes = compare_one(tmp_path, base, head, A)
    found = {(c.rule, c.message.split(";")[0]) for c in changes if c.rule.startswith("compat-enum")}
    assert found == {
        ("compat-enum-value-covered", 'enum value "bb" removed'),
        ("compat-enum-value-removed", 'enum value "bbbb" removed'),
    }


BEARER = "^[Bb][Ee][Aa][Rr][Ee][Rr]$"


def scheme_union(bearer: dict[str, Any], rest: dict[str, Any]) -> dict[str, Any]:
    rest_branch = {"not": {"required": ["bearerFormat"]}, "properties": {"scheme": {"not": rest}}}
    branches = [{"properties": {"scheme": bearer}}, rest_branch]
    return {"type": "object", "properties": {"scheme": TEXT}, "oneOf": branches}


def test_an_enum_branch_turned_into_a_pattern_matching_its_values_pairs_with_it(tmp_path: Path) -> None:
    """The branch took "bearer" alone and now takes any spelling of it: widened, not removed."""
    base = scheme_union({"enum": ["bearer"]}, {"enum": ["bearer"]})
    head = scheme_union({"type": "string", "pattern": BEARER}, {"type": "string", "pattern": BEARER})
    changes = compare_one(tmp_path, base, head, C)
    # the pattern refuses nothing the enum took: only the enum's removal counts; `not` stays unclassified
    assert outcome(changes) == {("compat-bound-loosened", INFO), ("compat-keyword-changed", W)}


def test_an_enum_branch_turned_into_a_pattern_refusing_its_values_is_still_removed(tmp_path: Path) -> None:
    base = scheme_union({"enum": ["bearer"]}, {"enum": ["bearer"]})
    head = scheme_union({"type": "string", "pattern": "^basic$"}, {"enum": ["bearer"]})
    changes = compare_one(tmp_path, base, head, C)
    assert ("compat-branch-removed", E) in outcome(changes)


@pytest.mark.parametrize(
    ("base", "head", "expected"),
    [
        ({"enum": ["bearer"]}, {"type": "string", "pattern": BEARER}, set()),  # every value still matches
        ({"enum": ["bearer", "token"]}, {"type": "string", "pattern": BEARER}, {("compat-pattern-changed", W)}),
        ({"type": "string", "pattern": BEARER}, {"enum": ["bearer"]}, set()),  # it lets in no new value
        ({"type": "string", "pattern": BEARER}, {"enum": ["token"]}, {("compat-pattern-changed", W)}),
    ],
)
def test_a_pattern_in_place_of_an_enum_is_reviewed_only_when_it_may_refuse_a_value(
    tmp_path: Path, base: dict[str, Any], head: dict[str, Any], expected: set[tuple[str, str]]
) -> None:
    changes = compare_one(tmp_path, obj({"scheme": base}), obj({"scheme": head}), C)
    assert {f for f in outcome(changes) if f[0] == "compat-pattern-changed"} == expected


def test_a_union_every_value_of_the_other_side_passes_comes_and_goes_with_no_change(tmp_path: Path) -> None:
    """`paths` required becomes one of `paths` or `components`: every document that had paths passes."""
    members = {"openapi": TEXT, "paths": {"type": "object"}, "components": {"type": "object"}}
    base = obj(members, required=["openapi", "paths"])
    head = obj(members, required=["openapi"], anyOf=[{"required": ["paths"]}, {"required": ["components"]}])
    assert outcome(compare_one(tmp_path / "relaxed", base, head, C)) == {("compat-required-removed", INFO)}
    assert outcome(compare_one(tmp_path / "pinned", head, base, C)) == {("compat-required-added", E)}
    # and the closure moved from additionalProperties to unevaluatedProperties beside it is no branch
    closed, moved = {**base, "additionalProperties": False}, {**head, "unevaluatedProperties": False}
    assert outcome(compare_one(tmp_path / "closed", closed, moved, C)) == {("compat-required-removed", INFO)}
    # a union the other side's values need not pass is still a constraint gained
    other = obj(members, required=["openapi"], anyOf=[{"required": ["components"]}, {"required": ["webhooks"]}])
    assert ("compat-union-added", E) in outcome(compare_one(tmp_path / "new", base, other, C))


REFERENCE = {"type": "object", "required": ["$ref"], "properties": {"$ref": TEXT}}


def parameter(ref: dict[str, Any] | None) -> dict[str, Any]:
    members = {"description": TEXT, **({"$ref": ref} if ref is not None else {})}
    return {"properties": members, "additionalProperties": False}


@pytest.mark.parametrize("union", ["oneOf", "anyOf"])
@pytest.mark.parametrize("direction", [C, H])
def test_a_member_whose_values_another_branch_takes_leaves_the_union_unchanged(
    tmp_path: Path, direction: str, union: str
) -> None:
    """Any parameter holding `$ref` is a reference too: the base's oneOf refused it (it matched two branches),
    and the head's anyOf still accepts it. Either way none is lost."""
    base = obj({"p": {union: [REFERENCE, parameter(TEXT)]}})
    head = obj({"p": {union: [REFERENCE, parameter(None)]}})
    assert outcome(compare_one(tmp_path, base, head, direction)) == set()


def test_a_member_another_any_of_branch_takes_only_in_part_is_still_removed(tmp_path: Path) -> None:
    base = obj({"p": {"anyOf": [REFERENCE, parameter({"type": ["string", "integer"]})]}})  # {"$ref": 5}
    head = obj({"p": {"anyOf": [REFERENCE, parameter(None)]}})
    assert outcome(compare_one(tmp_path, base, head, C)) == {("compat-property-removed", E)}
    # the branch that would take it must be the head's: one the base alone had accepts nothing now
    base = obj({"p": {"anyOf": [REFERENCE, parameter(TEXT)]}})
    head = obj({"p": {"anyOf": [parameter(None)]}})
    assert ("compat-property-removed", E) in outcome(compare_one(tmp_path / "alone", base, head, C))


def test_a_member_a_rival_branch_takes_only_in_part_is_still_removed(tmp_path: Path) -> None:
    base = obj({"p": {"oneOf": [REFERENCE, parameter({"type": ["string", "integer"]})]}})  # {"$ref": 5}
    head = obj({"p": {"oneOf": [REFERENCE, parameter(None)]}})
    assert outcome(compare_one(tmp_path, base, head, C)) == {("compat-property-removed", E)}
    # a definition is also compared on its own, where nothing beside it refused the member
    branches = [REFERENCE, {"$ref": "#/$defs/parameter"}]
    base = obj({"p": {"oneOf": branches}}, **{"$defs": {"parameter": parameter(TEXT)}})
    head = obj({"p": {"oneOf": branches}}, **{"$defs": {"parameter": parameter(None)}})
    assert outcome(compare_one(tmp_path / "def", base, head, C)) == {("compat-property-removed", E)}


@pytest.mark.parametrize(("base", "head"), [("oneOf", "anyOf"), ("anyOf", "oneOf")])
def test_a_union_of_branches_sharing_no_value_swapped_between_oneof_and_anyof_is_no_change(
    tmp_path: Path, base: str, head: str
) -> None:
    # read as two unions, every branch was "removed" and "added" (GitHub's workflow schema, `runs-on`)
    branches = [TEXT, {"type": "object"}]
    assert compare_one(tmp_path, {base: branches}, {head: branches}, C) == []


def test_a_swap_between_oneof_and_anyof_over_overlapping_branches_is_classified(tmp_path: Path) -> None:
    # "ab" matches both branches: an anyOf takes it, a oneOf refuses it
    branches = [TEXT, {"type": "string", "maxLength": 3}]
    assert outcome(compare_one(tmp_path / "one", {"anyOf": branches}, {"oneOf": branches}, C)) == {
        ("compat-union-added", E)
    }
    assert outcome(compare_one(tmp_path / "any", {"oneOf": branches}, {"anyOf": branches}, C)) == {
        ("compat-union-removed", INFO)
    }


def test_a_oneof_branch_added_that_takes_a_kept_branch_values_narrows(tmp_path: Path) -> None:
    # "x" matched the string branch alone; it matches the new one too, so the oneOf refuses it
    base = {"oneOf": [TEXT, {"type": "number"}]}
    overlapping = {"oneOf": [TEXT, {"type": "number"}, {"type": ["string", "null"]}]}
    apart = {"oneOf": [TEXT, {"type": "number"}, {"type": "null"}]}
    assert outcome(compare_one(tmp_path / "over", base, overlapping, C)) == {("compat-branch-overlaps", E)}
    assert outcome(compare_one(tmp_path / "apart", base, apart, C)) == {("compat-branch-added", INFO)}


def test_a_tuple_branch_a_wider_array_branch_takes_is_covered(tmp_path: Path) -> None:
    # GitHub's `runs-on`: tuples starting with "self-hosted" folded into "an array starting with a string"
    hosted = {"type": "array", "items": [{"const": "self-hosted"}], "minItems": 1, "additionalItems": TEXT}
    labelled = {**hosted, "items": [{"const": "self-hosted"}, {"enum": ["linux", "macOS"]}], "minItems": 2}
    wide = {"type": "array", "items": [TEXT], "minItems": 1}
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#"}  # a list `items` is a tuple there
    base, head = {**draft7, "anyOf": [hosted, labelled]}, {**draft7, "anyOf": [wide]}
    wide_outcome = outcome(compare_one(tmp_path / "wide", base, head, C))
    assert wide_outcome == {("compat-branch-covered", INFO), ("compat-branch-added", INFO)}
    narrow = {**draft7, "anyOf": [{"type": "array", "items": [TEXT], "minItems": 2}]}  # one item alone is refused
    assert ("compat-branch-removed", E) in outcome(compare_one(tmp_path / "narrow", base, narrow, C))


def test_object_keywords_moved_into_the_object_branch_beside_a_ref_to_a_string_are_no_change(tmp_path: Path) -> None:
    # GitHub's `matrix`: `minProperties` beside `oneOf` [object, $ref to an expression string] moved into
    # the object branch; laid into the `$ref` branch it says nothing about a string
    defs = {"$defs": {"expr": TEXT}}
    base = {**defs, "minProperties": 1, "oneOf": [{"type": "object"}, {"$ref": "#/$defs/expr"}]}
    head = {**defs, "oneOf": [{"type": "object", "minProperties": 1}, {"$ref": "#/$defs/expr"}]}
    assert compare_one(tmp_path / "in", base, head, C) == []
    assert compare_one(tmp_path / "out", head, base, C) == []


@pytest.mark.parametrize("moved_in", [True, False])
def test_a_type_moved_between_a_oneof_and_its_required_branches_is_no_change(tmp_path: Path, moved_in: bool) -> None:
    # pyproject's `license`: beside the oneOf, or in each branch, a non-object passes both branches and is refused
    beside = {"type": "object", "oneOf": [{"required": ["x"]}, {"required": ["y"]}]}
    inside = {"oneOf": [{"type": "object", "required": ["x"]}, {"type": "object", "required": ["y"]}]}
    base, head = (beside, inside) if moved_in else (inside, beside)
    assert compare_one(tmp_path, {"properties": {"a": base}}, {"properties": {"a": head}}, C) == []


@pytest.mark.parametrize("direction", ["split", "joined"])
def test_a_shape_of_several_types_split_into_one_branch_per_type_is_no_change(tmp_path: Path, direction: str) -> None:
    # ESLint's and `jsconfig.json`'s `type: [object, null]` with `properties` become `anyOf` [object, null]
    members = {"properties": {"x": TEXT}}
    joined = {"type": ["object", "null"], **members}
    split = {"anyOf": [{"type": "object", **members}, {"type": "null"}]}
    base, head = (joined, split) if direction == "split" else (split, joined)
    assert compare_one(tmp_path, {"properties": {"a": base}}, {"properties": {"a": head}}, C) == []


def test_a_type_an_anyof_branch_lost_to_a_branch_of_its_own_is_no_change(tmp_path: Path) -> None:
    # `jsconfig.json`'s `module`: `type: [string, null]` beside anyOf [enum, pattern] became anyOf
    # [string enum, string pattern, null]: the null the enum branch took is taken by the null branch
    base = {"type": ["string", "null"], "anyOf": [{"enum": ["amd"]}, {"pattern": "^x"}]}
    head = {"anyOf": [{"type": "string", "enum": ["amd"]}, {"type": "string", "pattern": "^x"}, {"type": "null"}]}
    assert outcome(compare_one(tmp_path, {"properties": {"a": base}}, {"properties": {"a": head}}, C)) <= {
        ("compat-branch-added", INFO),
        ("compat-branch-covered", INFO),
    }


def test_a_oneof_branch_a_kept_branch_took_all_of_is_removed_with_no_loss(tmp_path: Path) -> None:
    # GitHub's job `container`: every value of the short-string branch matched the string branch too, so the
    # oneOf refused it; the branch gone loses nothing, whatever the kept branch became
    base = {"oneOf": [{"type": "string", "maxLength": 5}, TEXT]}
    head = {"oneOf": [{"type": "string", "pattern": "^a"}]}
    found = outcome(compare_one(tmp_path, base, head, C))
    assert ("compat-branch-covered", INFO) in found and ("compat-branch-removed", E) not in found


# --- a union nested in a union -------------------------------------------------------------------------

ONLY_F = {"required": ["f"], "properties": {"f": {}}, "additionalProperties": False}
ONLY_T = {"required": ["t"], "properties": {"t": {}}, "additionalProperties": False}


def test_a_nested_one_of_flattened_into_its_parent_is_no_change(tmp_path: Path) -> None:
    # its branches share no value: passing one of them is passing exactly one
    nested = {"oneOf": [{"type": "string"}, {"type": "object", "oneOf": [ONLY_F, ONLY_T]}]}
    flat = {"oneOf": [{"type": "string"}, {"type": "object", **ONLY_F}, {"type": "object", **ONLY_T}]}
    assert outcome(compare_one(tmp_path / "there", nested, flat, A)) == set()
    assert outcome(compare_one(tmp_path / "back", flat, nested, A)) == set()


def test_a_nested_any_of_flattened_into_its_parent_is_no_change(tmp_path: Path) -> None:
    nested = {"anyOf": [{"type": "string"}, {"anyOf": [{"type": "integer"}, {"minimum": 3}]}]}
    flat = {"anyOf": [{"type": "string"}, {"type": "integer"}, {"minimum": 3}]}
    assert outcome(compare_one(tmp_path, nested, flat, A)) == set()


def test_a_nested_one_of_whose_branches_overlap_a_sibling_is_not_flattened(tmp_path: Path) -> None:
    # 5 passes the nested union once (integer, not a string) and the sibling `minimum`: refused by
    # the base's oneOf (two branches), and by the flat head too (three); but 1.5 passed the base's
    # nested union twice (number and minimum 1), so it failed it, passing `minimum` alone: taken by
    # the base, refused by the head
    nested = {"oneOf": [{"minimum": 1}, {"oneOf": [{"type": "number"}, {"minimum": 1}]}]}
    flat = {"oneOf": [{"minimum": 1}, {"type": "number"}, {"minimum": 1}]}
    assert outcome(compare_one(tmp_path, nested, flat, A)) != set()


def test_a_branch_dropped_on_flattening_is_still_removed(tmp_path: Path) -> None:
    nested = {"oneOf": [{"type": "string"}, {"type": "object", "oneOf": [ONLY_F, ONLY_T]}]}
    flat = {"oneOf": [{"type": "string"}, {"type": "object", **ONLY_F}]}
    assert ("compat-branch-removed", E) in outcome(compare_one(tmp_path, nested, flat, A))


def test_a_conditional_dropped_beside_a_union_leaves_its_branches_paired(tmp_path: Path) -> None:
    # laid into the base's branches, the conditional made each unlike the head's: both "removed"
    members = {"d": {"type": "string"}, "e": {"type": "string"}}
    either = [{"required": ["d"]}, {"required": ["e"]}]
    restated = [{"required": [n], "properties": {n: {"type": "string"}}} for n in ("d", "e")]
    base = {"type": "object", "properties": members, "if": {"required": ["m"]}, "else": {"required": ["s"]}}
    head = {"type": "object", "properties": members, "if": {"required": ["m"]}}
    found = outcome(compare_one(tmp_path, {**base, "oneOf": either}, {**head, "oneOf": restated}, C))
    assert found == {("compat-property-added", INFO), ("compat-keyword-changed", W)}  # the else gone, left to read


LISTS = {"type": "array"}


@pytest.mark.parametrize("direction", [C, A])
def test_a_narrowing_inside_an_anyof_branch_another_branch_covers_takes_no_value(
    tmp_path: Path, direction: str
) -> None:
    """Branch 0 refuses any object with `b`, and branch 1 takes every object without `b`, so what branch 0
    says of `a` refuses nothing the anyOf took: `uniqueItems` gained there is an info (SchemaStore)."""
    without_b = {"properties": {"a": LISTS}, "not": {"required": ["b"]}}
    with_b = {"properties": {"b": LISTS}}
    base = {"anyOf": [without_b, with_b]}
    head = {"anyOf": [{**without_b, "properties": {"a": {**LISTS, "uniqueItems": True}}}, with_b]}
    changes = compare_one(tmp_path, base, head, direction)
    assert outcome(changes) == {("compat-bound-tightened", INFO)}
    assert "the head's anyOf branches still accept every value this branch accepted" in changes[0].message


def test_a_narrowing_inside_an_anyof_branch_no_other_branch_covers_still_breaks(tmp_path: Path) -> None:
    may_have_b = {"properties": {"a": LISTS}}  # {"a": [1, 1], "b": 5} passed branch 0 alone
    with_b = {"properties": {"b": LISTS}}
    base = {"anyOf": [may_have_b, with_b]}
    head = {"anyOf": [{"properties": {"a": {**LISTS, "uniqueItems": True}}}, with_b]}
    assert outcome(compare_one(tmp_path, base, head, C)) == {("compat-bound-tightened", E)}
