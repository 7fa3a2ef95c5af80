"""`overlapping` never sets apart two `oneOf` branches that a value passes together (which would hide a
real disagreement between a model and its schema), and does set apart the usual exclusive shapes."""

from __future__ import annotations

from typing import Any

import referencing
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from wopgen.generate.models_oneof import overlapping

RESOLVER = referencing.Registry().resolver()
# Every branch of one keyword, and instances that reach each of their edges.
ATOMS: list[dict[str, Any]] = [
    *({"type": name} for name in ["null", "boolean", "integer", "number", "string", "object", "array"]),
    {"type": ["integer", "string"]},
    {"type": ["number", "null"]},
    *({"const": value} for value in [None, True, 0, 1, 1.0, 1.5, "a", {"a": 1}]),
    {"enum": [0, "a"]},
    {"enum": [1.0, None]},
    *({"required": names} for names in [["a"], ["b"], ["a", "b"]]),
    {"properties": {"a": {"const": 1}}},
    {"properties": {"a": {"type": "string"}}},
    {"properties": {"a": {"const": 1}}, "required": ["a"]},
    {"properties": {"a": {"type": "integer"}}, "required": ["a"]},
    {"properties": {"a": {"type": "string"}}, "required": ["a"]},
    {"properties": {"a": {}}, "additionalProperties": False},
    {"properties": {"b": {}}, "required": ["b"], "additionalProperties": False},
    {"not": {"required": ["a"]}},
    {"not": {"required": ["a", "b"]}},
]
EDGES = [None, True, False, 0, 1, 2, 1.0, 1.5, "", "a", [], [1], {}, {"a": 1}, {"a": 1.0}, {"a": "x"}, {"b": 1}]
EDGES += [{"a": 1, "b": 1}, {"a": "x", "b": 1}, {"c": 1}, {"a": {"a": 1}}]


def _merged(parts: list[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for part in parts:
        merged.update(part)
    return merged


BRANCHES = st.lists(st.sampled_from(ATOMS), min_size=1, max_size=3).map(_merged)
HOLDERS = st.sampled_from([None, "object", "integer", "string"])


@settings(max_examples=300, deadline=None)
@given(BRANCHES, BRANCHES, HOLDERS, st.sampled_from([frozenset(), frozenset({"a"})]))
def test_branches_set_apart_never_take_one_value_together(
    one: dict[str, Any], other: dict[str, Any], held: str | None, present: frozenset[str]
) -> None:
    if overlapping([one, other], None if held is None else frozenset({held}), RESOLVER, present) is not None:
        return  # not set apart: nothing is claimed
    holder: dict[str, Any] = {} if held is None else {"type": held}
    if present:
        holder["required"] = sorted(present)
    for instance in EDGES:
        both = all(Draft202012Validator(s).is_valid(instance) for s in (holder, one, other))
        assert not both, (one, other, held, instance)


def test_no_pair_of_one_keyword_branches_is_set_apart_wrongly() -> None:
    checks = {id(atom): Draft202012Validator(atom) for atom in ATOMS}
    holders = [None, "object", "integer"]
    for one in ATOMS:
        for other in ATOMS:
            for held in holders:
                if overlapping([one, other], None if held is None else frozenset({held}), RESOLVER) is not None:
                    continue
                for instance in EDGES:
                    if held is not None and not Draft202012Validator({"type": held}).is_valid(instance):
                        continue
                    both = checks[id(one)].is_valid(instance) and checks[id(other)].is_valid(instance)
                    assert not both, (one, other, held, instance)


def test_exclusive_shapes_are_set_apart_and_overlapping_ones_are_not() -> None:
    tagged = [{"required": ["k"], "properties": {"k": {"const": n}}} for n in ("a", "b")]
    assert overlapping(tagged, frozenset({"object"}), RESOLVER) is None
    assert overlapping(tagged, None, RESOLVER) == 1  # a string passes both
    assert overlapping([{"type": "string"}, {"type": "null"}, {"const": 3}], None, RESOLVER) is None
    assert overlapping([{"type": "integer"}, {"type": "number"}], None, RESOLVER) == 1
    assert overlapping([{"type": "number"}, {"type": ["integer", "null"]}], None, RESOLVER) == 1  # 1 passes both
    closed = {"required": ["a"], "properties": {"a": {}}, "additionalProperties": False}
    assert overlapping([closed, {"required": ["b"]}], frozenset({"object"}), RESOLVER) is None
    assert overlapping([closed, {"required": ["a"]}], frozenset({"object"}), RESOLVER) == 1
    untagged = [{"properties": {"k": {"const": n}}} for n in ("a", "b")]  # the holder requires `k`
    assert overlapping(untagged, frozenset({"object"}), RESOLVER, frozenset({"k"})) is None
    assert overlapping(untagged, frozenset({"object"}), RESOLVER) == 1  # {} passes both
    addresses = [{"type": "string", "format": "ipv4"}, {"type": "string", "format": "ipv6"}]
    assert overlapping(addresses, None, RESOLVER) is None
    assert overlapping([{"format": "ipv4"}, {"format": "ipv6"}], None, RESOLVER) == 1  # 5 passes both
    assert overlapping([{"type": "string", "format": "ipv4"}, {"type": "string", "format": "uri"}], None, RESOLVER) == 1
    forbidding = [{"required": ["x"], "not": {"required": ["y"]}}, {"required": ["y"], "not": {"required": ["x"]}}]
    assert overlapping(forbidding, frozenset({"object"}), RESOLVER) is None
    registry = referencing.Registry().with_resource(
        "urn:t", referencing.jsonschema.DRAFT202012.create_resource({"$defs": {"s": {"type": "string"}}})
    )
    assert overlapping([{"$ref": "urn:t#/$defs/s"}, {"type": "object"}], None, registry.resolver()) is None
    assert overlapping([{"$ref": "urn:t#/$defs/s"}, {"minLength": 1}], None, registry.resolver()) == 1
    assert overlapping([{"$ref": "urn:gone"}, {"type": "object"}], None, RESOLVER) == 1  # unresolvable: not shown
