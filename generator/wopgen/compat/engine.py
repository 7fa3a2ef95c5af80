"""The schema diff: `diff(base, head) -> list[Change]`, by meaning and by direction.

Every schema file of the base is compared with the file of the same path (or `$id`) in the head:
its root, then each `$def` both sides have by name. References are followed on both sides
(`normalize.Resolver`), so a change is found wherever the meaning changed and reported once, at
the place it sits, with the strictest severity of the directions it was reached from. Event
payloads reached through the `_typeIndex` of `run-event-payloads` remember their event type, so a
breaking change inside one also yields `compat-event-payload-changed` for that event.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from fractions import Fraction
from functools import partial
from typing import Any

from wopgen.compat import conditional, cover
from wopgen.compat import rules as R
from wopgen.compat.change import Change, Side
from wopgen.compat.disjoint import disjoint, matches, name_matching_only, patterns_apart
from wopgen.compat.normalize import (
    Loc,
    Resolver,
    features,
    fingerprint,
    is_annotation,
    laid_into,
    partners_of,
    placed,
    plain_pattern,
    readers_of,
    root,
    similarity,
    without_noops,
)
from wopgen.compat.pairing import (
    SIMILAR_ENOUGH,
    assign,
    branch_types,
    disagree,
    keys_of,
    ref_identity,
    ref_label,
    share,
)
from wopgen.compat.plan import (
    Plan,
    Roles,
    def_tables,
    defs_of,
    file_shape,
    pair_files,
    same_shapes,
    stem,
    top_def,
)
from wopgen.compat.uses import Uses
from wopgen.compat.validity import invalid_schemas
from wopgen.corpus import Corpus
from wopgen.corpus.documents import JsonDoc, escape_token
from wopgen.corpus.events import PAYLOADS_SCHEMA, TYPE_ENUM, TYPE_INDEX
from wopgen.corpus.keywords import IN_PLACE_APPLICATORS, SCHEMA_SINGLES, idle_keywords
from wopgen.corpus.validation import DEFINED_FORMATS
from wopgen.diagnostics import Rule, Severity

DISCOVERY = "capabilities"

LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
HANDLED = frozenset(
    {
        "type",
        "enum",
        "const",
        *LOWER,
        *UPPER,
        "multipleOf",
        "uniqueItems",
        "pattern",
        "format",
        "properties",
        "required",
        "additionalProperties",
        "unevaluatedProperties",
        "items",
        "prefixItems",
        "patternProperties",
        "oneOf",
        "anyOf",
        "allOf",
    }
)
_OPEN, _CLOSED, _SCHEMA = "open", "closed", "schema"
# Subschema keywords whose subschema accepting less makes the schema accept less (and more, more), so
# a change inside one is classified where it sits, as one inside `properties` is. (`not` turns that
# round and `if` decides where `then` and `else` apply: they stay unclassified.)
SAME_SENSE = frozenset(
    {"then", "else", "contains", "propertyNames", "unevaluatedItems", "additionalItems", "contentSchema"}
)

REST_OF_ITEMS = ("additionalItems", "unevaluatedItems")  # absent, the same as `{}`


@dataclass(frozen=True)
class Context:
    direction: str
    event: str = ""
    prop: str = ""
    others: int = 0  # the other branches of the anyOf this schema is a branch of (`_Differ.others`), if any
    rivals: int = 0  # the same, of the oneOf this schema is a branch of


def side(loc: Loc, *tokens: str | int) -> Side:
    where = loc.holder(tokens[0]) if tokens else loc
    pointer = where.pointer + "".join("/" + escape_token(t) for t in tokens)
    return Side(where.doc.path, pointer, where.doc.line(pointer))


def _number(value: Any) -> Fraction | float | None:
    """A bound as an exact number; an infinite float (`1e999` in the JSON) stays a float, NaN is no bound."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else value
    return Fraction(str(value))


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _closure(value: Any) -> str:
    if value is None or value is True or value == {}:
        return _OPEN
    if value is False:
        return _CLOSED
    return _SCHEMA


