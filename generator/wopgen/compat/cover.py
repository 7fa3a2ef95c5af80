"""What a schema accepts, told from its keywords: its types, its constant values, and whether one
schema accepts every value another accepts.

`covers(outer, inner)` is sound but partial: True only when every instance valid under `inner` is
valid under `outer` by the meaning of their keywords, False when that cannot be shown (so a caller
that trusts True never hides a real difference). The two may come from different corpora (the base
and the head of a comparison). It reads the same meaning, an empty schema, a union (every branch of
an inner one covered; some branch of an outer one, the only one of its types for a `oneOf`), an
`allOf` one of whose members is covered, a shape of `type`, `enum`/`const`, `required`,
`properties` and `additionalProperties`, and an inner `enum`/`const` of scalars each of which the
outer schema's validators accept (an enum of strings a `pattern` matches).

`admitted_types(schema)` tells which JSON types a schema can accept at most (a `type` beside a
union that admits no other is no change), and `accepts_anything(schema)` whether it surely accepts
every JSON value (an `additionalProperties` schema that does closes nothing); both sound, both partial.

`accepts(schema, value)` tells whether a schema takes one value by asking the validators of the
corpus the schema belongs to, so it reads every keyword, in the draft the schema declares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wopgen.compat.normalize import Loc, Resolver, fingerprint, is_annotation, without_noops
from wopgen.corpus.keywords import idle_keywords

MAX_DEPTH = 16  # members followed down; a deeper (or cyclic) shape is not shown to be covered
_SHAPE = frozenset(
    {"type", "enum", "const", "properties", "required", "additionalProperties", "items", "additionalItems"}
    | {"minItems", "maxItems"}
)


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


@dataclass(frozen=True)
class Side:
    """A schema and the resolver of the corpus it belongs to (two sides of a comparison may differ)."""

    resolver: Resolver
    loc: Loc

    def plain(self) -> Side:
        return Side(self.resolver, without_noops(self.resolver.unwrap(self.loc)))

    def child(self, *tokens: str | int) -> Side:
        return Side(self.resolver, self.loc.child(*tokens))

    def only(self, node: dict[str, Any]) -> Side:
        """This schema with `node` in place of its keywords (a part of it, or it narrowed)."""
        return Side(self.resolver, Loc(self.loc.doc, self.loc.pointer, node, self.loc.borrowed))

    @property
    def node(self) -> Any:
        return self.loc.node

    def fingerprint(self) -> str:
        return self.resolver.fingerprint(self.loc)


def covers(outer: Side, inner: Side, depth: int = MAX_DEPTH) -> bool:
    """Whether `outer` accepts every value `inner` accepts, as far as their keywords show it."""
    if depth <= 0:
        return False
    outer, inner = outer.plain(), inner.plain()
    o, i = outer.node, inner.node
    if o is True or o == {} or i is False or outer.fingerprint() == inner.fingerprint():
        return True
    if not isinstance(o, dict) or not isinstance(i, dict):
        return False
    if constants_accepted(outer, i):
        return True
    if (union := _pure_union(i)) is not None:  # each of its branches must be covered
        return all(covers(outer, inner.child(union, n), depth - 1) for n in range(len(i[union])))
    members = i.get("allOf")
    if isinstance(members, list) and any(
        covers(outer, inner.child("allOf", n), depth - 1) for n in range(len(members))
    ):
        return True  # what an allOf accepts, each of its members accepts
    if (union := _pure_union(o)) is not None:
        return union_covers(union, [outer.child(union, n) for n in range(len(o[union]))], inner, depth)
    if not {k for k in o if not is_annotation(k)} <= _SHAPE:
        return False
    return (
        _types_covered(o, i)
        and _values_covered(o, i)
        and _required_covered(o, i)
        and _properties_covered(outer, inner, depth)
        and _items_covered(outer, inner, depth)
    )


def constants_accepted(outer: Side, i: dict[str, Any]) -> bool:
    """Whether `i` allows only scalar constants (`enum`/`const`), each of which `outer`'s validators
    accept (so every keyword counts, a `pattern` too). The validators read the place the schema sits
    whole; a scalar meets no keyword that reads another (`additionalProperties` beside `properties`),
    so a schema read with keywords of its place set aside takes every scalar the place takes."""
    constants = values(i)
    return (
        constants is not None
        and all(not isinstance(v, dict | list) for v in constants)
        and all(accepts(outer, v) for v in constants)
    )


def admitted_types(schema: Side, depth: int = MAX_DEPTH) -> frozenset[str]:
    """The JSON types a value the schema accepts may have, read from `type`, `enum`/`const` and the
    `allOf`/`anyOf`/`oneOf` and `if`/`then`/`else` around and beside them. Never smaller than the
    truth (a type it cannot rule out is kept), so `within(admitted_types(s), t)` shows that `s`
    accepts no value outside `t`.
    A `oneOf` refuses a type two of its branches accept every value of (a value of it matches both)."""
    return _admitted(schema, depth, frozenset())


def _admitted(schema: Side, depth: int, stack: frozenset[tuple[str, str]]) -> frozenset[str]:
    schema = schema.plain()
    node = schema.node
    if node is False:
        return frozenset()
    if not isinstance(node, dict) or depth <= 0 or schema.loc.key in stack:
        return ALL_TYPES  # nothing rules a type out, or it is not worked out here (a cycle)
    stack |= {schema.loc.key}
    found = types(node) or ALL_TYPES
    constants = values(node)
    if constants is not None:
        found = meet(found, frozenset(json_type(v) for v in constants))
    for keyword in ("allOf", "anyOf", "oneOf"):
        members = node.get(keyword)
        if not isinstance(members, list):
            continue
        branches = [schema.child(keyword, n) for n in range(len(members))]
        if keyword == "allOf":
            for member in branches:
                found = meet(found, _admitted(member, depth - 1, stack))
            continue
        joined = frozenset().union(*(_admitted(branch, depth - 1, stack) for branch in branches))
        if keyword == "oneOf":  # a value of a type two branches take whole matches both: refused
            joined = frozenset(t for t in joined if sum(_takes_every(branch, t) for branch in branches) < 2)
        found = meet(found, joined)
    if "if" in node and ("then" in node or "else" in node):  # a value passes `if` and `then`, or `else`
        passed = meet(_admitted(schema.child("if"), depth - 1, stack), _admitted_at(schema, "then", depth, stack))
        found = meet(found, passed | _admitted_at(schema, "else", depth, stack))
    return found


def _admitted_at(schema: Side, keyword: str, depth: int, stack: frozenset[tuple[str, str]]) -> frozenset[str]:
    return _admitted(schema.child(keyword), depth - 1, stack) if keyword in schema.node else ALL_TYPES


def meet(left: frozenset[str], right: frozenset[str]) -> frozenset[str]:
    """The types both admit (an integer is a number)."""
    both = left & right
    if "integer" in left | right and {"integer", "number"} & left and {"integer", "number"} & right:
        both |= {"integer"}
    return both


def accepts_anything(schema: Side, depth: int = MAX_DEPTH) -> bool:
    """Whether the schema surely accepts every JSON value: every value of each type, its members and
    items each accepted by a schema that accepts anything. A recursive schema (a JSON value of
    objects and arrays of JSON values) is shown so by assuming it while its members are judged:
    a member is a smaller value, so the assumption is only used for values of lesser depth."""
    return _takes_all(schema, frozenset(), depth)


def _takes_all(schema: Side, assumed: frozenset[tuple[str, str]], depth: int) -> bool:
    key = schema.plain().loc.key
    if key in assumed:
        return True
    if depth <= 0:
        return False
    assumed |= {key}
    return all(_takes_every(schema, kind, assumed, frozenset(), depth - 1) for kind in sorted(ALL_TYPES))


_MEMBERS = ("properties", "patternProperties")
_REST = ("additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems")


def takes_every(schema: Side, kind: str) -> bool:
    """Whether the schema surely accepts every value of the JSON type `kind` (not "integer")."""
    return _takes_every(schema, kind)


def _takes_every(
    schema: Side,
    kind: str,
    assumed: frozenset[tuple[str, str]] = frozenset(),
    stack: frozenset[tuple[str, str]] = frozenset(),
    depth: int = MAX_DEPTH,
) -> bool:
    """Whether the schema surely accepts every value of the JSON type `kind` (not "integer"): each of
    its keywords does not apply to that type, is a `type` that admits it, a union or `allOf` whose
    branches take it so, or (for objects and arrays) a subschema of members or items that accepts
    anything (`assumed` names the schemas taken to, for values of lesser depth)."""
    schema = schema.plain()
    node = schema.node
    if node is True:
        return True
    if not isinstance(node, dict) or schema.loc.key in stack or depth <= 0:
        return False
    stack |= {schema.loc.key}
    idle = idle_keywords(kind)

    def every(keyword: str) -> list[Side]:
        value = node[keyword]
        if isinstance(value, list):
            return [schema.child(keyword, n) for n in range(len(value))]
        if keyword in _MEMBERS and isinstance(value, dict):
            return [schema.child(keyword, name) for name in value]
        return [schema.child(keyword)]

    for key in node:
        if is_annotation(key) or key in idle:
            continue
        if key == "type":
            allowed = types(node)
            fine = allowed is None or within(frozenset({kind}), allowed)
        elif key in ("anyOf", "allOf", "oneOf") and isinstance(node[key], list):
            taken = [_takes_every(branch, kind, assumed, stack, depth - 1) for branch in every(key)]
            fine = any(taken) if key == "anyOf" else all(taken) and (key == "allOf" or len(taken) == 1)
        elif (kind == "object" and key in (*_MEMBERS, *_REST[:2])) or (
            kind == "array" and key in ("items", "prefixItems", *_REST[2:])
        ):
            fine = all(_takes_all(member, assumed, depth - 1) for member in every(key))
        else:
            fine = False
        if not fine:
            return False
    return True


def _pure_union(node: dict[str, Any]) -> str | None:
    """ "oneOf" or "anyOf" when the schema is nothing but that union."""
    keys = [k for k in node if not is_annotation(k)]
    if len(keys) == 1 and keys[0] in ("oneOf", "anyOf") and isinstance(node[keys[0]], list):
        return keys[0]
    return None


def union_covers(union: str, branches: list[Side], inner: Side, depth: int = MAX_DEPTH) -> bool:
    """Whether the `union` ("anyOf" or "oneOf") of `branches` accepts every value `inner` accepts."""
    inner = inner.plain()
    own = types(inner.node) if isinstance(inner.node, dict) else None
    if own is not None and len(own) > 1:  # a value of each type must find its branch
        return all(union_covers(union, branches, inner.only({**inner.node, "type": t}), depth) for t in sorted(own))
    found = [n for n, branch in enumerate(branches) if covers(branch, inner, depth - 1)]
    if not found or union == "anyOf":
        return bool(found)
    # oneOf: a value must match exactly one branch, so every other branch must take none of inner's types
    if own is None or len(found) > 1:
        return False
    others = [types(branch.plain().node) for n, branch in enumerate(branches) if n != found[0]]
    return all(theirs is not None and not (theirs & _widened(own)) for theirs in others)


def _widened(kinds: frozenset[str]) -> frozenset[str]:
    """The types a value of `kinds` may be read as (an integer is a number, and the other way round)."""
    return kinds | ({"number", "integer"} if kinds & {"number", "integer"} else frozenset())


def _types_covered(o: dict[str, Any], i: dict[str, Any]) -> bool:
    allowed = types(o)
    if allowed is None:
        return True
    own = types(i)
    if own is not None:
        return within(own, allowed)
    constants = values(i)
    return constants is not None and all(within(frozenset({json_type(v)}), allowed) for v in constants)


def _values_covered(o: dict[str, Any], i: dict[str, Any]) -> bool:
    allowed = values(o)
    if allowed is None:
        return True
    given = values(i)
    return given is not None and {fingerprint(v) for v in given} <= {fingerprint(v) for v in allowed}


def _required_covered(o: dict[str, Any], i: dict[str, Any]) -> bool:
    needed = o.get("required", [])
    given = i.get("required", [])
    return isinstance(needed, list) and isinstance(given, list) and set(map(str, needed)) <= set(map(str, given))


def _properties_covered(outer: Side, inner: Side, depth: int) -> bool:
    """Every member `outer` constrains is constrained at least as much by `inner`, named or not."""
    mine = outer.node.get("properties", {})
    theirs = inner.node.get("properties", {})
    if not isinstance(mine, dict) or not isinstance(theirs, dict):
        return False
    for name in mine:
        member = outer.child("properties", name)
        if member.plain().node in ({}, True):
            continue
        if name in theirs:
            if not covers(member, inner.child("properties", name), depth - 1):
                return False
        elif not _forbids(inner.node, name) and not _unnamed_covered(member, inner, depth):
            return False
    if "additionalProperties" not in outer.node:
        return True  # members outer does not name may hold anything
    rest = outer.child("additionalProperties")
    return all(covers(rest, inner.child("properties", n), depth - 1) for n in theirs if n not in mine) and (
        _unnamed_covered(rest, inner, depth)
    )


def _items_covered(outer: Side, inner: Side, depth: int) -> bool:
    """Every item `outer` constrains is constrained at least as much by `inner`, position by position
    (`items` a list: a tuple, the rest held by `additionalItems`, as drafts 4 to 2019-09 read it), and
    `inner` holds as few or more items at least, as many or fewer at most."""
    o, i = outer.node, inner.node
    if not {"items", "additionalItems", "minItems", "maxItems"} & o.keys():
        return True
    if "prefixItems" in i or not _count_within(o, i):
        return False
    positions = max(len(o["items"]) if isinstance(o.get("items"), list) else 0, _tuple_length(i)) + 1
    return all(
        _item_covered(_item_at(outer, n), _item_at(inner, n), depth) for n in range(positions)
    )  # the last position stands for every one past both tuples


def _count_within(o: dict[str, Any], i: dict[str, Any]) -> bool:
    low, high = o.get("minItems", 0), o.get("maxItems")
    mine_low, mine_high = i.get("minItems", 0), i.get("maxItems")
    numbers = [v for v in (low, high, mine_low, mine_high) if v is not None]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in numbers):
        return False
    return mine_low >= low and (high is None or (mine_high is not None and mine_high <= high))


def _tuple_length(node: dict[str, Any]) -> int:
    return len(node["items"]) if isinstance(node.get("items"), list) else 0


def _item_at(schema: Side, position: int) -> Side | None:
    """The schema an item at `position` must meet (None: any item)."""
    items = schema.node.get("items")
    if isinstance(items, list):
        if position < len(items):
            return schema.child("items", position)
        return schema.child("additionalItems") if "additionalItems" in schema.node else None
    return schema.child("items") if "items" in schema.node else None


def _item_covered(outer: Side | None, inner: Side | None, depth: int) -> bool:
    if outer is None:
        return True
    if inner is None:
        return accepts_anything(outer, depth - 1)
    return covers(outer, inner, depth - 1)


def _forbids(node: dict[str, Any], name: str) -> bool:
    """Whether the schema refuses every object with the member `name` by `"not": {"required": [name]}`
    (so what another schema says of that member decides nothing about the values it accepts)."""
    refused = node.get("not")
    return (
        isinstance(refused, dict)
        and refused.get("required") == [name]
        and all(is_annotation(k) for k in refused if k != "required")
    )


def _unnamed_covered(member: Side, inner: Side, depth: int) -> bool:
    """Whether every member `inner` does not name is one `member` accepts."""
    if "patternProperties" in inner.node:
        return False  # which pattern, if any, a name matches is not worked out here
    rest = inner.node.get("additionalProperties")
    if rest is False:
        return True  # inner carries no member it does not name
    return rest is not None and covers(member, inner.child("additionalProperties"), depth - 1)


def accepts(schema: Side, value: Any) -> bool:
    """Whether `schema` surely accepts the instance `value`, judged by its corpus's validators (those
    of `wopgen check`, in the draft each schema declares). Every place a keyword of it is read from
    is validated whole: its own, and those a keyword is borrowed from (a `$ref` target, an `allOf`
    member laid in, the object beside a union whose keywords were laid into this branch). False when
    one rejects it or cannot be judged: a `$ref` out of the corpus is never fetched."""
    loc = schema.loc
    places = dict.fromkeys([(loc.doc.path, loc.pointer), *((doc.path, at) for _, doc, at in loc.borrowed)])
    corpus = schema.resolver.corpus
    return all(corpus.accepts(path, pointer, value) for path, pointer in places)
