"""What a schema accepts, told from its keywords: its types, its constant values, and whether one
schema accepts every value another accepts.

`covers(resolver, outer, inner)` is sound but partial: True only when every instance valid under
`inner` is valid under `outer` by the meaning of their keywords, False when that cannot be shown
(so a caller that trusts True never hides a real difference). It knows the shapes an `anyOf`
catch-all takes: the same meaning, an empty schema, an `allOf` that includes the outer schema, and
an object schema constraining only `type`, `required` and `properties` (left open to other members).
"""

from __future__ import annotations

from typing import Any

from wopgen.compat.normalize import Loc, Resolver, is_annotation, without_noops

MAX_DEPTH = 16  # members followed down; a deeper (or cyclic) shape is not shown to be covered
_OBJECT_SHAPE = frozenset({"type", "properties", "required"})


ALL_TYPES = frozenset({"null", "boolean", "object", "array", "number", "string"})  # integer is a number


def types(node: dict[str, Any]) -> frozenset[str] | None:
    """The JSON types `type` allows (None: it does not restrict them, absent or naming every type)."""
    value = node.get("type")
    if isinstance(value, str):
        return frozenset({value})
    if isinstance(value, list):
        named = frozenset(v for v in value if isinstance(v, str))
        return None if named >= ALL_TYPES else named
    return None


def within(inner: frozenset[str], outer: frozenset[str]) -> bool:
    return all(t in outer or (t == "integer" and "number" in outer) for t in inner)


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def values(node: dict[str, Any]) -> list[Any] | None:
    """The values `const` or `enum` allow (None: they do not restrict them)."""
    if "const" in node:
        return [node["const"]]
    enum = node.get("enum")
    return list(enum) if isinstance(enum, list) else None


def _plain(resolver: Resolver, loc: Loc) -> Loc:
    return without_noops(resolver.unwrap(loc))


def covers(resolver: Resolver, outer: Loc, inner: Loc, depth: int = MAX_DEPTH) -> bool:
    """Whether `outer` accepts every value `inner` accepts, as far as their keywords show it."""
    if depth <= 0:
        return False
    outer, inner = _plain(resolver, outer), _plain(resolver, inner)
    o, i = outer.node, inner.node
    if o is True or o == {} or resolver.fingerprint(outer) == resolver.fingerprint(inner):
        return True
    if not isinstance(o, dict) or not isinstance(i, dict):
        return False
    members = i.get("allOf")
    if isinstance(members, list) and any(
        covers(resolver, outer, inner.child("allOf", n), depth - 1) for n in range(len(members))
    ):
        return True  # what an allOf accepts, each of its members accepts
    if not {k for k in o if not is_annotation(k)} <= _OBJECT_SHAPE:
        return False
    return _types_covered(o, i) and _required_covered(o, i) and _properties_covered(resolver, outer, inner, depth)


def _types_covered(o: dict[str, Any], i: dict[str, Any]) -> bool:
    allowed = types(o)
    if allowed is None:
        return True
    own = types(i)
    if own is not None:
        return within(own, allowed)
    constants = values(i)
    return constants is not None and all(within(frozenset({json_type(v)}), allowed) for v in constants)


def _required_covered(o: dict[str, Any], i: dict[str, Any]) -> bool:
    needed = o.get("required", [])
    given = i.get("required", [])
    return isinstance(needed, list) and isinstance(given, list) and set(map(str, needed)) <= set(map(str, given))


def _properties_covered(resolver: Resolver, outer: Loc, inner: Loc, depth: int) -> bool:
    """Every member `outer` constrains is constrained at least as much by `inner`."""
    mine = outer.node.get("properties", {})
    theirs = inner.node.get("properties", {})
    if not isinstance(mine, dict) or not isinstance(theirs, dict):
        return False
    for name in mine:
        member = outer.child("properties", name)
        if _plain(resolver, member).node in ({}, True):
            continue
        if name in theirs:
            if not covers(resolver, member, inner.child("properties", name), depth - 1):
                return False
            continue
        if "patternProperties" in inner.node:
            return False  # which pattern, if any, the name matches is not worked out here
        rest = inner.node.get("additionalProperties")
        if rest is False:
            continue  # inner never carries the member
        if rest is None or not covers(resolver, member, inner.child("additionalProperties"), depth - 1):
            return False
    return True