def _show(value: Any) -> str:
    text = fingerprint(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _keyword_text(value: Any) -> str:
    """A keyword's value for a message; None is the keyword's absence (no validation keyword is null)."""
    return "absent" if value is None else _show(value)


def _closure_text(value: Any) -> str:
    """additionalProperties or unevaluatedProperties for a message: absent, true and {} all leave it open."""
    return "open" if _closure(value) == _OPEN else _show(value)


class _Differ:
    def __init__(
        self, base: Corpus, head: Corpus, named: Callable[[str, str], bool] = lambda path, pointer: True
    ) -> None:
        self.base = Resolver(base)
        self.head = Resolver(head)
        self.base_uses, self.head_uses = Uses(self.base, named), Uses(self.head, named)
        self._memo: dict[tuple[Any, ...], list[Change]] = {}
        self.event_sides: dict[str, tuple[Side, Side]] = {}
        self._defs_by_print: dict[tuple[int, str], dict[str, str]] = {}
        self._same_memo: dict[tuple[tuple[str, str], tuple[str, str]], tuple[Any, Any, bool]] = {}
        self.others: dict[int, tuple[list[Loc], list[Loc]]] = {}  # Context.others -> (base's, head's)
        self._others_numbers: dict[tuple[tuple[Any, ...], tuple[Any, ...]], int] = {}

    # --- building changes ------------------------------------------------------------------

    def make(
        self, rule: Rule, ctx: Context, base: Side | None, head: Side | None, message: str, hint: str = ""
    ) -> Change:
        return Change(
            rule=rule.id,
            severity=R.severity_for(rule, ctx.direction),
            message=message,
            base=base,
            head=head,
            hint=hint,
            direction=ctx.direction,
            events=(ctx.event,) if ctx.event else (),
        )

    def same(self, b: Loc, h: Loc) -> bool:
        """Whether two nodes are the same text and every `$ref` inside them leads to the same text."""
        key = (b.key, h.key)
        cached = self._same_memo.get(key)
        if cached is not None and cached[0] is b.node and cached[1] is h.node:
            return cached[2]
        answer = self._same(b, h, {key})
        self._same_memo[key] = (b.node, h.node, answer)
        return answer

    def same_file(self, bdoc: JsonDoc, hdoc: JsonDoc) -> bool:
        """`same` of two whole files, told from their texts without walking them: the same text, and
        each `$ref` written in it that leaves the file leads to the same text on both sides (one that
        stays lands in the same text, whose own `$ref`s are among those). False when the texts cannot
        tell (then `same` decides), never when `same` would be False."""
        if bdoc.text != hdoc.text:
            return False
        brefs, hrefs = self.base.graph.outward_refs(bdoc.path), self.head.graph.outward_refs(hdoc.path)
        if brefs is None or hrefs is None:
            return False
        b, h = root(bdoc), root(hdoc)
        return self._refs_same(
            sorted(brefs),
            lambda ref: self.base.site_target(brefs[ref]),
            lambda ref: self.head.site_target(hrefs[ref]),
            {(b.key, h.key)},
        )

    def _same(self, b: Loc, h: Loc, seen: set[tuple[tuple[str, str], tuple[str, str]]]) -> bool:
        if b.node != h.node:
            return False
        if b.borrowed or h.borrowed:  # members sit in several objects: each one's `$ref`s resolve from there
            return all(self._same(b.child(k), h.child(k), seen) for k in b.node)
        refs = sorted(self.base.refs_inside(b.node))
        return self._refs_same(refs, lambda ref: self.base.target(b, ref), lambda ref: self.head.target(h, ref), seen)

    def _refs_same(
        self,
        refs: list[str],
        base_target: Callable[[str], Loc | None],
        head_target: Callable[[str], Loc | None],
        seen: set[tuple[tuple[str, str], tuple[str, str]]],
    ) -> bool:
        """Whether each of `refs` leads nowhere on both sides or to the same text on both."""
        for ref in refs:
            bt, ht = base_target(ref), head_target(ref)
            if bt is None or ht is None:
                if (bt is None) != (ht is None):
                    return False
                continue
            pair = (bt.key, ht.key)
            if pair in seen:
                continue  # already being compared further up (a cycle) or already found the same
            seen.add(pair)
            if not self._same(bt, ht, seen):
                return False
        return True

    # --- the walk --------------------------------------------------------------------------

    def compare(self, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any] = frozenset()) -> list[Change]:
        b, h = self.base.deref(b), self.head.deref(h)
        if _has(b, "allOf") != _has(h, "allOf"):  # `allOf: [X]` on one side only reads as X
            b, h = self.base.unwrap(b), self.head.unwrap(h)
        b, h = self.base.flatten(b), self.head.flatten(h)
        b, h = without_noops(b), without_noops(h)
        b, h = _within_type(b, h.node), _within_type(h, b.node)
        if self.same(b, h):
            return []  # the same text, and every $ref in it leads to the same text: the same meaning
        pair = (b.key, h.key)
        if pair in stack:
            return []  # a $ref cycle: this pair is already being compared further up
        memo_key = (pair, ctx)
        if memo_key in self._memo:
            return self._memo[memo_key]
        if (b.node is False) != (h.node is False):  # one side accepts nothing: every type it took is lost
            self._memo[memo_key] = [self._nothing(b, h, ctx)]
            return self._memo[memo_key]
        b, h = _as_object(b), _as_object(h)
        if isinstance(b.node, dict) and isinstance(h.node, dict) and ("type" in b.node) != ("type" in h.node):
            b, h = _without_implied_type(self.base, b), _without_implied_type(self.head, h)
        out: list[Change] = []
        others, rivals = self.others.get(ctx.others), self.others.get(ctx.rivals)
        ctx = replace(ctx, others=0, rivals=0)  # the branches beside this one say nothing of its members
        if isinstance(b.node, dict) and isinstance(h.node, dict):
            union = _lone_union(b.node, h.node)
            viewed = self._conditional(union, b, h) if union else None
            if viewed is not None:
                b, h, arms = viewed
                out.extend(self._keywords(b, h, ctx, stack | {pair}, arms, others, rivals))
            elif union:
                out.extend(self._one_sided(union, b, h, ctx, stack | {pair}))
            else:
                b, h, laid = self._distributed(b, h)
                out.extend(self._keywords(b, h, ctx, stack | {pair}, laid, others, rivals))
        self._memo[memo_key] = out
        return out

    def _keywords(
        self,
        b: Loc,
        h: Loc,
        ctx: Context,
        stack: frozenset[Any],
        laid: Branches | None = None,
        others: tuple[list[Loc], list[Loc]] | None = None,
        rivals: tuple[list[Loc], list[Loc]] | None = None,
    ) -> Iterator[Change]:
        yield from self._type(b, h, ctx, rivals, others)
        yield from self._values(b, h, ctx, others)
        for step in (self._bounds, self._text_rules):
            yield from step(b, h, ctx)
        elsewhere = [cover.Side(self.base, loc) for loc in rivals[0]] if rivals else []
        elsewhere += [cover.Side(self.head, loc) for loc in others[1]] if others else []
        yield from self._properties(b, h, ctx, stack, elsewhere)
        yield from self._closures(b, h, ctx, stack)
        yield from self._arrays(b, h, ctx, stack)
        yield from self._branches(b, h, ctx, stack, laid)
        arms = self._conditionals(b, h, ctx, stack)
        yield from arms if arms is not None else ()
        yield from self._others(b, h, ctx, stack, conditional.KEYWORDS if arms is not None else ())

    def _conditionals(self, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any]) -> list[Change] | None:
        """Both sides hold a conditional on the same test, read the same way up (`if: {not: S}` is the
        test `S` with `then` and `else` swapped): the arm that applies to the values passing the test compared
        with its counterpart, and the same for the values failing it, an absent arm as `{}` (it takes
        every value). Each arm is read with the members the objects beside it must hold on either side
        (`required` of both: a member the other side requires beside its conditional is no member this
        side's arm adds), and the arm for the values passing the test with the members the test
        requires. None when the two tests differ, or one side has none (the arms are left to `_others`)."""
        mine, theirs = self.base.condition(b), self.head.condition(h)
        if mine is None or theirs is None:
            # one side has none: its arms read as `{}` would be compared without the test, which may
            # refuse every value the other side takes (a test on a value the base's enum lacks)
            return None
        if self.base.fingerprint(mine[0]) != self.head.fingerprint(theirs[0]):
            return None
        (test, bneg), (_, hneg) = mine, theirs
        resolver = self.base
        beside = [name for loc in (b, h) for name in _list(loc.node.get("required")) if isinstance(name, str)]
        tested = without_noops(resolver.deref(test)).node
        asked = [n for n in _list(tested.get("required")) if isinstance(n, str)] if isinstance(tested, dict) else []
        found: list[Change] = []
        for arm in ("then", "else"):
            counterpart = arm if bneg == hneg else "else" if arm == "then" else "then"
            arms = [_or_empty(b, arm), _or_empty(h, counterpart)]
            passing = (arm == "then") != bneg
            if not any(isinstance(a.node, dict) and _REFERENCES & a.node.keys() for a in arms):
                arms = [_with_required(a, [*beside, *(asked if passing else [])]) for a in arms]
            found.extend(self.compare(arms[0], arms[1], ctx, stack))
        return found

    def _distributed(self, b: Loc, h: Loc) -> tuple[Loc, Loc, Branches | None]:
        """Both sides have the same oneOf/anyOf, and one has keywords beside it that the other lacks:
        those are laid into each of its branches (S and oneOf [A, B] accept what oneOf [S and A, S and
        B] do), so keywords moved into the branches, or out of them, compare where they now sit.
        Returns both sides without the keywords laid in, and the branches of each."""
        unions = [k for k in ("oneOf", "anyOf") if isinstance(b.node.get(k), list) and isinstance(h.node.get(k), list)]
        if len(unions) != 1:
            return b, h, None
        union = unions[0]
        sides: list[tuple[Loc, list[Loc]]] = []
        for this, other in ((b, h), (h, b)):
            branches = [this.child(union, i) for i in range(len(this.node[union]))]
            resolver = self.base if this is b else self.head
            there = self._held_by_branches(self.head if this is b else self.base, other, union)
            extra = {
                k: v
                for k, v in this.node.items()
                if not is_annotation(k)
                and k != union
                and k not in other.node
                and (k not in conditional.KEYWORDS or k in there)
            }
            if any(partners_of(k) & this.node.keys() - extra.keys() for k in extra):
                extra = {}  # an `else` without the `if` it reads would say something else in a branch
            laid = [_laid_through_ref(resolver, branch, this, extra) for branch in branches] if extra else []
            if extra and all(loc is not None for loc in laid):
                kept = Loc(
                    this.doc, this.pointer, {k: v for k, v in this.node.items() if k not in extra}, this.borrowed
                )
                sides.append((kept, [loc for loc in laid if loc is not None]))
            else:
                sides.append((this, branches))
        (nb, bl), (nh, hl) = sides
        if nb is b and nh is h:
            return b, h, None
        return nb, nh, (union, bl, hl)

    @staticmethod
    def _held_by_branches(resolver: Resolver, loc: Loc, union: str) -> frozenset[str]:
        """The keywords a branch of `loc`'s `union` holds (a `$ref` branch read as its target). A
        conditional beside one side's union is laid into its branches only where the other side's
        branches hold one: laid in where it was dropped (or moved elsewhere), it makes each branch a
        shape no branch of the other side is like, and they pair with none."""
        found: set[str] = set()
        for index in range(len(loc.node[union])):
            node = resolver.deref(loc.child(union, index)).node
            found |= node.keys() if isinstance(node, dict) else set()
        return frozenset(found)

    def _conditional(self, union: str, b: Loc, h: Loc) -> tuple[Loc, Loc, Branches] | None:
        """One side has a `union` (oneOf or anyOf), the other an `if`/`then`/`else` and no union: that
        side read as the union of its arms (`conditional.arms`, which take no value in common, so as a
        oneOf as much as an anyOf), its conditional keywords set aside. None when it holds no
        conditional, or one whose arms cannot be told exactly."""
        united, plain = (h, b) if union in h.node else (b, h)
        found = conditional.arms(self.base if plain is b else self.head, plain)
        if found is None:
            return None
        kept = {k: v for k, v in plain.node.items() if k not in conditional.KEYWORDS}
        rest = Loc(plain.doc, plain.pointer, kept, plain.borrowed)
        branches = [united.child(union, i) for i in range(len(united.node[union]))]
        return (rest, h, (union, found, branches)) if plain is b else (b, rest, (union, branches, found))

    def _one_sided(self, union: str, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any]) -> Iterator[Change]:
        """One side has a `union` (oneOf or anyOf), the other none. A schema is the union of itself
        alone, so the plain side's keywords the other side lacks form the one branch they became (a
        shape split into variants, a pattern moved into one); the keywords both sides have are
        compared as usual. When the plain side has no such keywords, the union is a constraint added
        (tighter) or removed (looser) as a whole."""
        united, plain = (h, b) if union in h.node else (b, h)
        moved = {
            k: v
            for k, v in plain.node.items()
            if not is_annotation(k) and k not in united.node and _OTHER_CLOSER.get(k) not in united.node
        }
        kept = {k: v for k, v in plain.node.items() if k not in moved}
        beside = Loc(united.doc, united.pointer, {k: v for k, v in united.node.items() if k != union}, united.borrowed)
        declared = cover.types(beside.node)
        resolver = self.base if plain is b else self.head
        if (
            "type" not in kept
            and declared is not None
            and cover.within(cover.admitted_types(cover.Side(resolver, plain)), declared)
        ):
            kept["type"] = beside.node["type"]  # what the plain side's keywords admit (an enum of strings): no change
        rest = Loc(plain.doc, plain.pointer, kept, plain.borrowed)
        yield from self._keywords(rest, beside, ctx, stack) if plain is b else self._keywords(beside, rest, ctx, stack)
        branches = [united.child(union, i) for i in range(len(united.node[union]))]
        if moved:
            declared = moved.get("type")
            split: list[Any] = declared if isinstance(declared, list) else [None]
            # a shape of several types is the union of its shape per type (`type: [object, null]` and
            # `properties` against `anyOf` [object with the properties, null]): each pairs with its branch
            alone = [
                Loc(plain.doc, plain.pointer, moved if kind is None else {**moved, "type": kind}, plain.borrowed)
                for kind in dict.fromkeys(split)
            ]
            bl, hl = (alone, branches) if plain is b else (branches, alone)
            yield from self._union(union, b, h, bl, hl, ctx, stack)
            return
        resolvers = (self.head, self.base) if plain is b else (self.base, self.head)
        if cover.union_covers(union, [cover.Side(resolvers[0], x) for x in branches], cover.Side(resolvers[1], plain)):
            return  # it refuses no value the other side accepts (the base's `required` one of its branches asks)
        count = f"{union} of {len(branches)} branch{'' if len(branches) == 1 else 'es'}"
        if plain is b:
            message = f"{count} added: a value none of them accepts is rejected"
            yield self.make(R.UNION_ADDED, ctx, side(b), side(h, union), message)
        else:
            message = f"{count} removed: a value it rejected is accepted"
            yield self.make(R.UNION_REMOVED, ctx, side(b, union), side(h), message)

    def _type(
        self,
        b: Loc,
        h: Loc,
        ctx: Context,
        rivals: tuple[list[Loc], list[Loc]] | None = None,
        others: tuple[list[Loc], list[Loc]] | None = None,
    ) -> Iterator[Change]:
        bt, ht = cover.types(b.node), cover.types(h.node)
        if bt == ht:
            return
        if bt is None:
            values = cover.values(b.node)
            if (
                ht is not None
                and values is not None
                and all(cover.within(frozenset({cover.json_type(v)}), ht) for v in values)
            ):
                return
            rule = R.TYPE_NARROWED
        elif ht is None:
            values = cover.values(h.node)
            if values is not None and all(cover.within(frozenset({cover.json_type(v)}), bt) for v in values):
                return
            rule = R.TYPE_WIDENED
        elif cover.within(ht, bt):
            rule = R.TYPE_NARROWED
        elif cover.within(bt, ht):
            rule = R.TYPE_WIDENED
        else:
            rule = R.TYPE_CHANGED
        admitted = cover.admitted_types(cover.Side(self.base, b)), cover.admitted_types(cover.Side(self.head, h))
        if cover.within(admitted[0], ht or cover.ALL_TYPES) and cover.within(admitted[1], bt or cover.ALL_TYPES):
            return  # the unions beside them admit no type the other side's `type` refuses: no value moves
        if cover.within(cover.meet(admitted[0], self.base_uses.held_to(b)), ht or cover.ALL_TYPES) and cover.within(
            cover.meet(admitted[1], self.head_uses.held_to(h)), bt or cover.ALL_TYPES
        ):
            return  # every schema applying it holds the value to types both `type`s take: no value moves
        if self._moved_elsewhere(rule, bt, ht, rivals, others):
            return
        before = "any" if bt is None else "|".join(sorted(bt))
        after = "any" if ht is None else "|".join(sorted(ht))
        yield self.make(rule, ctx, side(b, "type"), side(h, "type"), f"type {before} -> {after}")

    def _moved_elsewhere(
        self,
        rule: Rule,
        bt: frozenset[str] | None,
        ht: frozenset[str] | None,
        rivals: tuple[list[Loc], list[Loc]] | None,
        others: tuple[list[Loc], list[Loc]] | None,
    ) -> bool:
        """Whether the types a union branch lost (narrowed) or gained (widened) move no value, another
        branch taking every value of each: in a oneOf, a branch of the side with the wider type (such a
        value matched two branches there, so the oneOf refused it before and after: `type: object` moved
        from beside a oneOf of `required` branches into each); in an anyOf, a branch of the side with the
        narrower type (it still takes, or already took, the value: `type: [string, null]` beside an
        anyOf against a branch of `type: null`)."""
        if rule not in (R.TYPE_NARROWED, R.TYPE_WIDENED):
            return False
        narrowed = rule is R.TYPE_NARROWED
        wider, narrower = (bt, ht) if narrowed else (ht, bt)
        if narrower is None:
            return False
        moved = [kind for kind in sorted(wider or cover.ALL_TYPES) if not cover.within(frozenset({kind}), narrower)]
        wide_side, narrow_side = (0, 1) if narrowed else (1, 0)
        candidates = [
            cover.Side(self.base if side == 0 else self.head, loc)
            for found, side in ((rivals, wide_side), (others, narrow_side))
            if found
            for loc in found[side]
        ]
        return bool(candidates) and all(any(cover.takes_every(c, kind) for c in candidates) for kind in moved)

    def _nothing(self, b: Loc, h: Loc, ctx: Context) -> Change:
        """A schema that became `false` (it accepts no value now), or one that was `false`."""
        other = b.node if h.node is False else h.node
        kinds = cover.types(other) if isinstance(other, dict) else None
        some = "any" if kinds is None else "|".join(sorted(kinds))
        if h.node is False:
            return self.make(R.TYPE_NARROWED, ctx, side(b), side(h), f"type {some} -> none (false)")
        return self.make(R.TYPE_WIDENED, ctx, side(b), side(h), f"type none (false) -> {some}")

    def _values(
        self, b: Loc, h: Loc, ctx: Context, others: tuple[list[Loc], list[Loc]] | None = None
    ) -> Iterator[Change]:
        """const and enum. In an anyOf branch, a value it lost that another branch of the head's union
        accepts, or one it gained that another branch of the base's accepted, changes nothing."""
        bv, hv = cover.values(b.node), cover.values(h.node)
        if bv is None and hv is None:
            return
        if bv == hv:
            return
        keyword = "const" if "const" in h.node or "const" in b.node else "enum"
        bs, hs = side(b, keyword), side(h, keyword)
        if bv is None:
            yield self.make(R.BOUND_TIGHTENED, ctx, bs, hs, f"{keyword} {_show(hv)} now restricts a free value")
            return
        if hv is None:
            yield self.make(R.BOUND_LOOSENED, ctx, bs, hs, f"{keyword} {_show(bv)} removed; any value is accepted")
            return
        before = {fingerprint(v): v for v in bv}
        after = {fingerprint(v): v for v in hv}
        if before.keys() == after.keys():
            return
        if "const" in b.node or "const" in h.node:
            yield self.make(R.CONST_CHANGED, ctx, bs, hs, f"{keyword} {_show(bv)} -> {_show(hv)}")
            return
        events = TYPE_ENUM in (b.pointer.rsplit("/", 1)[-1], h.pointer.rsplit("/", 1)[-1])
        base_others, head_others = others or ([], [])
        for key in sorted(before.keys() - after.keys()):
            if not events and any(cover.accepts(cover.Side(self.head, o), before[key]) for o in head_others):
                message = f"enum value {key} removed; another branch of the union still accepts it"
                yield self.make(R.ENUM_VALUE_COVERED, ctx, bs, hs, message)
                continue
            rule = R.EVENT_TYPE_REMOVED if events else R.ENUM_VALUE_REMOVED
            what = "event type" if events else "enum value"
            yield self.make(rule, ctx, bs, hs, f"{what} {key} removed")
        for key in sorted(after.keys() - before.keys()):
            if not events and any(cover.accepts(cover.Side(self.base, o), after[key]) for o in base_others):
                message = f"enum value {key} added; another branch of the union already accepted it"
                yield self.make(R.ENUM_VALUE_COVERED, ctx, bs, hs, message)
                continue
            rule = R.EVENT_TYPE_ADDED if events else R.ENUM_VALUE_ADDED
            what = "event type" if events else "enum value"
            yield self.make(rule, ctx, bs, hs, f"{what} {key} added")

    def _bounds(self, b: Loc, h: Loc, ctx: Context) -> Iterator[Change]:
        ceiling = ctx.prop == "version" and "integer" in (cover.types(h.node) or ())
        for keyword in (*LOWER, *UPPER, "multipleOf", "uniqueItems"):
            bv, hv = b.node.get(keyword), h.node.get(keyword)
            if bv == hv and type(bv) is type(hv):
                continue
            if keyword == "uniqueItems":
                bv, hv = bv is True, hv is True
                if bv == hv:
                    continue
                tighter = hv
            else:
                bn, hn = _number(bv), _number(hv)
                if bn == hn:
                    continue
                if keyword == "multipleOf":
                    if isinstance(bn, Fraction) and isinstance(hn, Fraction) and bn != 0:
                        tighter = (hn / bn).denominator == 1
                    else:
                        tighter = bn is None
                elif hn is None or bn is None:
                    tighter = bn is None
                else:
                    tighter = hn > bn if keyword in LOWER else hn < bn
            message = f"{keyword} {_keyword_text(bv)} -> {_keyword_text(hv)}"
            if ceiling and keyword == "maximum":
                message = f"version ceiling {_keyword_text(bv)} -> {_keyword_text(hv)}"
                rule = R.VERSION_CEILING_LOWERED if tighter else R.VERSION_CEILING_RAISED
            else:
                rule = R.BOUND_TIGHTENED if tighter else R.BOUND_LOOSENED
            yield self.make(rule, ctx, side(b, keyword), side(h, keyword), message)

    def _text_rules(self, b: Loc, h: Loc, ctx: Context) -> Iterator[Change]:
        for keyword, rule in (("pattern", R.PATTERN_CHANGED), ("format", R.FORMAT_CHANGED)):
            bv, hv = b.node.get(keyword), h.node.get(keyword)
            if keyword == "format" and _defined_format(bv) == _defined_format(hv):
                continue  # a name no draft defines is ignored by every validator: as good as absent
            if keyword == "pattern" and self._pattern_moves_nothing(b, h):
                continue
            if bv != hv and not (keyword == "pattern" and plain_pattern(bv) == plain_pattern(hv)):
                message = f"{keyword} {_keyword_text(bv)} -> {_keyword_text(hv)}"
                yield self.make(rule, ctx, side(b, keyword), side(h, keyword), message)

    def _pattern_moves_nothing(self, b: Loc, h: Loc) -> bool:
        """Whether a pattern change refuses no value the base accepted (none was there to refuse, or
        the head takes each constant of the base's enum) and lets in none it refused (no pattern was
        there, or the base takes each constant of the head's enum): an enum turned into a pattern
        that matches all its values is the enum's removal, reported as that."""
        narrows = "pattern" in h.node and not cover.constants_accepted(cover.Side(self.head, h), b.node)
        widens = "pattern" in b.node and not cover.constants_accepted(cover.Side(self.base, b), h.node)
        return not narrows and not widens

    def _properties(
        self, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any], elsewhere: list[cover.Side]
    ) -> Iterator[Change]:
        bp = b.node.get("properties") if isinstance(b.node.get("properties"), dict) else {}
        hp = h.node.get("properties") if isinstance(h.node.get("properties"), dict) else {}
        assert isinstance(bp, dict) and isinstance(hp, dict)
        type_index = stem(b.doc.path) == PAYLOADS_SCHEMA and b.pointer == f"/$defs/{TYPE_INDEX}"
        discovery = stem(h.doc.path) == DISCOVERY
        still_open = all(
            self._closure(self.head, h, k) == _OPEN for k in ("additionalProperties", "unevaluatedProperties")
        )
        for name in sorted(bp.keys() - hp.keys()):
            rule, what = R.PROPERTY_REMOVED, "property"
            free = still_open and _no_pattern_matches(h, name)  # the head holds the name to nothing
            if ctx.direction == R.CLIENT and free and not type_index and not discovery:
                rule = R.PROPERTY_UNLISTED  # any value is accepted under the name now: looser for senders
            if type_index:
                rule, what = R.EVENT_TYPE_REMOVED, "event type"
            elif discovery:
                rule, what = R.CAPABILITY_REMOVED, "capability field"
            elif rule is R.PROPERTY_REMOVED and self._taken_elsewhere(b, name, elsewhere):
                continue  # no value holding it changes verdict: the union refused it, or still accepts it
            yield self.make(rule, ctx, side(b, "properties", name), side(h, "properties"), f"{what} {name!r} removed")
        for name in sorted(hp.keys() - bp.keys()):
            rule, what = R.PROPERTY_ADDED, "property"
            if type_index:
                rule, what = R.EVENT_TYPE_ADDED, "event type"
            elif discovery:
                rule, what = R.CAPABILITY_ADDED, "capability field"
            elif (held := self._held_before(b, name, ctx, stack, h.child("properties", name))) is not None:
                yield from held
                continue
            yield self.make(rule, ctx, side(b, "properties"), side(h, "properties", name), f"{what} {name!r} added")
        for name in sorted(bp.keys() & hp.keys()):
            child = replace(ctx, prop=name)
            if type_index:
                child = replace(child, event=name)
                self.event_sides[name] = (side(b, "properties", name), side(h, "properties", name))
            yield from self.compare(b.child("properties", name), h.child("properties", name), child, stack)
        yield from self._required(b, h, ctx, bp, hp)

    def _held_before(self, b: Loc, name: str, ctx: Context, stack: frozenset[Any], member: Loc) -> list[Change] | None:
        """A property the head lists that the base held to its `additionalProperties` schema (no pattern of
        the base matching the name): the member's schema compared against that one, so a string-valued
        member the base took and the head now refuses is found. None where the base did not hold it so
        (open, closed, or a pattern that may match), and where the two agree."""
        if self._closure(self.base, b, "additionalProperties") != _SCHEMA or not _no_pattern_matches(b, name):
            return None
        found = self.compare(b.child("additionalProperties"), member, ctx, stack)
        return [replace(c, message=f"property {name!r} added: {c.message}") for c in found] or None

    def _taken_elsewhere(self, b: Loc, name: str, elsewhere: list[cover.Side]) -> bool:
        """Whether one of the branches `elsewhere` accepts every value of `b` that holds member `name`
        (an object, then): another branch of the base's oneOf `b` is a branch of (such a value matched
        two branches, so the oneOf refused it), or another branch of the head's anyOf the branch paired
        with `b` is one of (the anyOf still accepts it)."""
        if not elsewhere:
            return False
        required = [*_list(b.node.get("required")), name]
        holding = cover.Side(self.base, b).only({**b.node, "type": "object", "required": required})
        return any(cover.covers(other, holding) for other in elsewhere)

    def _required(self, b: Loc, h: Loc, ctx: Context, bp: dict[str, Any], hp: dict[str, Any]) -> Iterator[Change]:
        br = {r for r in _list(b.node.get("required")) if isinstance(r, str)}
        hr = {r for r in _list(h.node.get("required")) if isinstance(r, str)}
        for name in sorted(hr - br):
            what = "existing property" if name in bp else "new property"
            message = f"{what} {name!r} is now required"
            yield self.make(R.REQUIRED_ADDED, ctx, side(b, "required"), side(h, "required"), message)
        for name in sorted(br - hr):
            if name in bp and name not in hp:
                continue  # reported as removed
            message = f"property {name!r} is no longer required"
            yield self.make(R.REQUIRED_REMOVED, ctx, side(b, "required"), side(h, "required"), message)

    def _closures(self, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any]) -> Iterator[Change]:
        swapped = self._closer_swapped(b, h, ctx)
        if swapped is not None:
            yield from swapped
            return
        for keyword in ("additionalProperties", "unevaluatedProperties"):
            bv, hv = b.node.get(keyword), h.node.get(keyword)
            before, after = self._closure(self.base, b, keyword), self._closure(self.head, h, keyword)
            if before == after == _SCHEMA:
                yield from self.compare(b.child(keyword), h.child(keyword), ctx, stack)
                continue
            if before == after:
                continue
            opened = before == _CLOSED or after == _OPEN
            rule = R.OPENED if opened else R.CLOSED
            message = f"{keyword} {_closure_text(bv)} -> {_closure_text(hv)}"
            yield self.make(rule, ctx, side(b, keyword), side(h, keyword), message)

    def _closer_swapped(self, b: Loc, h: Loc, ctx: Context) -> list[Change] | None:
        """`additionalProperties: false` on one side and `unevaluatedProperties: false` on the other
        (the other keyword open on each side), as a draft-04 schema moved to 2020-12 closes: both refuse
        a member that `properties` and `patternProperties` beside them do not name (those are compared
        on their own), and unevaluatedProperties also takes the members an applicator beside it
        evaluates: no change when none may. None when the closers were not swapped."""
        closers = ("additionalProperties", "unevaluatedProperties")
        before = tuple(self._closure(self.base, b, k) for k in closers)
        after = tuple(self._closure(self.head, h, k) for k in closers)
        if {before, after} != {(_CLOSED, _OPEN), (_OPEN, _CLOSED)}:
            return None
        unevaluated = h if after == (_OPEN, _CLOSED) else b
        if not _evaluates_members(unevaluated.node):
            return []
        rule = R.OPENED if unevaluated is h else R.CLOSED
        first, second = closers if unevaluated is h else closers[::-1]
        message = f"{first} false -> {second} false: members an applicator beside it evaluates are "
        message += "accepted" if unevaluated is h else "refused"
        return [self.make(rule, ctx, side(b, first), side(h, second), message)]

    @staticmethod
    def _closure(resolver: Resolver, loc: Loc, keyword: str) -> str:
        """How `keyword` leaves the members it reads: open, closed, or held to a schema that refuses
        some value (one that accepts every JSON value, such as a complete recursive JSON value, is open)."""
        closure = _closure(loc.node.get(keyword))
        if closure == _SCHEMA and cover.accepts_anything(cover.Side(resolver, loc.child(keyword))):
            return _OPEN
        return closure

    def _arrays(self, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any]) -> Iterator[Change]:
        bi, hi = b.node.get("items"), h.node.get("items")
        if isinstance(bi, dict | bool) and isinstance(hi, dict | bool):
            yield from self.compare(b.child("items"), h.child("items"), ctx, stack)
        elif (isinstance(bi, dict | bool) and hi is None) or (bi is None and isinstance(hi, dict | bool)):
            # no items (or an empty one, dropped as a no-op) takes every item: compared as `{}` there,
            # so an items schema gained or lost is classified as one tightened or loosened is
            yield from self.compare(_or_empty(b, "items"), _or_empty(h, "items"), ctx, stack)
        elif self._keyword_differs(b, h, "items"):
            yield self.make(R.KEYWORD_CHANGED, ctx, side(b, "items"), side(h, "items"), "items changed")
        for keyword in ("prefixItems", "patternProperties"):
            bv, hv = b.node.get(keyword), h.node.get(keyword)
            if isinstance(bv, dict | None) and isinstance(hv, dict | None) and (bv or hv):
                # (a map on one side only is compared as an empty one on the other)
                for name in sorted((bv or {}).keys() & (hv or {}).keys()):
                    yield from self.compare(b.child(keyword, name), h.child(keyword, name), ctx, stack)
                yield from self._names_apart(b, h, ctx, keyword, stack)
            elif isinstance(bv, list) and isinstance(hv, list) and len(bv) == len(hv):
                for index in range(len(bv)):
                    yield from self.compare(b.child(keyword, index), h.child(keyword, index), ctx, stack)
            elif self._keyword_differs(b, h, keyword):
                yield self.make(R.KEYWORD_CHANGED, ctx, side(b, keyword), side(h, keyword), f"{keyword} changed")

    def _names_apart(self, b: Loc, h: Loc, ctx: Context, keyword: str, stack: frozenset[Any]) -> Iterator[Change]:
        """The patterns of patternProperties one side has and the other not, those both have being
        compared one by one. One that says nothing (an empty schema where no closure reads it) is no
        change; one `_pattern_apart` can read is classified as it finds; the rest are one unclassified
        change."""
        bv, hv = b.node.get(keyword) or {}, h.node.get(keyword) or {}
        gone, new = sorted(bv.keys() - hv.keys()), sorted(hv.keys() - bv.keys())
        moved = []
        for name, present, absent in [*((n, b, h) for n in gone), *((n, h, b) for n in new)]:
            # the pattern alone on its side, beside the rest of the other side
            alone = {k: v for k, v in present.node.items() if k != keyword}
            alone[keyword] = {name: present.node[keyword][name]}
            rest = {k: v for k, v in absent.node.items() if k != keyword}
            mine = Loc(present.doc, present.pointer, alone, present.borrowed)
            theirs = Loc(absent.doc, absent.pointer, rest, absent.borrowed)
            before, after = (mine, theirs) if present is b else (theirs, mine)
            if not self._keyword_differs(before, after, keyword):
                continue
            found = self._pattern_apart(b, h, present is b, name, ctx, stack)
            if found is None:
                moved.append(f"{_show(name)} {'removed' if present is b else 'added'}")
            else:
                yield from found
        if moved:
            message = f"{keyword} changed: {', '.join(moved)}"
            yield self.make(R.KEYWORD_CHANGED, ctx, side(b, keyword), side(h, keyword), message)

    def _pattern_apart(
        self, b: Loc, h: Loc, removed: bool, name: str, ctx: Context, stack: frozenset[Any]
    ) -> list[Change] | None:
        """A pattern of patternProperties on one side only (the base's when `removed`), classified by what
        the other side holds the members it matches to instead; None where that cannot be told. Neither
        side may list a member the pattern matches (`properties` holds that one too, on either side).

        - The other side closes no member (additionalProperties and unevaluatedProperties open), and a
          pattern of its own that may match the same names (a rival not shown apart by its anchored
          prefix, as `^x-` and `^y-` are) leaves some member to it: a sample name the pattern matches and
          no rival does (`A` for `^[a-zA-Z]+$` against `^[a-z]+$`). Such a member is held to what the
          patterns both sides have held it to, so the pattern's schema alone comes or goes, compared as
          itself against `{}`. Where no such name is found (`^[a-z]+$` against `^.+$`), a rival may hold
          every member the pattern matches, to its own schema, which is not compared here.
        - The pattern is the only one of its side, the other side has none and closes with
          additionalProperties alone: the other side holds those members to its additionalProperties
          instead. A pattern that takes any member exempts
          them from that closure (gained, the closure opened for them; lost, closed); a `false` one refuses
          them, compared as `false` against the closure's schema.
        Anything else is left to the reader: patterns that may match the same names, or a pattern's schema
        set against the other side's additionalProperties, which may say the same in words the walk
        does not read as the same (the OpenAPI 3.0 to 3.1 rewrite, met there, reads as many false
        breaks)."""
        present, absent = (b, h) if removed else (h, b)
        closures = {
            k: self._closure(self.head if removed else self.base, absent, k)
            for k in ("additionalProperties", "unevaluatedProperties")
        }
        held = present.child("patternProperties", name)
        if _lists_a_match(name, b, h):
            return None  # a listed member it matches is held by `properties` too, on either side
        rivals = [
            rival
            for rival in (absent.node.get("patternProperties") or {}).keys() - present.node["patternProperties"].keys()
            if not patterns_apart(name, rival)
        ]
        if rivals and name_matching_only(name, rivals) is None:
            return None  # a pattern of the other side alone may hold all the same members, to another schema
        if all(c == _OPEN for c in closures.values()):
            instead = _empty_at(absent, "patternProperties", name)
        elif (
            closures["unevaluatedProperties"] != _OPEN
            or absent.node.get("patternProperties")
            or len(present.node["patternProperties"]) != 1
        ):
            return None
        elif cover.accepts_anything(cover.Side(self.base if removed else self.head, held)):
            closure = _closure_text(absent.node.get("additionalProperties"))
            message = f"members matching {_show(name)} are {'no longer' if removed else 'now'} exempt from "
            message += f"additionalProperties {closure}"
            sides = (side(b, "patternProperties", name), side(h, "additionalProperties"))
            if not removed:
                sides = (side(b, "additionalProperties"), side(h, "patternProperties", name))
            return [self.make(R.CLOSED if removed else R.OPENED, ctx, *sides, message)]
        elif held.node is False:
            instead = absent.child("additionalProperties")
        else:
            return None
        found = self.compare(held, instead, ctx, stack) if removed else self.compare(instead, held, ctx, stack)
        return [replace(c, message=f"members matching {_show(name)}: {c.message}") for c in found]

    def _branches(
        self, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any], laid: Branches | None = None
    ) -> Iterator[Change]:
        swapped = _swapped_union(b.node, h.node) if laid is None else None
        if swapped is not None:
            yield from self._swapped(swapped, b, h, ctx, stack)
        for keyword in ("oneOf", "anyOf", "allOf"):
            if swapped is not None and keyword != "allOf":
                continue
            bv, hv = b.node.get(keyword), h.node.get(keyword)
            if not isinstance(bv, list) and not isinstance(hv, list):
                continue
            bl = [b.child(keyword, i) for i in range(len(bv))] if isinstance(bv, list) else []
            hl = [h.child(keyword, i) for i in range(len(hv))] if isinstance(hv, list) else []
            if laid is not None and laid[0] == keyword:
                bl, hl = laid[1], laid[2]
            elif keyword != "allOf":
                bl, hl = self._unnested(keyword, bl, hl)
            if keyword == "allOf":  # a member laid into the object (`flatten`) stays as `true`: no constraint
                bl, hl = [loc for loc in bl if loc.node is not True], [loc for loc in hl if loc.node is not True]
            yield from self._union(keyword, b, h, bl, hl, ctx, stack)

    def _unnested(self, keyword: str, bl: list[Loc], hl: list[Loc]) -> tuple[list[Loc], list[Loc]]:
        """The branches of one side with a branch that is itself a union of the same kind replaced by
        its branches (the keywords beside that inner union laid into each), where the other side has
        no such branch: a nested union flattened into its parent is then compared branch by branch."""
        flat_b, flat_h = self._flattened(self.base, keyword, bl), self._flattened(self.head, keyword, hl)
        if (flat_b is None) == (flat_h is None):
            return bl, hl  # neither side nests one, or both do: their branches are compared as written
        return (flat_b or bl, hl) if flat_h is None else (bl, flat_h)

    def _flattened(self, resolver: Resolver, keyword: str, branches: list[Loc]) -> list[Loc] | None:
        """`branches` with each branch `K and keyword [B1 .. Bn]` as `K and B1`, .. `K and Bn`, where that
        means the same; None where no branch is so. An anyOf in an anyOf always does. A oneOf in a oneOf
        does where no value can pass two of the new branches (then passing one is passing exactly one) or
        where none shares a value with a branch beside it (then a value another branch passes fails the
        nested union as it fails each new branch)."""
        out: list[Loc] = []
        nested = False
        for index, branch in enumerate(branches):
            target = without_noops(resolver.deref(branch))
            node = target.node
            inner = node.get(keyword) if isinstance(node, dict) else None
            if not isinstance(inner, list) or not inner or ({"oneOf", "anyOf", "allOf"} - {keyword}) & node.keys():
                out.append(branch)
                continue
            extra = {k: v for k, v in node.items() if not is_annotation(k) and k != keyword}
            parts = [target.child(keyword, i) for i in range(len(inner))]
            laid = [_laid_through_ref(resolver, part, target, extra) for part in parts] if extra else parts
            if any(loc is None for loc in laid):
                out.append(branch)
                continue
            found = [loc for loc in laid if loc is not None]
            if keyword == "oneOf":
                sides = [cover.Side(resolver, loc) for loc in found]
                beside = [cover.Side(resolver, x) for i, x in enumerate(branches) if i != index]
                apart = all(disjoint(x, y) for i, x in enumerate(sides) for y in sides[i + 1 :])
                if not apart and not all(disjoint(x, y) for x in sides for y in beside):
                    out.append(branch)
                    continue
            out.extend(found)
            nested = True
        return out if nested else None

    def _swapped(self, kinds: tuple[str, str], b: Loc, h: Loc, ctx: Context, stack: frozenset[Any]) -> Iterator[Change]:
        """A oneOf become an anyOf (or the other way round): the branches compared as those of one union
        (read as the head's), then what the swap itself changes, a value more than one branch takes:
        refused by a oneOf, taken by an anyOf. Branches that share no value make the two the same."""
        bk, hk = kinds
        bl = [b.child(bk, i) for i in range(len(b.node[bk]))]
        hl = [h.child(hk, i) for i in range(len(h.node[hk]))]
        yield from self._union(hk, b, h, bl, hl, ctx, stack)
        exclusive, resolver = (hl, self.head) if hk == "oneOf" else (bl, self.base)
        if all(
            disjoint(cover.Side(resolver, x), cover.Side(resolver, y))
            for i, x in enumerate(exclusive)
            for y in exclusive[i + 1 :]
        ):
            return
        if hk == "oneOf":
            message = "anyOf -> oneOf: a value more than one branch takes is now refused"
            yield self.make(R.UNION_ADDED, ctx, side(b, bk), side(h, hk), message)
        else:
            message = "oneOf -> anyOf: a value more than one branch takes is now accepted"
            yield self.make(R.UNION_REMOVED, ctx, side(b, bk), side(h, hk), message)

    def _union(
        self, keyword: str, b: Loc, h: Loc, bl: list[Loc], hl: list[Loc], ctx: Context, stack: frozenset[Any]
    ) -> Iterator[Change]:
        """The branches `bl` of the base's `keyword` union against the head's `hl`: paired ones compared,
        the rest removed or added. A branch removed whose values a kept branch of the base, or the
        head's union, still accepts, and an anyOf branch added whose values a kept branch of the head,
        or the base's union, already accepted, move no value: `compat-branch-covered`."""
        pairs, left_b, left_h = self.pair_branches(bl, hl)
        for bi, hi in pairs:
            inner = ctx
            if keyword == "anyOf" and (len(bl) > 1 or len(hl) > 1):
                inner = replace(ctx, others=self._others_of(bl, bi, hl, hi))
            elif keyword == "oneOf" and len(bl) > 1:
                inner = replace(ctx, rivals=self._others_of(bl, bi, hl, hi))
            found = self.compare(bl[bi], hl[hi], inner, stack)
            if keyword == "anyOf" and any(R.narrows(c.rule) for c in found):
                found = self._masked(bl[bi], hl, found)
            yield from found
        if not left_b and not left_h:
            return
        if keyword == "allOf":
            yield self.make(R.KEYWORD_CHANGED, ctx, side(b, keyword), side(h, keyword), "allOf branches changed")
            return
        head_union = [cover.Side(self.head, loc) for loc in hl]
        base_union = [cover.Side(self.base, loc) for loc in bl]
        for index in left_b:
            name = self.branch_name(self.base, bl[index], index)
            # a oneOf branch another kept branch takes all of matched two branches with each value: refused
            keeper = self._keeper(self.base, bl, [bi for bi, _ in pairs], index)
            if keeper is not None and keyword == "oneOf":
                message = f"oneOf branch {name} removed; branch {keeper} took all it took, so the oneOf refused it"
            elif keeper is not None:
                message = f"{keyword} branch {name} removed; branch {keeper} accepted all it accepted"
            elif cover.union_covers(keyword, head_union, base_union[index]):
                message = f"{keyword} branch {name} removed; the head's branches accept all it accepted"
            else:
                message = f"{keyword} branch {name} removed"
                yield self.make(R.BRANCH_REMOVED, ctx, side(bl[index]), side(h, keyword), message)
                continue
            yield self.make(R.BRANCH_COVERED, ctx, side(bl[index]), side(h, keyword), message)
        for index in left_h:
            name = self.branch_name(self.head, hl[index], index)
            # (in a oneOf a value two branches accept is rejected, so an added branch is never redundant)
            keeper = self._keeper(self.head, hl, [hi for _, hi in pairs], index) if keyword == "anyOf" else None
            if keeper is not None:
                message = f"{keyword} branch {name} added; branch {keeper} already accepts all it accepts"
            elif keyword == "anyOf" and cover.union_covers(keyword, base_union, head_union[index]):
                # (in a oneOf, a branch that takes values another one takes rejects them: never a no-op)
                message = f"{keyword} branch {name} added; the base's branches accepted all it accepts"
            elif keyword == "oneOf" and (shared := self._shares_with_kept(hl, [hi for _, hi in pairs], index)):
                message = (
                    f"oneOf branch {name} added; it takes values branch {shared} takes, which the oneOf now refuses"
                )
                yield self.make(R.BRANCH_OVERLAPS, ctx, side(b, keyword), side(hl[index]), message)
                continue
            else:
                message = f"{keyword} branch {name} added"
                yield self.make(R.BRANCH_ADDED, ctx, side(b, keyword), side(hl[index]), message)
                continue
            yield self.make(R.BRANCH_COVERED, ctx, side(b, keyword), side(hl[index]), message)

    def _masked(self, before: Loc, hl: list[Loc], found: list[Change]) -> list[Change]:
        """The changes inside an anyOf branch, those that only take values away made infos where the head's
        branches accept every value the base's branch accepted: the anyOf refuses none of them."""
        if not cover.union_covers("anyOf", [cover.Side(self.head, loc) for loc in hl], cover.Side(self.base, before)):
            return found
        note = "; the head's anyOf branches still accept every value this branch accepted, so the anyOf refuses none"
        return [
            replace(c, severity=Severity.INFO, message=c.message + note, hint="") if R.narrows(c.rule) else c
            for c in found
        ]

    def _shares_with_kept(self, hl: list[Loc], kept: list[int], index: int) -> str | None:
        """The name of a kept branch of the head's oneOf that surely shares values with the added branch
        `index`: one of the two accepts every value of the other (one that accepts nothing aside)."""
        new = cover.Side(self.head, hl[index])
        for k in kept:
            other = cover.Side(self.head, hl[k])
            if any(
                cover.covers(outer, inner) and cover.admitted_types(inner)
                for outer, inner in ((new, other), (other, new))
            ):
                return self.branch_name(self.head, hl[k], k)
        return None

    def _others_of(self, bl: list[Loc], bi: int, hl: list[Loc], hi: int) -> int:
        """The number `Context.others` gives the branches beside `bl[bi]` and `hl[hi]` (one per set)."""
        found = ([x for i, x in enumerate(bl) if i != bi], [x for j, x in enumerate(hl) if j != hi])
        key = (tuple(x.key for x in found[0]), tuple(x.key for x in found[1]))
        number = self._others_numbers.setdefault(key, len(self._others_numbers) + 1)
        self.others[number] = found
        return number

    def _keeper(self, resolver: Resolver, branches: list[Loc], kept: list[int], index: int) -> str | None:
        """The name of a kept branch that accepts everything branch `index` accepts."""
        for k in kept:
            if cover.covers(cover.Side(resolver, branches[k]), cover.Side(resolver, branches[index])):
                return self.branch_name(resolver, branches[k], k)
        return None

    # --- pairing union branches ------------------------------------------------------------

    def pair_branches(self, bl: list[Loc], hl: list[Loc]) -> tuple[list[tuple[int, int]], list[int], list[int]]:
        """Pair base and head branches: same meaning, then the same `$ref` target, then the same
        discriminating `const`, then the best assignment by structural similarity. Returns the
        pairs and the branches left over on each side (removed, added)."""
        pairs: list[tuple[int, int]] = []
        left_b, left_h = list(range(len(bl))), list(range(len(hl)))

        def take(i: int, j: int) -> None:
            pairs.append((i, j))
            left_b.remove(i)
            left_h.remove(j)

        for i in list(left_b):  # the same text: the same branch (a change behind its $ref is found by comparing)
            match = next((j for j in left_h if hl[j].node == bl[i].node), None)
            if match is not None:
                take(i, match)
        hprints = {j: self.head.fingerprint(hl[j]) for j in left_h} if left_b else {}
        for i in list(left_b):
            bprint = self.base.fingerprint(bl[i])
            match = next((j for j in left_h if hprints[j] == bprint), None)
            if match is not None:
                take(i, match)

        def take_unique(related: Callable[[int, int], bool]) -> None:
            """Pair each base branch related to exactly one head branch that is related to it alone."""
            table = {(i, j): related(i, j) for i in left_b for j in left_h}  # asked once, before any pairing
            for i in list(left_b):
                found = [j for j in left_h if table[i, j]]
                if len(found) == 1 and [k for k in left_b if table[k, found[0]]] == [i]:
                    take(i, found[0])

        identities: tuple[Callable[[Resolver, Loc], frozenset[Any]], ...] = (ref_identity, self._discriminators)
        for identity in identities:
            bkeys = {i: identity(self.base, bl[i]) for i in left_b}
            hkeys = {j: identity(self.head, hl[j]) for j in left_h}
            take_unique(partial(share, bkeys, hkeys))
        if left_b and left_h:  # one accepts all the other does: the same branch widened or narrowed
            bs, hs = (
                {i: cover.Side(self.base, bl[i]) for i in left_b},
                {j: cover.Side(self.head, hl[j]) for j in left_h},
            )
            take_unique(lambda i, j: cover.covers(hs[j], bs[i]) or cover.covers(bs[i], hs[j]))
        if left_b and left_h:  # of all the branches, the only one of the other side sharing a value with it
            shared = [[not disjoint(cover.Side(self.base, x), cover.Side(self.head, y)) for y in hl] for x in bl]
            take_unique(lambda i, j: shared[i][j] and sum(shared[i]) == 1 and sum(row[j] for row in shared) == 1)
        if left_b and left_h:  # the only branch left of its JSON types on both sides: that branch, changed
            btypes = {i: branch_types(self.base, bl[i]) for i in left_b}
            htypes = {j: branch_types(self.head, hl[j]) for j in left_h}
            bconst = {i: dict(self._discriminators(self.base, bl[i])) for i in left_b}
            hconst = {j: dict(self._discriminators(self.head, hl[j])) for j in left_h}
            take_unique(
                lambda i, j: btypes[i] is not None and btypes[i] == htypes[j] and not disagree(bconst[i], hconst[j])
            )
        if left_b and left_h:
            bf = [features(self.base.canonical(bl[i])) for i in left_b]
            hf = [features(self.head.canonical(hl[j])) for j in left_h]
            bd = [dict(self._discriminators(self.base, bl[i])) for i in left_b]
            hd = [dict(self._discriminators(self.head, hl[j])) for j in left_h]
            scores = [
                [0.0 if disagree(bd[r], hd[c]) else similarity(bf[r], hf[c]) for c in range(len(hf))]
                for r in range(len(bf))
            ]
            # Branches with the very same keywords whose values were edited (a pattern that gained an
            # alternative) share few features but most of their text.
            texts_b = [fingerprint(self.base.canonical(bl[i])) for i in left_b]
            texts_h = [fingerprint(self.head.canonical(hl[j])) for j in left_h]
            for r, c in itertools.product(range(len(bf)), range(len(hf))):
                if scores[r][c] < SIMILAR_ENOUGH and scores[r][c] > 0 and keys_of(bf[r]) == keys_of(hf[c]):
                    scores[r][c] = SequenceMatcher(None, texts_b[r], texts_h[c], autojunk=False).ratio()
            base_ids, head_ids = list(left_b), list(left_h)
            for row, col in assign(scores, SIMILAR_ENOUGH):
                take(base_ids[row], head_ids[col])
        return sorted(pairs), left_b, left_h

    def _discriminators(self, resolver: Resolver, loc: Loc) -> frozenset[tuple[str, str]]:
        """(property name, value) of the properties whose schema is one constant (`const` or a
        one-value `enum`), and ("", value) when the branch itself is one constant."""
        node = resolver.unwrap(loc).node
        if not isinstance(node, dict):
            return frozenset()
        found = set()
        own = cover.values(node)
        if own is not None and len(own) == 1:
            found.add(("", fingerprint(own[0])))
        props = node.get("properties")
        if isinstance(props, dict):
            target = resolver.unwrap(loc)
            for name in props:
                member = resolver.deref(target.child("properties", name)).node
                values = cover.values(member) if isinstance(member, dict) else None
                if values is not None and len(values) == 1:
                    found.add((name, fingerprint(values[0])))
        return frozenset(found)

    def branch_name(self, resolver: Resolver, loc: Loc, index: int) -> str:
        """A branch by what it names: its `$ref` target, the definition it has the shape of, its
        discriminating value; its index as the last resort."""
        node = loc.node
        if isinstance(node, dict) and isinstance(node.get("$ref"), str):
            return ref_label(node["$ref"])
        same = self._def_names(resolver, loc.doc).get(resolver.fingerprint(loc))
        if same:
            return f"{index} (the shape of {same})"
        keys = sorted(self._discriminators(resolver, loc))
        if keys:
            name, value = keys[0]
            return f"{index} ({name} {value})" if name else f"{index} ({value})"
        return str(index)

    def _def_names(self, resolver: Resolver, doc: JsonDoc) -> dict[str, str]:
        """Each definition of `doc` by the fingerprint of its meaning (the first name, when two agree)."""
        key = (id(resolver), doc.path)
        table = self._defs_by_print.get(key)
        if table is None:
            table = {}
            for keyword, defs in def_tables(doc):
                for name in sorted(defs):
                    table.setdefault(resolver.fingerprint(root(doc).child(keyword, name)), f"{keyword}/{name}")
            self._defs_by_print[key] = table
        return table

    def _refs_lead_to_shared_defs(self, b: Loc, h: Loc) -> bool:
        """Whether every `$ref` inside `b` leads to a definition of the same name on both sides."""
        for ref in self.base.refs_inside(b.node):
            bt, ht = self.base.target(b, ref), self.head.target(h, ref)
            if bt is None or ht is None or bt.pointer != ht.pointer or bt.pointer.count("/") != 2:
                return False
            if top_def(bt.pointer) is None:
                return False
        return True

    def _names_the_other_side(self, b: Loc, h: Loc) -> bool:
        """Whether the `$ref` one side has and the other not leads to the definition the other side is,
        of the same name (a draft-07 `$ref` read as its target, its siblings ignored, against a later
        draft's that keeps its siblings beside it)."""
        if ("$ref" in b.node) == ("$ref" in h.node):
            return False
        present, absent, resolver = (b, h, self.base) if "$ref" in b.node else (h, b, self.head)
        ref = present.node["$ref"]
        target = resolver.target(present.holder("$ref"), ref) if isinstance(ref, str) else None
        return (
            target is not None
            and target.pointer == absent.pointer
            and target.pointer.count("/") == 2
            and top_def(target.pointer) is not None
        )

    def _keyword_differs(self, b: Loc, h: Loc, keyword: str) -> bool:
        if keyword not in b.node or keyword not in h.node:  # there on one side: unless it says nothing
            if keyword not in b.node and keyword not in h.node:
                return False
            present, absent, resolver = (b, h, self.base) if keyword in b.node else (h, b, self.head)
            if keyword in conditional.KEYWORDS:  # `then`/`else` gone with their `if` still said something
                return _says_something(resolver, present, keyword, present.node)
            # read beside the keywords of its own side that decide what it reads, and also beside those of
            # the other side, whose change is reported on its own: an exemption from a closure the other
            # side does not have exempts nothing there
            return _says_something(resolver, present, keyword, present.node) and _says_something(
                resolver, present, keyword, absent.node
            )
        if keyword in SCHEMA_SINGLES:
            return self.base.fingerprint(b.child(keyword)) != self.head.fingerprint(h.child(keyword))
        bw, hw = b.holder(keyword), h.holder(keyword)
        bc = self.base.canonical(Loc(bw.doc, bw.pointer, {keyword: b.node[keyword]}))
        hc = self.head.canonical(Loc(hw.doc, hw.pointer, {keyword: h.node[keyword]}))
        return fingerprint(bc) != fingerprint(hc)

    def _others(
        self, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any], done: tuple[str, ...] = ()
    ) -> Iterator[Change]:
        keys = {k for k in (*b.node, *h.node) if k not in HANDLED and k not in done and not is_annotation(k)}
        for keyword in sorted(keys):
            bv, hv = b.node.get(keyword), h.node.get(keyword)
            if keyword in SAME_SENSE and isinstance(bv, dict | bool) and isinstance(hv, dict | bool):
                yield from self.compare(b.child(keyword), h.child(keyword), ctx, stack)
                continue
            if (
                keyword in REST_OF_ITEMS
                and (bv is None or hv is None)
                and isinstance(hv if bv is None else bv, dict | bool)
            ):
                # absent, it takes every item it reads (`without_noops` drops it where none is read):
                # compared as `{}` there, as an `items` schema gained or lost is
                yield from self.compare(_or_empty(b, keyword), _or_empty(h, keyword), ctx, stack)
                continue
            if (
                keyword == "dependentSchemas"
                and isinstance(bv, dict)
                and isinstance(hv, dict)
                and bv.keys() == hv.keys()
            ):
                for name in sorted(bv):
                    yield from self.compare(b.child(keyword, name), h.child(keyword, name), ctx, stack)
                continue
            if keyword == "$ref" and self._names_the_other_side(b, h):
                continue  # the other side is the definition it names: what changed in that is compared there
            if bv == hv and self._refs_lead_to_shared_defs(b.child(keyword), h.child(keyword)):
                continue  # the same text: what changed sits in the definitions it names, compared there
            if self._keyword_differs(b, h, keyword):
                message = f"{keyword} {_keyword_text(b.node.get(keyword))} -> {_keyword_text(h.node.get(keyword))}"
                yield self.make(R.KEYWORD_CHANGED, ctx, side(b, keyword), side(h, keyword), message)


