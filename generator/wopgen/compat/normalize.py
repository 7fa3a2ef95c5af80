"""Meaning, not text: resolve `$ref`s through the corpus and reduce schemas to comparable forms.

A `Loc` is a schema node together with where it sits (file and JSON pointer). `deref` follows
`$ref` chains to the node they name, so a renamed `$def`, an inline schema moved into a `$def`, or
a relative reference rewritten as an absolute one all land on the same meaning. `canonical` gives
a form free of annotations, key order, branch order and reference spelling, for matching
`oneOf`/`anyOf`/`allOf` branches and comparing keywords the engine does not classify. Both guard
against `$ref` cycles.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from wopgen.corpus import Corpus
from wopgen.corpus.documents import JsonDoc, escape_token
from wopgen.corpus.graph import Located, RefSite, Status, value_at
from wopgen.corpus.keywords import SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_SINGLES, draft_of, idle_keywords

_CONTAINERS = (dict, list)  # made once: `isinstance` is asked it of every value walked

# Every keyword a JSON Schema draft (04 through 2020-12) gives a say in whether an instance is valid.
# Any other member of a schema object (a vendor's `markdownDescription`, a misspelt `minLenght`, a
# draft-04 `id`) is ignored by validators, so it is an annotation here whatever its name.
VALIDATION_KEYWORDS = frozenset(
    {
        *("$ref", "$dynamicRef", "$recursiveRef"),
        *("type", "enum", "const", "format", "contentEncoding", "contentMediaType", "contentSchema"),
        *("multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"),
        *("maxLength", "minLength", "pattern"),
        *("items", "prefixItems", "additionalItems", "unevaluatedItems", "contains", "maxContains", "minContains"),
        *("maxItems", "minItems", "uniqueItems"),
        *("properties", "patternProperties", "additionalProperties", "unevaluatedProperties", "propertyNames"),
        *("maxProperties", "minProperties", "required", "dependentRequired", "dependentSchemas", "dependencies"),
        *("allOf", "anyOf", "oneOf", "not", "if", "then", "else"),
    }
)
UNORDERED_LISTS = frozenset({"allOf", "anyOf", "oneOf"})
# Subschema keywords whose empty schema (`{}` or `true`) says nothing: absent means the same.
EMPTY_MEANS_ABSENT = frozenset(
    {"items", "additionalItems", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames"}
)
# Lower bounds whose 0 says nothing (`minContains` 0 does: it lets `contains` match no item).
ZERO_MEANS_ABSENT = frozenset({"minItems", "minLength", "minProperties"})
# Keywords whose empty value says nothing.
EMPTY_VALUES_MEAN_ABSENT = frozenset({"properties", "patternProperties", "dependentSchemas", "required"})

MAX_REF_CHAIN = 64
CONDITIONAL = ("if", "then", "else")
BEFORE_CONDITIONALS = frozenset({"draft-03", "draft-04", "draft-06"})  # `if` is no keyword there
_REFERENCES = frozenset({"$ref", "$dynamicRef", "$recursiveRef"})


def is_annotation(key: str) -> bool:
    return key not in VALIDATION_KEYWORDS


@dataclass(frozen=True)
class Loc:
    """A schema node and where it sits.

    A `$ref` whose sibling keywords are laid over its target (`Resolver.deref`) sits where it is
    written, and `borrowed` names the members that sit elsewhere: (member, document, pointer of the
    object that holds it). `child` and `holder` follow them, so each member is read, resolved and
    reported where it is written.
    """

    doc: JsonDoc
    pointer: str
    node: Any
    borrowed: tuple[tuple[str, JsonDoc, str], ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        return (self.doc.path, self.pointer)

    def holder(self, member: str | int) -> Loc:
        """Where the object holding `member` sits (this one unless the member is borrowed)."""
        for name, doc, pointer in self.borrowed:
            if name == member:
                return Loc(doc, pointer, self.node)
        return self

    def child(self, *tokens: str | int) -> Loc:
        start = self.holder(tokens[0]) if tokens and self.borrowed else self
        node = self.node
        for token in tokens:
            node = node[token]
        return Loc(start.doc, start.pointer + "".join("/" + escape_token(t) for t in tokens), node)

    def line(self) -> int:
        return self.doc.line(self.pointer)


def without_noops(loc: Loc) -> Loc:
    """The same schema without keywords that mean nothing.

    `additionalProperties: {}` (and the other keywords in EMPTY_MEANS_ABSENT) with an empty or
    `true` schema and empty `properties`/`required` say what their absence says. (`canonical`
    also reads a one-value `enum` as `const`, a one-type `type` list as the single type and an
    `allOf` of one schema as that schema; the walk compares the first two through `_values` and
    `_types`, which treat them alike, and unwraps the third when only one side has an `allOf`.)
    A keyword that only applies to values of a type `type` rules out (`properties` beside
    `"type": "null"`) means nothing either, nor does `additionalItems` unless `items` beside it is
    an array: drafts 04 to 2019-09 ignore it beside a single `items` schema or none, and 2020-12
    does not define it; nor `unevaluatedProperties` beside `additionalProperties`, which leaves it
    no member to read, nor `unevaluatedItems` beside a single `items` schema (or `additionalItems`
    past an array of them), which leaves it no item to read.
    """
    node = loc.node
    if not isinstance(node, dict):
        return loc
    idle = idle_keywords(node.get("type"))
    if "additionalItems" in node and not isinstance(node.get("items"), list):
        idle |= {"additionalItems"}
    if "additionalProperties" in node:  # it evaluates every member `properties` and its patterns do not
        idle |= {"unevaluatedProperties"}
    if isinstance(node.get("items"), dict | bool) or (
        isinstance(node.get("items"), list) and "additionalItems" in node
    ):
        idle |= {"unevaluatedItems"}  # one `items` schema, or `additionalItems` past a tuple, evaluates every item
    dropped = [
        key
        for key, value in node.items()
        if (key in EMPTY_MEANS_ABSENT and (value is True or value == {}))
        or (key in ZERO_MEANS_ABSENT and value == 0 and not isinstance(value, bool))
        or (key in EMPTY_VALUES_MEAN_ABSENT and value in ({}, []))
        or key in idle
    ]
    if dropped:
        loc = Loc(loc.doc, loc.pointer, {k: v for k, v in node.items() if k not in dropped}, loc.borrowed)
    return plain_conditional(loc)


def plain_conditional(loc: Loc) -> Loc:
    """The same schema with its `if`/`then`/`else` in a plainer form:

    - `then` or `else` without `if`, and `if` with neither, say nothing (validators apply `then` and
      `else` only beside `if`, and `if` only decides which of them applies): dropped;
    - a member both `then` and `else` require is required whichever applies, so it is required beside
      them (`required` asks nothing of a value that is no object, in the arms as beside them), and the
      arms no longer ask it; an arm left with no validation keyword is dropped.

    Arms holding a reference are left as they are (a draft-07 `$ref` ignores the `required` beside it).
    Drafts before 07 have no conditional: their `if` is an unknown keyword, left alone here.
    """
    node = loc.node
    if not isinstance(node, dict) or not any(k in node for k in CONDITIONAL):
        return loc
    if draft_of(loc.holder("if" if "if" in node else "then" if "then" in node else "else").doc.data).name in (
        BEFORE_CONDITIONALS
    ):
        return loc
    if "if" not in node or ("then" not in node and "else" not in node):
        return Loc(loc.doc, loc.pointer, {k: v for k, v in node.items() if k not in CONDITIONAL}, loc.borrowed)
    then, otherwise, beside = node.get("then"), node.get("else"), node.get("required", [])
    if not (isinstance(then, dict) and isinstance(otherwise, dict) and isinstance(beside, list)):
        return loc
    if _REFERENCES & (then.keys() | otherwise.keys()):
        return loc
    first, second = then.get("required"), otherwise.get("required")
    if not isinstance(first, list) or not isinstance(second, list):
        return loc
    both = [name for name in dict.fromkeys(first) if isinstance(name, str) and name in second]
    if not both:
        return loc
    merged = {k: v for k, v in node.items() if k not in ("then", "else")}
    merged["required"] = [*beside, *(name for name in both if name not in beside)]
    for keyword, arm in (("then", then), ("else", otherwise)):
        rest = [name for name in arm["required"] if name not in both]
        left = {k: v for k, v in arm.items() if k != "required"} | ({"required": rest} if rest else {})
        if any(not is_annotation(k) for k in left):
            merged[keyword] = left
    if "then" not in merged and "else" not in merged:
        del merged["if"]
    return Loc(loc.doc, loc.pointer, merged, loc.borrowed)


_REF_SIBLINGS_IGNORED = frozenset(
    f"{scheme}://json-schema.org/draft-{n}/schema{tail}"
    for scheme in ("http", "https")
    for n in ("04", "06", "07")
    for tail in ("", "#")
)
# Keywords whose meaning depends on others in the same object: laid over a target that holds the
# others (or under one), they would read members or items they never saw.
_ADJACENT = (
    ({"additionalProperties"}, {"properties", "patternProperties"}),
    ({"additionalItems"}, {"items"}),
    ({"items"}, {"prefixItems"}),
    ({"then", "else"}, {"if"}),
    ({"minContains", "maxContains"}, {"contains"}),
)


_UNEVALUATED = frozenset({"unevaluatedProperties", "unevaluatedItems"})
# Keywords that hold no subschema and read no other keyword: written twice with the same value, they
# ask one thing.
_ON_THE_VALUE = frozenset(
    {
        *("type", "enum", "const", "format", "contentEncoding", "contentMediaType"),
        *("multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"),
        *("maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems"),
        *("maxProperties", "minProperties", "required", "dependentRequired"),
    }
)
_EXEMPTING = frozenset({"properties", "patternProperties"})  # the names they match leave additionalProperties


def partners_of(keyword: str) -> frozenset[str]:
    """The keywords whose presence decides what `keyword` reads (`items` for `additionalItems`)."""
    return frozenset().union(*(partners for dependent, partners in _ADJACENT if keyword in dependent))


def readers_of(keyword: str) -> frozenset[str]:
    """The keywords whose reading `keyword` decides (`additionalProperties` for `patternProperties`)."""
    return frozenset().union(*(dependent for dependent, partners in _ADJACENT if keyword in partners))


def ignores_ref_siblings(doc: JsonDoc) -> bool:
    """Whether the document's draft (04, 06 or 07) ignores the keywords beside a `$ref`."""
    declared = doc.data.get("$schema") if isinstance(doc.data, dict) else None
    return declared in _REF_SIBLINGS_IGNORED


