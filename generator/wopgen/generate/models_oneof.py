"""Whether the branches of a `oneOf` can take one value together.

A generated model types a `oneOf` as the union of its branches and takes a value any branch takes;
JSON Schema takes it only when exactly one does. The two agree when no two branches can take the same
value, which `overlapping` tries to show for each pair from their keywords: types that share no value,
`const`/`enum` values none of which the other branch allows, checked formats no string has both of, a member both require with such values,
a member one requires where the other is closed, or one branch requiring what the other's `not`
forbids. What it cannot show is reported (`models_inexact`), so a pair it misses costs a warning, never
a silent disagreement.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import referencing
import referencing.exceptions
import referencing.jsonschema

from wopgen.compat.cover import json_type, types, values
from wopgen.generate.models_formats import ASSERTED_FORMATS

if TYPE_CHECKING:  # the resolver type is not exported at the package's top level
    from referencing._core import Resolver

MAX_DEPTH = 8  # `$ref`s and members followed down; deeper, the pair is not shown apart
_OBJECT = frozenset({"object"})


def overlapping(
    branches: list[Any], held: frozenset[str] | None, resolver: Resolver[Any], present: frozenset[str] = frozenset()
) -> int | None:
    """The index of the first branch of `branches` (of a `oneOf` whose holder allows the types `held`,
    None for any, and requires the members `present` of an object) that cannot be shown apart from an
    earlier one; None when every pair can."""
    resolved = [_resolved(branch, resolver, MAX_DEPTH) for branch in branches]
    for later in range(1, len(resolved)):
        for earlier in range(later):
            if not _apart(resolved[earlier], resolved[later], held, MAX_DEPTH, present):
                return later
    return None


Schema = tuple[Any, "Resolver[Any]"]


def _resolved(node: Any, resolver: Resolver[Any], depth: int) -> Schema | None:
    """`node` with a `$ref` that stands alone (beside annotations) followed; None where it cannot be."""
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and depth > 0:
        if any(key not in ("$ref", "description", "title", "$comment") for key in node):
            return None  # a `$ref` beside other keywords: both hold, which this does not read
        try:
            found = resolver.lookup(node["$ref"])
        except referencing.exceptions.Unresolvable:
            return None
        node, resolver, depth = found.contents, found.resolver, depth - 1
    if isinstance(node, dict) and isinstance(node.get("$id"), str):
        resolver = resolver.in_subresource(referencing.jsonschema.DRAFT202012.create_resource(node))
    return (node, resolver) if isinstance(node, dict | bool) and depth > 0 else None


def _apart(
    one: Schema | None,
    other: Schema | None,
    held: frozenset[str] | None,
    depth: int,
    present: frozenset[str] = frozenset(),
) -> bool:
    """Whether no value can pass both schemas, as far as their keywords show it; an object value holds
    the members `present` besides those the schemas require."""
    if one is None or other is None or depth <= 0:
        return False
    a, b = one[0], other[0]
    if a is False or b is False:
        return True
    if a is True or b is True:
        return False
    kinds = _allowed(a, _allowed(b, held))
    if kinds is not None and not kinds:
        return True
    if _values_apart(a, b) or _values_apart(b, a):
        return True
    if kinds is not None and kinds <= {"string"} and _formats_apart(a.get("format"), b.get("format")):
        return True
    if kinds is None or not kinds <= _OBJECT:
        return False  # a value of another type passes every object keyword of both
    return _objects_apart(one, other, depth, present) or _objects_apart(other, one, depth, present)


def _allowed(node: dict[str, Any], held: frozenset[str] | None) -> frozenset[str] | None:
    """The types `held` narrowed by the `type` of `node` (an integer is a number)."""
    own = types(node)
    if own is None:
        return held
    if "number" in own:
        own = own | {"integer"}
    if held is None:
        return own
    if "number" in held:
        held = held | {"integer"}
    return own & held


def _values_apart(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """`a` lists its values, and `b` allows none of them: by its own list, or by its type."""
    listed = values(a)
    if listed is None:
        return False
    theirs = values(b)
    if theirs is not None:
        return not {_equal_as_json(v) for v in listed} & {_equal_as_json(v) for v in theirs}
    kinds = _allowed(b, None)
    return kinds is not None and not any(json_type(v) in kinds for v in listed)


# Checked formats no string has two of: an IPv4 address is never an IPv6 one, a date never a time.
_FORMAT_FAMILIES = (frozenset({"ipv4", "ipv6"}), frozenset({"date", "date-time", "time"}))


def _formats_apart(one: Any, other: Any) -> bool:
    """Two formats the corpus validator checks that no string satisfies both of."""
    if one == other or one not in ASSERTED_FORMATS or other not in ASSERTED_FORMATS:
        return False
    return any(one in family and other in family for family in _FORMAT_FAMILIES)


def _objects_apart(one: Schema, other: Schema, depth: int, present: frozenset[str]) -> bool:
    """For two object schemas: a member both require that no value passes in both, a member `other`
    requires that `one`, closed, does not declare, or members `other` requires that `one`'s `not` forbids
    together."""
    (a, resolver), (b, their_resolver) = one, other
    required = _names(b.get("required")) | present
    members = a.get("properties") if isinstance(a.get("properties"), dict) else {}
    theirs = b.get("properties") if isinstance(b.get("properties"), dict) else {}
    for name in required & (_names(a.get("required")) | present):
        if name in members and name in theirs:
            mine = _resolved(members[name], resolver, depth - 1)
            if _apart(mine, _resolved(theirs[name], their_resolver, depth - 1), None, depth - 1):
                return True
    closed = a.get("additionalProperties") is False and not a.get("patternProperties")
    if closed and required - set(members):
        return True
    forbidden = a.get("not")
    return (
        isinstance(forbidden, dict)
        and set(forbidden) <= {"required", "description", "title", "$comment"}
        and bool(_names(forbidden.get("required")))
        and _names(forbidden.get("required")) <= required
    )


def _equal_as_json(value: Any) -> str:
    """A key two values share exactly when JSON Schema counts them equal: 1 and 1.0 alike, true and 1
    apart, members in any order."""

    def plain(item: Any) -> Any:
        if isinstance(item, float) and item.is_integer():
            return int(item)
        if isinstance(item, list):
            return [plain(member) for member in item]
        if isinstance(item, dict):
            return {key: plain(member) for key, member in item.items()}
        return item

    return json.dumps(plain(value), sort_keys=True)


def _names(listed: Any) -> set[str]:
    return {name for name in listed if isinstance(name, str)} if isinstance(listed, list) else set()