Branches = tuple[str, list[Loc], list[Loc]]  # a union keyword and the branches of each side


def _laid_through_ref(resolver: Resolver, branch: Loc, holder: Loc, extra: dict[str, Any]) -> Loc | None:
    """`laid_into`, a branch that is a `$ref` read as its target (sitting where the branch is written):
    keywords of objects laid beside a `$ref` to a string say nothing there (GitHub's `matrix`)."""
    if not isinstance(branch.node, dict) or "$ref" not in branch.node:
        return laid_into(branch, holder, extra)
    target = resolver.deref(branch)
    laid = laid_into(target, holder, extra) if target.key != branch.key else None
    return placed(branch, laid) if laid is not None else None


def _swapped_union(b: dict[str, Any], h: dict[str, Any]) -> tuple[str, str] | None:
    """("oneOf", "anyOf") when the base has a oneOf and no anyOf and the head the other way round (or
    the reverse pair), else None."""
    for kinds in (("oneOf", "anyOf"), ("anyOf", "oneOf")):
        mine, theirs = kinds
        if isinstance(b.get(mine), list) and mine not in h and isinstance(h.get(theirs), list) and theirs not in b:
            return kinds
    return None


def _lone_union(b: dict[str, Any], h: dict[str, Any]) -> str:
    """The union keyword ("oneOf" or "anyOf") when one side has that one and the other neither."""
    for united, plain in ((b, h), (h, b)):
        unions = [k for k in ("oneOf", "anyOf") if k in united]
        if len(unions) == 1 and isinstance(united[unions[0]], list) and not ({"oneOf", "anyOf"} & plain.keys()):
            return unions[0]
    return ""