def layable(inner: dict[str, Any], outer: dict[str, Any]) -> bool:
    """Whether the keywords of `inner` (a `$ref` target, an `allOf` member) laid into the object of
    `outer` (the keywords beside it) mean what they meant apart: no keyword twice, no keyword away
    from those it reads, no `unevaluated*` keyword of `inner` made to see what `outer` evaluates. A
    keyword both write with the same value (`"type": "object"` in each) is written once."""
    own = {k for k in inner if k != "$ref" and not is_annotation(k)}
    theirs = {k for k in outer if k != "$ref" and not is_annotation(k)}
    repeated = {k for k in own & theirs if k in _ON_THE_VALUE and inner[k] == outer[k]}  # asked twice, the same
    own, theirs = own - repeated, theirs - repeated
    if own & theirs or (_UNEVALUATED & own and theirs):
        return False
    return not any(
        (dependent & own and partners & theirs) or (dependent & theirs and partners & own)
        for dependent, partners in _ADJACENT
    )


def laid_into(branch: Loc, holder: Loc, extra: dict[str, Any]) -> Loc | None:
    """`branch` with the keywords `extra` of the object holding its union laid in (each still read
    where it is written), or None when they would not mean the same there."""
    if not isinstance(branch.node, dict) or "$ref" in branch.node or not layable(extra, branch.node):
        return None
    moved = tuple((k, holder.holder(k).doc, holder.holder(k).pointer) for k in extra)
    return Loc(branch.doc, branch.pointer, {**branch.node, **extra}, branch.borrowed + moved)


