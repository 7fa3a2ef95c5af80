"""`overlapping` never sets apart two `oneOf` branches that a value passes together (which would hide a
real disagreement between a model and its schema), and does set apart the usual exclusive shapes."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from support.corpus_factory import good_files, schema, write
from wopgen.corpus import load
from wopgen.corpus.graph import Located, RefGraph
from wopgen.generate.models_oneof import apart, overlapping

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
    {"not": {"const": "a"}},
    {"not": {"enum": ["a", 1]}},
    {"pattern": "^a$"},
    {"pattern": "^b$"},
    {"pattern": "^a\\.b$"},
    {"pattern": "^a.b$"},
    {"pattern": "^c.b$"},
    {"type": "string", "pattern": "^a$"},
    {"allOf": [{"not": {"const": "a"}}]},
    {"allOf": [{"type": "string"}, {"minLength": 1}]},
]
EDGES = [None, True, False, 0, 1, 2, 1.0, 1.5, "", "a", [], [1], {}, {"a": 1}, {"a": 1.0}, {"a": "x"}, {"b": 1}]
EDGES += [{"a": 1, "b": 1}, {"a": "x", "b": 1}, {"c": 1}, {"a": {"a": 1}}, "a\n", "b", "a.b", "axb", "cxb", "a\nb"]


def _merged(parts: list[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for part in parts:
        merged.update(part)
    return merged


# Branches of one to three atoms merged, drawn once: the corpus holding them is built once.
_DRAW = random.Random(20261124)
COMBOS = [_merged(_DRAW.sample(ATOMS, _DRAW.randint(1, 3))) for _ in range(300)]
# Each: the branches of a oneOf, the types its holder allows, the members it requires, and the branch
# `overlapping` names (None: every pair is set apart).
TAGGED = [{"required": ["k"], "properties": {"k": {"const": n}}} for n in ("a", "b")]
UNTAGGED = [{"properties": {"k": {"const": n}}} for n in ("a", "b")]
CLOSED = {"required": ["a"], "properties": {"a": {}}, "additionalProperties": False}
HOLDERS: dict[str, tuple[list[Any], str | None, frozenset[str], int | None]] = {
    "tagged": (TAGGED, "object", frozenset(), None),
    "tagged_any": (TAGGED, None, frozenset(), 1),  # a string passes both
    "scalars": ([{"type": "string"}, {"type": "null"}, {"const": 3}], None, frozenset(), None),
    "numbers": ([{"type": "integer"}, {"type": "number"}], None, frozenset(), 1),
    "nullable": ([{"type": "number"}, {"type": ["integer", "null"]}], None, frozenset(), 1),  # 1 passes both
    "closed": ([CLOSED, {"required": ["b"]}], "object", frozenset(), None),
    "closed_shared": ([CLOSED, {"required": ["a"]}], "object", frozenset(), 1),
    "held_tag": (UNTAGGED, "object", frozenset({"k"}), None),  # the holder requires `k`
    "free_tag": (UNTAGGED, "object", frozenset(), 1),  # {} passes both
    "addresses": (
        [{"type": "string", "format": "ipv4"}, {"type": "string", "format": "ipv6"}],
        None,
        frozenset(),
        None,
    ),
    "untyped_addresses": ([{"format": "ipv4"}, {"format": "ipv6"}], None, frozenset(), 1),  # 5 passes both
    "address_or_uri": (
        [{"type": "string", "format": "ipv4"}, {"type": "string", "format": "uri"}],
        None,
        frozenset(),
        1,
    ),
    "forbidding": (
        [{"required": ["x"], "not": {"required": ["y"]}}, {"required": ["y"], "not": {"required": ["x"]}}],
        "object",
        frozenset(),
        None,
    ),
    # a `not` that lists what another branch takes; patterns one string alone matches
    "not_listed": (
        [{"type": "number"}, {"type": "string", "not": {"const": "auto"}}, {"const": "auto"}],
        None,
        frozenset(),
        None,
    ),
    "versions": (
        [{"required": ["v"], "properties": {"v": {"type": "string", "pattern": f"^{n}\\.0$"}}} for n in ("2", "1")],
        "object",
        frozenset(),
        None,
    ),
    "patterns_any": ([{"pattern": "^a$"}, {"pattern": "^b$"}], None, frozenset(), 1),  # 5 passes both
    "pattern_or_value": ([{"const": "a"}, {"type": "string", "pattern": "^b$"}], None, frozenset(), None),
    "pattern_wide": ([{"const": "axb"}, {"type": "string", "pattern": "^a.b$"}], None, frozenset(), 1),
    "shapes": (
        [{"type": "string", "pattern": "^2.1.0$"}, {"type": "string", "pattern": "^2.0.0$"}],
        None,
        frozenset(),
        None,
    ),
    "shapes_shared": (  # "2.1.0" matches both
        [{"type": "string", "pattern": "^2.1.0$"}, {"type": "string", "pattern": "^2\\.1.0$"}],
        None,
        frozenset(),
        1,
    ),
    "typed_in_part": (
        [{"type": "number"}, {"allOf": [{"type": "string"}, {"not": {"const": "auto"}}]}, {"const": "auto"}],
        None,
        frozenset(),
        None,
    ),
    "forbidden_in_part": (
        [{"type": "string", "allOf": [{"not": {"const": "auto"}}]}, {"const": "auto"}],
        None,
        frozenset(),
        None,
    ),
    "referred": ([{"$ref": "#/$defs/s"}, {"type": "object"}], None, frozenset(), None),
    "referred_text": ([{"$ref": "#/$defs/s"}, {"minLength": 1}], None, frozenset(), 1),
    "gone": ([{"$ref": "#/$defs/gone"}, {"type": "object"}], None, frozenset(), 1),  # unresolvable: not shown
    # a `$ref` beside other keywords: both hold, so the branch takes strings only
    "refined": ([{"$ref": "#/$defs/s", "minLength": 2}, {"type": "object"}], None, frozenset(), None),
    "refined_text": ([{"$ref": "#/$defs/s", "minLength": 2}, {"maxLength": 5}], None, frozenset(), 1),
    # the `type` beside the `$ref` allows booleans, but the target does not: the pair takes strings only
    "refined_typed": (
        [{"type": "boolean"}, {"$ref": "#/$defs/s", "type": ["string", "boolean"]}],
        None,
        frozenset(),
        None,
    ),
}
PATH = "schemas/branches.schema.json"


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> RefGraph:
    """One corpus holding every atom, combination and holder above, and its `$ref` graph."""
    defs: dict[str, Any] = {"s": {"type": "string"}}
    defs.update({f"a{n}": atom for n, atom in enumerate(ATOMS)})
    defs.update({f"c{n}": combo for n, combo in enumerate(COMBOS)})
    for name, (branches, held, present, _later) in HOLDERS.items():
        defs[name] = {
            "oneOf": branches,
            **({"type": held} if held else {}),
            **({"required": sorted(present)} if present else {}),
        }
    files = good_files()
    files[PATH] = schema("branches", {"$defs": defs})
    return load(write(tmp_path_factory.mktemp("oneof") / "corpus", files)).graph


def _at(name: str) -> Located:
    return Located(PATH, f"/$defs/{name}")


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, len(COMBOS) - 1),
    st.integers(0, len(COMBOS) - 1),
    st.sampled_from([None, "object", "integer", "string"]),
    st.sampled_from([frozenset(), frozenset({"a"})]),
)
def test_branches_set_apart_never_take_one_value_together(
    graph: RefGraph, one: int, other: int, held: str | None, present: frozenset[str]
) -> None:
    if not apart(_at(f"c{one}"), _at(f"c{other}"), graph, None if held is None else frozenset({held}), present):
        return  # not set apart: nothing is claimed
    holder: dict[str, Any] = {} if held is None else {"type": held}
    if present:
        holder["required"] = sorted(present)
    for instance in EDGES:
        both = all(Draft202012Validator(s).is_valid(instance) for s in (holder, COMBOS[one], COMBOS[other]))
        assert not both, (COMBOS[one], COMBOS[other], held, instance)


def test_no_pair_of_one_keyword_branches_is_set_apart_wrongly(graph: RefGraph) -> None:
    checks = [Draft202012Validator(atom) for atom in ATOMS]
    for one in range(len(ATOMS)):
        for other in range(len(ATOMS)):
            for held in (None, "object", "integer"):
                if not apart(_at(f"a{one}"), _at(f"a{other}"), graph, None if held is None else frozenset({held})):
                    continue
                for instance in EDGES:
                    if held is not None and not Draft202012Validator({"type": held}).is_valid(instance):
                        continue
                    both = checks[one].is_valid(instance) and checks[other].is_valid(instance)
                    assert not both, (ATOMS[one], ATOMS[other], held, instance)


@pytest.mark.parametrize("name", HOLDERS)
def test_exclusive_shapes_are_set_apart_and_overlapping_ones_are_not(graph: RefGraph, name: str) -> None:
    _branches, held, present, later = HOLDERS[name]
    assert overlapping(_at(name), graph, None if held is None else frozenset({held}), present) == later