def _says_something(resolver: Resolver, present: Loc, keyword: str, beside: dict[str, Any]) -> bool:
    """Whether `keyword` of `present` means anything read beside the keywords of `beside` that decide
    what it reads (additionalItems beside items) and whose reading it decides (patternProperties beside
    additionalProperties)."""
    where = present.holder(keyword)
    context = {k: beside[k] for k in partners_of(keyword) | readers_of(keyword) if k in beside}
    alone = resolver.canonical(Loc(where.doc, where.pointer, {keyword: present.node[keyword], **context}))
    rest = resolver.canonical(Loc(where.doc, where.pointer, context)) if context else {}
    return bool(alone != rest)


def _without_implied_type(resolver: Resolver, loc: Loc) -> Loc:
    """The schema without a `type` beside a oneOf/anyOf that admits no other type anyway (every branch
    has that type, or a oneOf of `required`-only branches, which a non-object passes twice): it
    refuses nothing the rest does not, so it comes and goes with no change (and is not laid into
    the branches of a side that lacks it)."""
    node = loc.node
    declared = cover.types(node) if isinstance(node, dict) else None
    if declared is None or not ({"oneOf", "anyOf"} & node.keys()):
        return loc
    rest = Loc(loc.doc, loc.pointer, {k: v for k, v in node.items() if k != "type"}, loc.borrowed)
    if not cover.within(cover.admitted_types(cover.Side(resolver, rest)), declared):
        return loc
    return rest


