"""Whether two schemas share no value, told from their keywords.

`disjoint(a, b)` is sound but partial: True only when no JSON value is valid under both, False when
that cannot be shown. It reads:
- the JSON types each admits at most (`cover.admitted_types`), none in common;
- their constant values (`enum`/`const`), none in common;
- a union whose every branch shares no value with the other schema, an `allOf` one of whose members
  does not, and a `not` whose schema covers the other one;
- for two schemas that take only objects, a member one of them requires that the other refuses (its
  schema `false`, a closure that reaches it: `additionalProperties: false`, or `unevaluatedProperties:
  false` where no subschema in place could evaluate it), or whose two member schemas share no value.

It lets an `if`/`then`/`else` be read as the union of its two arms: `else` applies to the values
`if` refuses, so when `else` takes no value `if` takes, that arm is `else` as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from wopgen.compat.cover import Side, admitted_types, covers, meet, values
from wopgen.compat.normalize import fingerprint
from wopgen.corpus import regexes
from wopgen.corpus.keywords import draft_of

MAX_DEPTH = 8  # schemas followed down (branches, members): deeper, they are not shown apart
_OBJECTS = frozenset({"object"})
UNEVALUATED_DRAFTS = frozenset({"2019-09", "2020-12"})  # the drafts that read `unevaluatedProperties`


def disjoint(a: Side, b: Side, depth: int = MAX_DEPTH) -> bool:
    """Whether no value is valid under both `a` and `b`, as far as their keywords show it."""
    if depth <= 0:
        return False
    a, b = a.plain(), b.plain()
    if a.node is False or b.node is False:
        return True
    if not isinstance(a.node, dict) or not isinstance(b.node, dict):
        return False  # `true`: it shares every value the other takes
    shared = meet(admitted_types(a), admitted_types(b))
    if not shared:
        return True
    return (
        _values_apart(a.node, b.node)
        or _either(_refused_by_not, a, b, depth)
        or _either(_split_apart, a, b, depth)
        or (shared <= _OBJECTS and _either(_members_apart, a, b, depth))
    )


def _either(test: Any, a: Side, b: Side, depth: int) -> bool:
    return bool(test(a, b, depth) or test(b, a, depth))


def _values_apart(a: dict[str, Any], b: dict[str, Any]) -> bool:
    mine, theirs = values(a), values(b)
    if mine is None or theirs is None:
        return False
    return not {fingerprint(v) for v in mine} & {fingerprint(v) for v in theirs}


def _refused_by_not(a: Side, b: Side, depth: int) -> bool:
    """`b` refuses what its `not` takes, and that takes every value of `a`."""
    return "not" in b.node and covers(b.child("not"), a, depth - 1)


def _split_apart(a: Side, b: Side, depth: int) -> bool:
    """A value of `a` is a value of one of its union's branches (of each of its `allOf` members)."""
    for union in ("anyOf", "oneOf"):
        branches = a.node.get(union)
        if (
            isinstance(branches, list)
            and branches
            and all(disjoint(a.child(union, n), b, depth - 1) for n in range(len(branches)))
        ):
            return True
    members = a.node.get("allOf")
    return isinstance(members, list) and any(disjoint(a.child("allOf", n), b, depth - 1) for n in range(len(members)))


def _members_apart(a: Side, b: Side, depth: int) -> bool:
    """A member `a` requires (both take objects only) that `b` refuses, or whose schemas in the two
    share no value."""
    required = a.node.get("required")
    for name in required if isinstance(required, list) else ():
        if not isinstance(name, str):
            continue
        if refuses_member(b, name):
            return True
        mine, theirs = member_schema(a, name), member_schema(b, name)
        if mine is not None and theirs is not None and disjoint(mine, theirs, depth - 1):
            return True
    return False


def member_schema(schema: Side, name: str) -> Side | None:
    """A schema a member `name` of a valid object surely meets (one of those that apply to it, which
    is enough to show two values apart), or None where none can be named."""
    listed = schema.node.get("properties")
    if isinstance(listed, dict) and name in listed:
        return schema.child("properties", name)
    patterns = schema.node.get("patternProperties")
    found = {p: matches(p, name) for p in (patterns if isinstance(patterns, dict) else ())}
    for pattern, matched in found.items():
        if matched:
            return schema.child("patternProperties", pattern)
    if "additionalProperties" in schema.node and None not in found.values():
        return schema.child("additionalProperties")  # it reads the members no pattern matches
    return None


