"""Whether the branches of a `oneOf` can take one value together.

A generated model types a `oneOf` as the union of its branches and takes a value any branch takes;
JSON Schema takes it only when exactly one does. The two agree when no two branches can take the same
value, which `overlapping` tries to show for each pair from their keywords: types that share no value,
`const`/`enum` values none of which the other branch allows (by its values, its type, its `not` or a
pattern one string alone matches), checked formats no string has both of, patterns that each match
one other string, a member both require with such values,
a member one requires where the other is closed, or one branch requiring what the other's `not`
forbids. What it cannot show is reported (`models_inexact`), so a pair it misses costs a warning, never
a silent disagreement.
"""

from __future__ import annotations

import json
import re
from typing import Any

from wopgen.compat.cover import json_type, types, values
from wopgen.corpus.graph import PURE_REF_KEYS, Located, RefGraph
from wopgen.corpus.keywords import draft_of
from wopgen.corpus.validation import ASSERTED_FORMATS

MAX_DEPTH = 8  # members followed down; deeper, the pair is not shown apart
_OBJECT = frozenset({"object"})


def overlapping(
    holder: Located, graph: RefGraph, held: frozenset[str] | None, present: frozenset[str] = frozenset()
) -> int | None:
    """The index of the first branch of the `oneOf` at `holder` (whose object allows the types `held`,
    None for any, and requires the members `present` of an object) that cannot be shown apart from an
    earlier one; None when every pair can. `$ref`s are followed through the corpus's `$ref` graph."""
    branches = graph.node(holder.child("oneOf"))
    count = len(branches) if isinstance(branches, list) else 0
    resolved = [_resolved(holder.child("oneOf", n), graph) for n in range(count)]
    for later in range(1, count):
        for earlier in range(later):
            if not _apart(resolved[earlier], resolved[later], graph, held, MAX_DEPTH, present):
                return later
    return None


def apart(
    one: Located, other: Located, graph: RefGraph, held: frozenset[str] | None, present: frozenset[str] = frozenset()
) -> bool:
    """Whether no value can pass both the schemas at `one` and `other`, as far as their keywords show it."""
    return _apart(_resolved(one, graph), _resolved(other, graph), graph, held, MAX_DEPTH, present)


Schema = tuple[Any, Located]


def _resolved(where: Located, graph: RefGraph) -> Schema | None:
    """The schema at `where`, with a `$ref` that stands alone (beside annotations) followed; None where
    it cannot be. A `$ref` beside other keywords, both of which hold, is read as the types they allow
    together (in drafts 4 to 7, which ignore the keywords beside a `$ref`, as its target's types): a
    schema that allows no fewer values, so what it is shown apart from, the pair is too."""
    met, complete = graph.chain(where)
    if not complete:
        return None
    if all(set(graph.node(loc)) <= PURE_REF_KEYS for loc in met[:-1]):
        node = graph.node(met[-1])
        return (node, met[-1]) if isinstance(node, dict | bool) else None
    legacy = draft_of(graph.corpus.schemas[where.path].data).legacy
    kinds: frozenset[str] | None = None
    for loc in met[-1:] if legacy else met:
        node = graph.node(loc)
        if node is False:
            return (False, loc)
        if isinstance(node, dict):
            kinds = _allowed(node, kinds)
    return ({"type": sorted(kinds)}, met[-1]) if kinds is not None else None