def _within_type(loc: Loc, other: Any) -> Loc:
    """The schema without the keywords that apply only to values of a type the other side's `type`
    rules out (`additionalProperties` where the other side takes only strings and arrays): the other
    side refused every such value, so what this one asks of them is part of the type gained or lost,
    reported as that, and no constraint that moves a value the other side took."""
    idle = idle_keywords(other.get("type")) if isinstance(other, dict) else frozenset()
    node = loc.node
    if not idle or not isinstance(node, dict) or not idle & node.keys():
        return loc
    return Loc(loc.doc, loc.pointer, {k: v for k, v in node.items() if k not in idle}, loc.borrowed)


_OTHER_CLOSER = {"additionalProperties": "unevaluatedProperties", "unevaluatedProperties": "additionalProperties"}


def _no_pattern_matches(loc: Loc, name: str) -> bool:
    """Whether no pattern of the schema's `patternProperties` matches the member `name` (False where
    one may: a pattern no engine here reads)."""
    patterns = loc.node.get("patternProperties")
    return not any(matches(p, name) is not False for p in (patterns if isinstance(patterns, dict) else ()))


def _lists_a_match(pattern: str, *locs: Loc) -> bool:
    """Whether `properties` of any of `locs` names a member `pattern` matches (True when that cannot be
    told: a pattern no engine here reads, or one past its time budget)."""
    for loc in locs:
        listed = loc.node.get("properties")
        if any(matches(pattern, member) is not False for member in (listed if isinstance(listed, dict) else ())):
            return True
    return False