def placed(written: Loc, arm: Loc) -> Loc:
    """`arm` (a `$ref` target with keywords laid in) as sitting where it is written, each keyword still
    read where it sits: it is no longer the target alone, so it is not kept or compared as that."""
    if arm.key == written.key or not isinstance(arm.node, dict):
        return arm
    borrowed = tuple((k, arm.holder(k).doc, arm.holder(k).pointer) for k in arm.node)
    return Loc(written.doc, written.pointer, arm.node, borrowed)


def _single_all_of(loc: Loc) -> Loc | None:
    """The one member of an `allOf` that has no validation keyword beside it, else None."""
    node = loc.node
    single = node.get("allOf") if isinstance(node, dict) else None
    if isinstance(single, list) and len(single) == 1 and all(k == "allOf" or is_annotation(k) for k in node):
        return loc.child("allOf", 0)
    return None


def root(doc: JsonDoc) -> Loc:
    return Loc(doc, "", doc.data)


class Resolver:
    """Follows `$ref`s inside one corpus through its located graph (`corpus.graph`, which resolved
    every `$ref` once with `referencing`); nothing outside the corpus is ever fetched."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.graph = corpus.graph
        self._targets: dict[tuple[str, str, str], Loc | None] = {}
        self._refs: dict[int, tuple[Any, frozenset[str]]] = {}
        self._canonical: dict[tuple[str, str], tuple[Any, Any]] = {}
        self._fingerprints: dict[tuple[str, str], tuple[Any, str]] = {}

    def refs_inside(self, node: Any) -> frozenset[str]:
        """Every `$ref` written anywhere inside `node`; none means equal nodes have equal meaning."""
        cached = self._refs.get(id(node))
        if cached is not None and cached[0] is node:
            return cached[1]
        if not isinstance(node, _CONTAINERS):
            return frozenset()
        # One walk of the value, kept for the value asked about only: the nodes a comparison asks about
        # are whole files and the targets of their refs, so keeping every nested value's set (a frozenset
        # union per level) cost more than walking a target again.
        found: set[str] = set()
        stack = [node]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                own = item.get("$ref")
                if isinstance(own, str):
                    found.add(own)
                values: Any = item.values()
            else:
                values = item
            for value in values:
                if isinstance(value, _CONTAINERS):
                    stack.append(value)
        refs = frozenset(found)
        self._refs[id(node)] = (node, refs)  # holding the node keeps its id from being reused
        return refs

    def target(self, loc: Loc, ref: str) -> Loc | None:
        """Where `ref` leads, as the corpus graph resolved it: the `$ref` written at `loc`, or else
        the first one spelled `ref` inside the value at `loc` (None: it leads nowhere)."""
        key = (loc.doc.path, loc.pointer, ref)
        if key not in self._targets:
            self._targets[key] = self._target(loc, ref)
        return self._targets[key]

    def _target(self, loc: Loc, ref: str) -> Loc | None:
        # The `$ref` written at `loc` comes first in document order, before any inside it.
        return self.site_target(self.graph.first_site_below(Located(loc.doc.path, loc.pointer), ref))

    def site_target(self, site: RefSite | None) -> Loc | None:
        """Where a site of the graph leads (None: nowhere)."""
        if site is None or site.target is None or site.status not in (Status.RESOLVED, Status.UNCHECKED):
            return None
        doc = self.corpus.schemas[site.target.path]
        found, node = value_at(doc.data, site.target.pointer)
        return Loc(doc, site.target.pointer, node) if found else None

    def spelled(self, loc: Loc, ref: str) -> str:
        """A `$ref` that leads nowhere in the corpus, by the URI it names: absolute when it leaves its
        document ("other.json" and "https://host/other.json" beside "https://host/this.json" agree),
        a fragment when it stays in it (so the same fragment in two files named differently agrees)."""
        site = self.graph.first_site_below(Located(loc.doc.path, loc.pointer), ref)
        if site is None:
            return ref
        document, _, fragment = site.uri.partition("#")
        own = self.corpus.uri_of(loc.doc.path).partition("#")[0]
        return f"#{fragment}" if document == own else site.uri

    def deref(self, loc: Loc) -> Loc:
        """Follow `$ref` chains. Sibling validation keywords of a `$ref` are laid over its target (the
        result sits where the first of them is written), unless the document's draft (04 to 07) ignores
        them; a `$ref` whose siblings would not mean the same laid over it is not followed."""
        seen: set[tuple[str, str]] = set()
        current = loc
        overlay: dict[str, tuple[Any, Loc]] = {}
        owner: Loc | None = None  # the outermost object with siblings: where the laid-over result sits
        for _ in range(MAX_REF_CHAIN):
            node = current.node
            if not isinstance(node, dict) or not isinstance(node.get("$ref"), str) or current.key in seen:
                break
            seen.add(current.key)
            target = self.target(current, node["$ref"])
            if target is None:
                break
            siblings = (
                {}
                if ignores_ref_siblings(current.doc)
                else {k: v for k, v in node.items() if k != "$ref" and not is_annotation(k)}
            )
            gathered = {k: v for k, (v, _) in overlay.items()}
            if siblings and (
                not layable(siblings, gathered)
                or (isinstance(target.node, dict) and not layable(target.node, {**gathered, **siblings}))
            ):
                break  # both apply, and laying one over the other would change what either says
            for key, value in siblings.items():
                overlay.setdefault(key, (value, current))
            if siblings and owner is None:
                owner = current
            current = target
        if owner is None or not isinstance(current.node, dict):
            return current
        merged = {k: v for k, v in current.node.items() if k != "$ref"}
        borrowed = [(k, current.doc, current.pointer) for k in merged if k not in overlay]
        for key, (value, where) in overlay.items():
            merged[key] = value
            if where.key != owner.key:
                borrowed.append((key, where.doc, where.pointer))
        return Loc(owner.doc, owner.pointer, merged, tuple(borrowed))

    def unwrap(self, loc: Loc) -> Loc:
        """`deref`, then through any `allOf` of one schema to that schema, then `flatten`."""
        loc = self.deref(loc)
        for _ in range(MAX_REF_CHAIN):
            inner = _single_all_of(loc)
            if inner is None:
                break
            loc = self.deref(inner)
        return self.flatten(loc)

    def condition(self, loc: Loc) -> tuple[Loc, bool] | None:
        """The test of the conditional `loc` holds (`if` beside `then` or `else`, in a draft that has
        them) and whether it is negated: `if: {not: S}` applies `then` where `S` fails and `else`
        where it passes, so it is the test `S` with its arms swapped. None when `loc` holds none."""
        node = loc.node
        if not isinstance(node, dict) or "if" not in node or not ("then" in node or "else" in node):
            return None
        if draft_of(loc.holder("if").doc.data).name in BEFORE_CONDITIONALS:
            return None
        test, negated = loc.child("if"), False
        for _ in range(MAX_REF_CHAIN):
            plain = without_noops(self.deref(test))
            inner = plain.node
            if not isinstance(inner, dict) or [k for k in inner if not is_annotation(k)] != ["not"]:
                break
            test, negated = plain.child("not"), not negated
        return test, negated

    def flatten(self, loc: Loc) -> Loc:
        """The members of an `allOf` whose keywords mean the same in the object holding it, laid into
        that object (each read where it is written); a member laid in stays as `true`, so the others
        keep their places."""
        node = loc.node
        members = node.get("allOf") if isinstance(node, dict) else None
        if not isinstance(members, list) or not members:
            return loc
        merged = dict(node)
        borrowed = list(loc.borrowed)
        left = list(members)
        for index in range(len(members)):
            member = without_noops(self.deref(loc.child("allOf", index)))
            own = (
                {k: v for k, v in member.node.items() if not is_annotation(k)} if isinstance(member.node, dict) else {}
            )
            if member.node is True or (isinstance(member.node, dict) and not own):
                left[index] = True  # it asks nothing (a lone `if`, annotations): as good as absent
                continue
            if "$ref" in own:
                continue
            if not layable(own, {k: v for k, v in merged.items() if k != "allOf"}):
                joined = self._joined_conditional(Loc(loc.doc, loc.pointer, merged, tuple(borrowed)), member)
                if joined is None:
                    continue
                merged, borrowed, left[index] = dict(joined.node), list(joined.borrowed), True
                continue
            for key, value in own.items():
                merged[key] = value
                holder = member.holder(key)
                borrowed.append((key, holder.doc, holder.pointer))
            left[index] = True
        if left == members:
            return loc
        if all(member is True for member in left):
            del merged["allOf"]
        else:
            merged["allOf"] = left
        return Loc(loc.doc, loc.pointer, merged, tuple(borrowed))

    def _joined_conditional(self, holder: Loc, member: Loc) -> Loc | None:
        """An `allOf` member that is a conditional alone, on the test of the conditional `holder`
        already holds and read the same way up, joined with it: `if S then A else B` and `if S then C
        else D` together accept what `if S then (A and C) else (B and D)` does. An arm only one of them
        has is taken as it is written; two arms are joined where their keywords mean the same side by
        side (two `required` lists as one) and neither holds a reference (the joined arm sits where the
        holder's is written). None where the two cannot be joined so."""
        node = member.node
        if not isinstance(node, dict) or any(k not in CONDITIONAL for k in node if not is_annotation(k)):
            return None
        mine, theirs = self.condition(holder), self.condition(member)
        if mine is None or theirs is None or mine[1] != theirs[1]:
            return None
        if self.fingerprint(mine[0]) != self.fingerprint(theirs[0]):
            return None
        joined = dict(holder.node)
        borrowed = list(holder.borrowed)
        for arm in ("then", "else"):
            if arm not in node:
                continue
            if arm not in joined:
                joined[arm] = node[arm]
                where = member.holder(arm)
                borrowed.append((arm, where.doc, where.pointer))
                continue
            both = _joined_arms(joined[arm], node[arm])
            if both is None or self.refs_inside(joined[arm]) or self.refs_inside(node[arm]):
                return None
            joined[arm] = both
        return Loc(holder.doc, holder.pointer, joined, tuple(borrowed))

    def canonical(self, loc: Loc, stack: tuple[tuple[str, str], ...] = ()) -> Any:
        """The meaning of a schema as plain JSON: refs inlined, annotations, orders and no-op keywords dropped."""
        given = loc
        if not stack:  # a whole meaning, free of cycle markers relative to a caller: kept by place
            cached = self._canonical.get(given.key)
            if cached is not None and cached[0] is given.node:
                return cached[1]
        loc = without_noops(self.unwrap(loc))
        if loc.key in stack:
            return {"$cycle": len(stack) - stack.index(loc.key)}
        node = loc.node
        if node is True:
            return {}
        if not isinstance(node, dict):
            return node
        result = self._canonical_object(loc, node, stack)
        if not stack:
            self._canonical[given.key] = (given.node, result)
        return result

    def _canonical_object(self, loc: Loc, node: dict[str, Any], stack: tuple[tuple[str, str], ...]) -> Any:
        inner = (*stack, loc.key)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if is_annotation(key):
                continue
            if key in SCHEMA_MAPS and isinstance(value, dict):
                out[key] = {name: self.canonical(loc.child(key, name), inner) for name in value}
            elif key in SCHEMA_LISTS and isinstance(value, list):
                items = [self.canonical(loc.child(key, i), inner) for i in range(len(value))]
                if key in UNORDERED_LISTS:
                    items.sort(key=fingerprint)
                out[key] = items
            elif key in SCHEMA_SINGLES:
                out[key] = self.canonical(loc.child(key), inner)
            elif key == "required" and isinstance(value, list):
                out[key] = sorted(set(map(str, value)))
            elif key == "enum" and isinstance(value, list) and len(value) == 1 and "const" not in node:
                out["const"] = value[0]
            elif key == "enum" and isinstance(value, list):
                out[key] = sorted(value, key=fingerprint)
            elif key == "type" and isinstance(value, list) and len(value) == 1:
                out[key] = value[0]
            elif key == "$ref" and isinstance(value, str):
                out[key] = self.spelled(loc, value)  # unresolvable: compared by what it names
            elif key == "pattern":
                out[key] = plain_pattern(value)
            else:
                out[key] = value
        return _without_vacuous(out)

    def fingerprint(self, loc: Loc) -> str:
        cached = self._fingerprints.get(loc.key)
        if cached is not None and cached[0] is loc.node:
            return cached[1]
        text = fingerprint(self.canonical(loc))
        self._fingerprints[loc.key] = (loc.node, text)
        return text


def _joined_arms(first: Any, second: Any) -> dict[str, Any] | None:
    """Two arms of conditionals on one test as one object that asks what both ask, or None where
    their keywords would not mean the same side by side."""
    first, second = ({} if arm is True else arm for arm in (first, second))
    if not isinstance(first, dict) or not isinstance(second, dict):
        return None
    needs = [_list_of(first.get("required")), _list_of(second.get("required"))]
    if None in needs:
        return None
    rest = [{k: v for k, v in arm.items() if k != "required"} for arm in (first, second)]
    if not layable(rest[1], rest[0]):
        return None
    required = list(dict.fromkeys([*(needs[0] or []), *(needs[1] or [])]))
    return {**rest[0], **rest[1]} | ({"required": required} if required else {})


def _list_of(value: Any) -> list[Any] | None:
    """A `required` list, an absent one as empty; None for anything else."""
    if value is None:
        return []
    return value if isinstance(value, list) else None


def _without_vacuous(out: dict[str, Any]) -> dict[str, Any]:
    """A canonical schema without the parts that accept every value: an empty subschema where that
    says nothing (`then`, a member's schema, an `allOf` member), an `if` with nothing to apply, an
    `anyOf` one of whose branches accepts everything."""
    for key in ("then", "else", "contentSchema", *EMPTY_MEANS_ABSENT):
        if out.get(key) == {}:
            del out[key]
    closed = any(out.get(k) not in (None, True) for k in ("additionalProperties", "unevaluatedProperties"))
    for key in SCHEMA_MAPS:
        if key in _EXEMPTING and closed:
            continue  # an empty member schema takes its names out of the closure beside it: it says something
        if isinstance(out.get(key), dict):
            out[key] = {name: schema for name, schema in out[key].items() if schema != {}}
            if not out[key]:
                del out[key]
    if isinstance(out.get("allOf"), list):
        out["allOf"] = [member for member in out["allOf"] if member != {}]
        if not out["allOf"]:
            del out["allOf"]
    if isinstance(out.get("anyOf"), list) and {} in out["anyOf"]:
        del out["anyOf"]
    if "if" in out and "then" not in out and "else" not in out:
        del out["if"]
    return out


def fingerprint(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def features(value: Any, depth: int = 4, prefix: str = "") -> set[str]:
    """The leaves of a canonical schema as `path=value` strings, down to `depth` levels.

    Two schemas that share most features are two versions of one thing; `similarity` scores them.
    """
    out: set[str] = set()
    if isinstance(value, dict):
        for key, child in value.items():
            path = f"{prefix}/{key}"
            out.add(path)
            if depth > 0:
                out |= features(child, depth - 1, path)
            else:
                out.add(f"{path}={fingerprint(child)}")
    elif isinstance(value, list):
        for child in value:
            if isinstance(child, dict) and depth > 0:
                out |= features(child, depth - 1, prefix + "[]")
            else:
                out.add(f"{prefix}[]={fingerprint(child)}")
    else:
        out.add(f"{prefix}={fingerprint(value)}")
    return out


def similarity(left: set[str], right: set[str]) -> float:
    """Jaccard similarity of two feature sets, in [0, 1]."""
    if not left and not right:
        return 1.0
    return len(left & right) / len(left | right)


_CLASS_ITEM = re.compile(r"[A-Za-z0-9_](?:-[A-Za-z0-9])?")


def plain_pattern(pattern: Any) -> Any:
    """A pattern in one spelling of what it matches: `\\/` written as the `/` it matches (an escape
    JSON Schemas written for JavaScript often carry, from regex literals), and the letters, digits and
    ranges of a plain character class in order (`[xX]` as `[Xx]`, `[a-zA-Z]` as `[A-Za-z]`). Anything
    else is kept as written."""
    if not isinstance(pattern, str) or ("\\/" not in pattern and "[" not in pattern):
        return pattern
    out, i = [], 0
    while i < len(pattern):
        pair = pattern[i : i + 2]
        if pair[:1] == "\\":
            out.append("/" if pair == "\\/" else pair)
            i += 2
        elif pattern[i] == "[":
            end, text = _plain_class(pattern, i)
            out.append(text)
            i = end
        else:
            out.append(pattern[i])
            i += 1
    return "".join(out)


def _plain_class(pattern: str, start: int) -> tuple[int, str]:
    """The character class opening at `start`: where it ends and its text, its items in order when it
    holds letters, digits, `_` and ranges of them alone (as written otherwise; a class that does not
    close, or `[]`, which engines read apart, the rest of the pattern as written)."""
    head = "[^" if pattern.startswith("[^", start) else "["
    end = start + len(head)
    if pattern[end : end + 1] == "]":
        return len(pattern), pattern[start:]
    while end < len(pattern) and pattern[end] != "]":
        end += 2 if pattern[end] == "\\" else 1
    if end >= len(pattern):
        return len(pattern), pattern[start:]
    body = pattern[start + len(head) : end]
    items = _CLASS_ITEM.findall(body)
    if "".join(items) != body:
        return end + 1, pattern[start : end + 1]
    return end + 1, head + "".join(sorted(set(items))) + "]"