def _apart(
    one: Schema | None,
    other: Schema | None,
    graph: RefGraph,
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
    kinds = _narrowed(a, _narrowed(b, held))
    if kinds is not None and not kinds:
        return True
    if _values_apart(a, b) or _values_apart(b, a):
        return True
    if (
        kinds is not None
        and kinds <= {"string"}
        and (_formats_apart(a.get("format"), b.get("format")) or _patterns_apart(a, b))
    ):
        return True
    if kinds is None or not kinds <= _OBJECT:
        return False  # a value of another type passes every object keyword of both
    return _objects_apart(one, other, graph, depth, present) or _objects_apart(other, one, graph, depth, present)


def _narrowed(node: dict[str, Any], held: frozenset[str] | None) -> frozenset[str] | None:
    """The types `held` narrowed by the `type` of `node` and of each of its `allOf` parts written in place."""
    kinds = _allowed(node, held)
    parts = node.get("allOf")
    for part in parts if isinstance(parts, list) else []:
        if isinstance(part, dict):
            kinds = _allowed(part, kinds)
    return kinds


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
    """`a` lists its values, and `b` allows none of them: by its own list, by its type, by a pattern none
    of them can match, or by a `not` (its own or an `allOf` part's) that lists them all."""
    listed = values(a)
    if listed is None:
        return False
    mine = {_equal_as_json(v) for v in listed}
    theirs = values(b)
    if theirs is not None:
        return not mine & {_equal_as_json(v) for v in theirs}
    if any(mine <= forbidden for forbidden in _forbidden_lists(b)):
        return True
    shape = _shape(b.get("pattern"))
    if (
        shape is not None
        and not any(isinstance(v, str) and _may_match(shape, v) for v in listed)
        and (all(isinstance(v, str) for v in listed) or _allowed(b, None) == frozenset({"string"}))
    ):
        return True  # a pattern holds of strings alone: another value passes it
    kinds = _allowed(b, None)
    return kinds is not None and not any(json_type(v) in kinds for v in listed)


def _forbidden_lists(node: dict[str, Any]) -> list[set[str]]:
    """The values each `not` of `node` (its own, and its `allOf` parts') forbids by a list alone."""
    parts = node.get("allOf")
    found = []
    for holder in [node, *(parts if isinstance(parts, list) else [])]:
        forbidden = holder.get("not") if isinstance(holder, dict) else None
        if isinstance(forbidden, dict) and set(forbidden) <= _LISTING and values(forbidden) is not None:
            found.append({_equal_as_json(v) for v in values(forbidden) or []})
    return found


# What a `not` may hold and still list the values it forbids.
_LISTING = frozenset({"const", "enum", "description", "title", "$comment"})
# A pattern anchored at both ends that matches strings of one length alone: each position a character
# (itself or escaped) or `.`.
_SHAPE = re.compile(r"\^((?:[^\\.^$|?*+()\[\]{}]|\\[.\\/^$|?*+()\[\]{}-]|\.)*)\$")
_POSITION = re.compile(r"\\(.)|(\.)|(.)")


def _shape(pattern: Any) -> tuple[str | None, ...] | None:
    """Per position, the character a string matching `pattern` holds there (None: any but a newline, the
    one character `.` matches in neither ECMA-262 nor Python's `re`),
    when `pattern` is a fixed-length shape (`^2\\.1\\.0$`, `^v.$`); None otherwise."""
    found = _SHAPE.fullmatch(pattern) if isinstance(pattern, str) else None
    if found is None:
        return None
    return tuple(None if any_char else escaped or plain for escaped, any_char, plain in _POSITION.findall(found[1]))


def _may_match(shape: tuple[str | None, ...], value: str) -> bool:
    """Whether `value` may match the pattern of `shape`: as ECMA-262 reads it, or as Python's `re`, which
    also finds `$` before a final newline."""
    text = value[:-1] if len(value) == len(shape) + 1 and value.endswith("\n") else value
    return len(text) == len(shape) and all(
        (want is None and got != "\n") or got == want for want, got in zip(shape, text, strict=True)
    )


def _patterns_apart(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two string schemas whose patterns are fixed-length shapes no string matches both of: of one length,
    with another character at some position."""
    mine, theirs = _shape(a.get("pattern")), _shape(b.get("pattern"))
    if mine is None or theirs is None or len(mine) != len(theirs):
        return False
    return any(x is not None and y is not None and x != y for x, y in zip(mine, theirs, strict=True))


# Checked formats no string has two of: an IPv4 address is never an IPv6 one, a date never a time.
_FORMAT_FAMILIES = (frozenset({"ipv4", "ipv6"}), frozenset({"date", "date-time", "time"}))


def _formats_apart(one: Any, other: Any) -> bool:
    """Two formats the corpus validator checks that no string satisfies both of."""
    if one == other or one not in ASSERTED_FORMATS or other not in ASSERTED_FORMATS:
        return False
    return any(one in family and other in family for family in _FORMAT_FAMILIES)


def _objects_apart(one: Schema, other: Schema, graph: RefGraph, depth: int, present: frozenset[str]) -> bool:
    """For two object schemas: a member both require that no value passes in both, a member `other`
    requires that `one`, closed, does not declare, or members `other` requires that `one`'s `not` forbids
    together."""
    (a, here), (b, there) = one, other
    required = _names(b.get("required")) | present
    members = a.get("properties") if isinstance(a.get("properties"), dict) else {}
    theirs = b.get("properties") if isinstance(b.get("properties"), dict) else {}
    for name in required & (_names(a.get("required")) | present):
        if name in members and name in theirs:
            mine, their = (
                _resolved(here.child("properties", name), graph),
                _resolved(there.child("properties", name), graph),
            )
            if _apart(mine, their, graph, None, depth - 1):
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