def _empty_at(loc: Loc, *tokens: str) -> Loc:
    """An empty schema (it takes every value) in the place `tokens` name below `loc`."""
    return Loc(loc.doc, loc.pointer + "".join("/" + escape_token(t) for t in tokens), {})


def _or_empty(loc: Loc, keyword: str) -> Loc:
    """The subschema under `keyword`, or where it is absent an empty one in its place (it takes every
    value it would read)."""
    if loc.node.get(keyword) is not None:
        return loc.child(keyword)
    return _empty_at(loc, keyword)


def _evaluates_members(node: dict[str, Any]) -> bool:
    """Whether an applicator of the schema may evaluate members, so that `unevaluatedProperties`
    beside it lets them in: a reference, or a subschema that says more than `required`, `type`
    and `not` (which evaluates nothing)."""
    for key in IN_PLACE_APPLICATORS:
        value = node.get(key)
        if value is None:
            continue
        if key.startswith("$"):
            return True
        if key == "dependentSchemas" and isinstance(value, dict):
            members = list(value.values())
        else:
            members = value if isinstance(value, list) else [value]
        if any(
            isinstance(m, dict) and {k for k in m if not is_annotation(k)} - {"required", "type", "not"}
            for m in members
        ):
            return True
    return False


def _defined_format(value: Any) -> Any:
    """A `format` value as validators read it: a name no draft defines (`"string"`) is none."""
    return value if isinstance(value, str) and value in DEFINED_FORMATS else None