def refuses_member(schema: Side, name: str) -> bool:
    """Whether the schema refuses every object with a member `name`."""
    rest = member_schema(schema, name)
    if rest is not None:
        return rest.plain().node is False
    if schema.node.get("unevaluatedProperties") is not False:
        return False
    where = schema.loc.holder("unevaluatedProperties").doc
    return draft_of(where.data).name in UNEVALUATED_DRAFTS and not _may_evaluate(schema, name, MAX_DEPTH, frozenset())


def _may_evaluate(schema: Side, name: str, depth: int, seen: frozenset[tuple[str, str]]) -> bool:
    """Whether a subschema applied in place to an object (the schema itself, or one its `$ref`,
    `allOf`, `anyOf`, `oneOf`, `if`, `then`, `else` or `dependentSchemas` apply) may evaluate the member
    `name`, so that `unevaluatedProperties` beside them would not see it. True where that cannot be
    ruled out: a `$dynamicRef`, a reference that leads nowhere, a cycle, a pattern no engine here reads."""
    node = schema.node
    if not isinstance(node, dict):
        return False  # a boolean schema evaluates nothing
    if depth <= 0 or schema.loc.key in seen or {"$dynamicRef", "$recursiveRef"} & node.keys():
        return True
    seen |= {schema.loc.key}
    listed = node.get("properties")
    if isinstance(listed, dict) and name in listed:
        return True
    patterns = node.get("patternProperties")
    if any(matches(p, name) is not False for p in (patterns if isinstance(patterns, dict) else ())):
        return True
    if node.get("additionalProperties", False) is not False or node.get("unevaluatedProperties", False) is not False:
        return True
    inner: list[Side] = []
    if isinstance(node.get("$ref"), str):
        target = schema.resolver.target(schema.loc, node["$ref"])
        if target is None:
            return True
        inner.append(Side(schema.resolver, target))
    for keyword in ("allOf", "anyOf", "oneOf"):
        branches = node.get(keyword)
        inner += [schema.child(keyword, n) for n in range(len(branches))] if isinstance(branches, list) else []
    inner += [schema.child(k) for k in ("if", "then", "else") if k in node]
    dependent = node.get("dependentSchemas")
    inner += [schema.child("dependentSchemas", k) for k in dependent] if isinstance(dependent, dict) else []
    return any(_may_evaluate(part, name, depth - 1, seen) for part in inner)


def matches(pattern: str, name: str) -> bool | None:
    """Whether `pattern` matches `name` (None: it cannot be told)."""
    try:
        return regexes.search(pattern, name)
    except (re.error, regexes.PatternTimeout):
        return None


_META = frozenset("\\^$.|?*+()[]{}")


def anchored_prefix(pattern: str) -> str | None:
    """The text every name `pattern` matches starts with, read from a pattern anchored with `^` (None for
    one not anchored, or with an alternative, which may match elsewhere). `^x-` gives `x-`; `^ab?` gives
    `a`, the quantifier making its last letter optional; `^.+$` gives the empty text."""
    if not pattern.startswith("^") or "|" in pattern:
        return None
    prefix, index = "", 1
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern) and not pattern[index + 1].isalnum():
            char, step = pattern[index + 1], 2  # an escaped sign (`\.`, `\/`) stands for itself
        elif char in _META:
            break
        else:
            step = 1
        following = pattern[index + step : index + step + 1]
        if following in ("?", "*", "{"):
            break  # the letter may be absent (or repeated in ways not read here)
        prefix += char
        index += step
        if following == "+":
            break
    return prefix


_SAMPLE_NAMES = (
    *(chr(code) for code in range(32, 127)),
    *("aa", "aA", "Aa", "AA", "a0", "0a", "00", "a-b", "a_b", "a.b", "a b", "a/b", "a:b", "-a", "_a", ".a"),
    *("name", "Name", "NAME", "x-name", "my-name", "my_name", "my.name", "myName", "$name", "@name", "/name"),
)


def name_matching_only(pattern: str, others: Iterable[str]) -> str | None:
    """A member name `pattern` matches and none of `others` does, from a fixed sample (also read after
    the pattern's anchored prefix); None when none is found, which shows nothing: there may be one."""
    prefix = anchored_prefix(pattern) or ""
    others = list(others)
    for sample in _SAMPLE_NAMES:
        for name in dict.fromkeys((sample, prefix + sample)):
            if matches(pattern, name) is True and all(matches(other, name) is False for other in others):
                return name
    return None


def patterns_apart(first: str, second: str) -> bool:
    """Whether no name can match both patterns, shown by anchored prefixes that part (`^x-` and `^y-`).
    False where that is not shown: the patterns may still be apart."""
    one, other = anchored_prefix(first), anchored_prefix(second)
    if one is None or other is None:
        return False
    shared = min(len(one), len(other))
    return one[:shared] != other[:shared]