_REFERENCES = frozenset({"$ref", "$dynamicRef", "$recursiveRef"})


def _with_required(arm: Loc, names: list[str]) -> Loc:
    """An arm of a conditional with the members `names` required in it too (`true` read as `{}`; a
    `false` arm, which takes nothing, as it is)."""
    node = {} if arm.node is True else arm.node
    if not isinstance(node, dict) or not names:
        return arm
    own = _list(node.get("required"))
    required = [*own, *(name for name in dict.fromkeys(names) if name not in own)]
    return Loc(arm.doc, arm.pointer, {**node, "required": required}, arm.borrowed)


def _has(loc: Loc, keyword: str) -> bool:
    return isinstance(loc.node, dict) and keyword in loc.node


def _as_object(loc: Loc) -> Loc:
    """Boolean schemas as their object forms: true is {}, false is {"not": {}}."""
    if loc.node is True:
        return Loc(loc.doc, loc.pointer, {})
    if loc.node is False:
        return Loc(loc.doc, loc.pointer, {"not": {}})
    return loc


def _external_refs(corpus: Corpus) -> set[tuple[str, str]]:
    """(target uri, pointer) of every `$ref` that leads from one schema file into another."""
    return {
        (corpus.uri_of(site.target.path), site.target.pointer)
        for site in corpus.graph.sites
        if site.target is not None and site.target.path != site.doc.path
    }


def diff(base: Corpus, head: Corpus, plan: Plan | None = None) -> list[Change]:
    """Every schema change from `base` to `head`, classified; sorted by file and line.

    A side whose schemas the metaschema rejects is not compared: the result is one
    `compat-schema-invalid` per rejected schema.
    """
    plan = plan or Plan()
    refused = invalid_schemas(base, "base")
    head.adopt_metaschema_verdicts(base)
    refused += invalid_schemas(head, "head")
    if refused:
        return sorted(refused, key=Change.sort_key)
    differ = _Differ(base, head, _named_by(plan))
    roles = Roles(differ.base, differ.head, plan)
    raw: list[Change] = []
    pairs, removed, added = pair_files(base, head, plan)
    renamed = same_shapes(
        removed,
        added,
        lambda p: file_shape(differ.base, base.schemas[p]),
        lambda p: file_shape(differ.head, head.schemas[p]),
    )
    for bpath, hpath in renamed:
        bdoc, hdoc = base.schemas[bpath], head.schemas[hpath]
        message = f"schema {bpath} renamed to {hpath} (same shape); references by its $id or path break"
        raw.append(
            differ.make(R.SCHEMA_RENAMED, Context(roles.of_file(hdoc)), side(root(bdoc)), side(root(hdoc)), message)
        )
    pairs.extend(renamed)
    unreadable = {d.path: f"{d.message} (line {d.line}, {d.rule})" for d in head.load_diagnostics}
    for path in removed:
        if path in {b for b, _ in renamed}:
            continue
        bdoc = base.schemas[path]
        problem = unreadable.get(path)
        message = f"schema {path} cannot be read in the head: {problem}" if problem else f"schema {path} removed"
        raw.append(differ.make(R.SCHEMA_REMOVED, Context(roles.of_file(bdoc)), side(root(bdoc)), None, message))
    referenced = _Lazy(lambda: _external_refs(base))
    for bpath, hpath in sorted(pairs):
        raw.extend(_compare_files(differ, roles, bpath, hpath, referenced))
    unread_in_base = {d.path: d for d in base.load_diagnostics}
    for hpath in added:
        if hpath in {h for _, h in renamed}:
            continue
        hdoc = head.schemas[hpath]
        broken = unread_in_base.get(hpath)
        if broken is not None:  # it was there, but what it said is unknown: nothing can be called additive
            message = f"schema {hpath} cannot be read in the base: {broken.message} ({broken.rule}); it is not compared"
            bside = Side(hpath, "", broken.line)
            hint = "compare against a base in which the file parses (wopgen check there names the problem)"
            raw.append(Change(R.SCHEMA_INVALID.id, R.SCHEMA_INVALID.severity, message, bside, side(root(hdoc)), hint))
            continue
        raw.append(
            differ.make(R.SCHEMA_ADDED, Context(roles.of_file(hdoc)), None, side(root(hdoc)), f"schema {hpath} added")
        )
    raw.extend(_event_payloads(differ, raw))
    return merge(raw)


def _named_by(plan: Plan) -> Callable[[str, str], bool]:
    """Whether a definition (file path, pointer) may be applied by name from outside what the two sides
    show (`uses.Uses`). A corpus publishes every definition of its files; of one schema file compared
    with another, the root is what is applied, and the definitions the plan names as roots."""
    if not plan.pairs:
        return lambda path, pointer: True
    roots = frozenset(plan.client_roots + plan.server_roots)
    return lambda path, pointer: pointer.count("/") != 2 or top_def(pointer) in roots


class _Lazy:
    """A set computed the first time it is asked (most comparisons never ask)."""

    def __init__(self, make: Callable[[], set[tuple[str, str]]]) -> None:
        self._make = make
        self._value: set[tuple[str, str]] | None = None

    def __contains__(self, item: object) -> bool:
        if self._value is None:
            self._value = self._make()
        return item in self._value


def _compare_files(differ: _Differ, roles: Roles, bpath: str, hpath: str, referenced: _Lazy) -> Iterator[Change]:
    base, head = differ.base.corpus, differ.head.corpus
    bdoc, hdoc = base.schemas[bpath], head.schemas[hpath]
    if differ.same_file(bdoc, hdoc) or differ.same(root(bdoc), root(hdoc)):
        return  # the same text, and everything it refers to the same too
    direction = roles.of_file(hdoc)
    if roles.of_file(bdoc) != direction:
        message = f"x-wop-direction {roles.of_file(bdoc)} -> {direction}"
        bside, hside = side(root(bdoc), "x-wop-direction"), side(root(hdoc), "x-wop-direction")
        yield differ.make(R.DIRECTION_CHANGED, Context(R.ARTIFACT), bside, hside, message)
        direction = R.ARTIFACT
    yield from differ.compare(root(bdoc), root(hdoc), Context(direction))
    bdefs, hdefs = defs_of(bdoc), defs_of(hdoc)
    for name in sorted(bdefs.keys() & hdefs.keys(), key=lambda n: (n != TYPE_INDEX, n)):
        ctx = Context(roles.of_def(bpath, hpath, name, direction))
        yield from differ.compare(root(bdoc).child(bdefs[name][0], name), root(hdoc).child(hdefs[name][0], name), ctx)
    gone = sorted(bdefs.keys() - hdefs.keys())
    new = sorted(hdefs.keys() - bdefs.keys())
    renamed = same_shapes(
        gone,
        new,
        lambda n: differ.base.fingerprint(root(bdoc).child(bdefs[n][0], n)),
        lambda n: differ.head.fingerprint(root(hdoc).child(hdefs[n][0], n)),
    )
    for old, now in renamed:
        ctx = Context(roles.of_def(bpath, hpath, old, direction))
        bside, hside = side(root(bdoc), bdefs[old][0], old), side(root(hdoc), hdefs[now][0], now)
        message = f"{bdefs[old][0]}/{old} renamed to {hdefs[now][0]}/{now} (same shape); references by pointer break"
        yield differ.make(R.SCHEMA_RENAMED, ctx, bside, hside, message)
    tables = [k for k, _ in def_tables(hdoc)]  # the head's own: draft-07 `definitions` or 2020-12 `$defs`
    for name in gone:
        if name in {old for old, _ in renamed}:
            continue
        keyword = bdefs[name][0]
        ctx = Context(roles.of_def(bpath, bpath, name, direction))
        others = (base.uri_of(bpath), f"/{keyword}/{name}") in referenced
        message = f"{keyword}/{name} removed" + ("; other files referenced it" if others else "")
        table = keyword if keyword in tables else tables[0] if tables else None  # none: the head's root
        hside = side(root(hdoc), table) if table else side(root(hdoc))
        yield differ.make(R.DEF_REMOVED, ctx, side(root(bdoc), keyword, name), hside, message)


def _event_payloads(differ: _Differ, raw: list[Change]) -> Iterator[Change]:
    breaking: dict[str, list[str]] = {}
    for change in raw:
        if change.severity is Severity.ERROR and change.rule != R.EVENT_PAYLOAD_CHANGED.id:
            for event in change.events:
                breaking.setdefault(event, []).append(change.rule)
    for event in sorted(breaking):
        bside, hside = differ.event_sides[event]
        rules = ", ".join(sorted(set(breaking[event])))
        message = f"event type {event!r} changed shape ({rules})"
        hint = "an existing event never changes shape in v1; add a new event type or an optional member instead"
        yield Change(R.EVENT_PAYLOAD_CHANGED.id, Severity.ERROR, message, bside, hside, hint, R.HOST, (event,))


def merge(changes: list[Change]) -> list[Change]:
    """One change per rule and place, with the strictest severity and every event it touches."""
    merged: dict[tuple[Any, ...], Change] = {}
    for change in changes:
        key = (change.rule, change.base, change.head, change.message)
        current = merged.get(key)
        if current is None:
            merged[key] = change
            continue
        events = tuple(sorted(set(current.events) | set(change.events)))
        stronger = change if change.severity.rank > current.severity.rank else current
        direction = current.direction if current.direction == change.direction else R.ARTIFACT  # shared
        merged[key] = replace(stronger, events=events, direction=direction)
    return sorted(merged.values(), key=Change.sort_key)
