"""The schema diff: `diff(base, head) -> list[Change]`, by meaning and by direction.

Every schema file of the base is compared with the file of the same path (or `$id`) in the head:
its root, then each `$def` both sides have by name. References are followed on both sides
(`normalize.Resolver`), so a change is found wherever the meaning changed and reported once, at
the place it sits, with the strictest severity of the directions it was reached from. Event
payloads reached through the `_typeIndex` of `run-event-payloads` remember their event type, so a
breaking change inside one also yields `compat-event-payload-changed` for that event.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any
from urllib.parse import urldefrag, urljoin

from wopgen.catalogue import Rule
from wopgen.compat import rules as R
from wopgen.compat.change import Change, Side
from wopgen.compat.normalize import Loc, Resolver, fingerprint, is_annotation, root
from wopgen.corpus import SCHEMA_SUFFIX, Corpus
from wopgen.corpus.documents import JsonDoc, escape_token
from wopgen.corpus.events import PAYLOADS_SCHEMA, TYPE_ENUM, TYPE_INDEX
from wopgen.corpus.keywords import SCHEMA_SINGLES
from wopgen.diagnostics import Severity

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


def stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(SCHEMA_SUFFIX)


def direction_of(doc: JsonDoc) -> str:
    value = doc.data.get("x-wop-direction") if isinstance(doc.data, dict) else None
    return value if value in R.DIRECTIONS else R.ARTIFACT


@dataclass(frozen=True)
class Context:
    direction: str
    event: str = ""
    prop: str = ""


def side(loc: Loc, *tokens: str | int) -> Side:
    pointer = loc.pointer + "".join("/" + escape_token(t) for t in tokens)
    return Side(loc.doc.path, pointer, loc.doc.line(pointer))


def _types(node: dict[str, Any]) -> frozenset[str] | None:
    value = node.get("type")
    if isinstance(value, str):
        return frozenset({value})
    if isinstance(value, list):
        return frozenset(v for v in value if isinstance(v, str))
    return None


def _within(inner: frozenset[str], outer: frozenset[str]) -> bool:
    return all(t in outer or (t == "integer" and "number" in outer) for t in inner)


def _json_type(value: Any) -> str:
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


def _values(node: dict[str, Any]) -> list[Any] | None:
    if "const" in node:
        return [node["const"]]
    enum = node.get("enum")
    return list(enum) if isinstance(enum, list) else None


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return Fraction(str(value))


def _closure(value: Any) -> str:
    if value is None or value is True or value == {}:
        return _OPEN
    if value is False:
        return _CLOSED
    return _SCHEMA


def _show(value: Any) -> str:
    text = fingerprint(value)
    return text if len(text) <= 80 else text[:77] + "..."


class _Differ:
    def __init__(self, base: Corpus, head: Corpus) -> None:
        self.base = Resolver(base)
        self.head = Resolver(head)
        self._memo: dict[tuple[Any, ...], list[Change]] = {}
        self.event_sides: dict[str, tuple[Side, Side]] = {}

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

    # --- the walk --------------------------------------------------------------------------

    def compare(self, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any] = frozenset()) -> list[Change]:
        b, h = self.base.deref(b), self.head.deref(h)
        if b.node == h.node and self.base.ref_free(b.node) and self.head.ref_free(h.node):
            return []  # the same text with nothing to follow: the same meaning
        pair = (b.key, h.key)
        if pair in stack:
            return []  # a $ref cycle: this pair is already being compared further up
        memo_key = (pair, ctx)
        if memo_key in self._memo:
            return self._memo[memo_key]
        b, h = _as_object(b), _as_object(h)
        out: list[Change] = []
        if isinstance(b.node, dict) and isinstance(h.node, dict):
            inner = stack | {pair}
            for step in (self._type, self._values, self._bounds, self._text_rules):
                out.extend(step(b, h, ctx))
            out.extend(self._properties(b, h, ctx, inner))
            out.extend(self._closures(b, h, ctx, inner))
            out.extend(self._arrays(b, h, ctx, inner))
            out.extend(self._branches(b, h, ctx, inner))
            out.extend(self._others(b, h, ctx))
        self._memo[memo_key] = out
        return out

    def _type(self, b: Loc, h: Loc, ctx: Context) -> Iterator[Change]:
        bt, ht = _types(b.node), _types(h.node)
        if bt == ht:
            return
        if bt is None:
            values = _values(b.node)
            if ht is not None and values is not None and all(_within(frozenset({_json_type(v)}), ht) for v in values):
                return
            rule = R.TYPE_NARROWED
        elif ht is None:
            values = _values(h.node)
            if values is not None and all(_within(frozenset({_json_type(v)}), bt) for v in values):
                return
            rule = R.TYPE_WIDENED
        elif _within(ht, bt):
            rule = R.TYPE_NARROWED
        elif _within(bt, ht):
            rule = R.TYPE_WIDENED
        else:
            rule = R.TYPE_CHANGED
        before = "any" if bt is None else "|".join(sorted(bt))
        after = "any" if ht is None else "|".join(sorted(ht))
        yield self.make(rule, ctx, side(b, "type"), side(h, "type"), f"type {before} -> {after}")

    def _values(self, b: Loc, h: Loc, ctx: Context) -> Iterator[Change]:
        bv, hv = _values(b.node), _values(h.node)
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
        for key in sorted(before.keys() - after.keys()):
            rule = R.EVENT_TYPE_REMOVED if events else R.ENUM_VALUE_REMOVED
            what = "event type" if events else "enum value"
            yield self.make(rule, ctx, bs, hs, f"{what} {key} removed")
        for key in sorted(after.keys() - before.keys()):
            rule = R.EVENT_TYPE_ADDED if events else R.ENUM_VALUE_ADDED
            what = "event type" if events else "enum value"
            yield self.make(rule, ctx, bs, hs, f"{what} {key} added")

    def _bounds(self, b: Loc, h: Loc, ctx: Context) -> Iterator[Change]:
        ceiling = ctx.prop == "version" and "integer" in (_types(h.node) or ())
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
                    tighter = bn is None or (hn is not None and (hn / bn).denominator == 1)
                elif hn is None or bn is None:
                    tighter = bn is None
                else:
                    tighter = hn > bn if keyword in LOWER else hn < bn
            message = f"{keyword} {_show(bv)} -> {_show(hv)}"
            if ceiling and keyword == "maximum":
                message = f"version ceiling {_show(bv)} -> {_show(hv)}"
                rule = R.VERSION_CEILING_LOWERED if tighter else R.VERSION_CEILING_RAISED
            else:
                rule = R.BOUND_TIGHTENED if tighter else R.BOUND_LOOSENED
            yield self.make(rule, ctx, side(b, keyword), side(h, keyword), message)

    def _text_rules(self, b: Loc, h: Loc, ctx: Context) -> Iterator[Change]:
        for keyword, rule in (("pattern", R.PATTERN_CHANGED), ("format", R.FORMAT_CHANGED)):
            bv, hv = b.node.get(keyword), h.node.get(keyword)
            if bv != hv:
                message = f"{keyword} {_show(bv)} -> {_show(hv)}"
                yield self.make(rule, ctx, side(b, keyword), side(h, keyword), message)

    def _properties(self, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any]) -> Iterator[Change]:
        bp = b.node.get("properties") if isinstance(b.node.get("properties"), dict) else {}
        hp = h.node.get("properties") if isinstance(h.node.get("properties"), dict) else {}
        assert isinstance(bp, dict) and isinstance(hp, dict)
        type_index = stem(b.doc.path) == PAYLOADS_SCHEMA and b.pointer == f"/$defs/{TYPE_INDEX}"
        discovery = stem(h.doc.path) == DISCOVERY
        for name in sorted(bp.keys() - hp.keys()):
            rule, what = R.PROPERTY_REMOVED, "property"
            if type_index:
                rule, what = R.EVENT_TYPE_REMOVED, "event type"
            elif discovery:
                rule, what = R.CAPABILITY_REMOVED, "capability field"
            yield self.make(rule, ctx, side(b, "properties", name), side(h, "properties"), f"{what} {name!r} removed")
        for name in sorted(hp.keys() - bp.keys()):
            rule, what = R.PROPERTY_ADDED, "property"
            if type_index:
                rule, what = R.EVENT_TYPE_ADDED, "event type"
            elif discovery:
                rule, what = R.CAPABILITY_ADDED, "capability field"
            yield self.make(rule, ctx, side(b, "properties"), side(h, "properties", name), f"{what} {name!r} added")
        for name in sorted(bp.keys() & hp.keys()):
            child = replace(ctx, prop=name)
            if type_index:
                child = replace(child, event=name)
                self.event_sides[name] = (side(b, "properties", name), side(h, "properties", name))
            yield from self.compare(b.child("properties", name), h.child("properties", name), child, stack)
        yield from self._required(b, h, ctx, bp, hp)

    def _required(self, b: Loc, h: Loc, ctx: Context, bp: dict[str, Any], hp: dict[str, Any]) -> Iterator[Change]:
        br = {r for r in b.node.get("required", []) if isinstance(r, str)}
        hr = {r for r in h.node.get("required", []) if isinstance(r, str)}
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
        for keyword in ("additionalProperties", "unevaluatedProperties"):
            bv, hv = b.node.get(keyword), h.node.get(keyword)
            before, after = _closure(bv), _closure(hv)
            if before == after == _SCHEMA:
                yield from self.compare(b.child(keyword), h.child(keyword), ctx, stack)
                continue
            if before == after:
                continue
            opened = before == _CLOSED or after == _OPEN
            rule = R.OPENED if opened else R.CLOSED
            message = f"{keyword} {_show(bv)} -> {_show(hv)}"
            yield self.make(rule, ctx, side(b, keyword), side(h, keyword), message)

    def _arrays(self, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any]) -> Iterator[Change]:
        if isinstance(b.node.get("items"), dict) and isinstance(h.node.get("items"), dict):
            yield from self.compare(b.child("items"), h.child("items"), ctx, stack)
        elif self._keyword_differs(b, h, "items"):
            yield self.make(R.KEYWORD_CHANGED, ctx, side(b, "items"), side(h, "items"), "items changed")
        for keyword in ("prefixItems", "patternProperties"):
            bv, hv = b.node.get(keyword), h.node.get(keyword)
            both_lists = isinstance(bv, list) and isinstance(hv, list) and len(bv) == len(hv)
            both_maps = isinstance(bv, dict) and isinstance(hv, dict) and bv.keys() == hv.keys()
            if both_lists or both_maps:
                assert isinstance(bv, list | dict)
                keys: list[Any] = list(range(len(bv))) if isinstance(bv, list) else sorted(bv)
                for key in keys:
                    yield from self.compare(b.child(keyword, key), h.child(keyword, key), ctx, stack)
            elif self._keyword_differs(b, h, keyword):
                yield self.make(R.KEYWORD_CHANGED, ctx, side(b, keyword), side(h, keyword), f"{keyword} changed")

    def _branches(self, b: Loc, h: Loc, ctx: Context, stack: frozenset[Any]) -> Iterator[Change]:
        for keyword in ("oneOf", "anyOf", "allOf"):
            bv, hv = b.node.get(keyword), h.node.get(keyword)
            if not isinstance(bv, list) and not isinstance(hv, list):
                continue
            bl = [b.child(keyword, i) for i in range(len(bv))] if isinstance(bv, list) else []
            hl = [h.child(keyword, i) for i in range(len(hv))] if isinstance(hv, list) else []
            hprints = [self.head.fingerprint(x) for x in hl]
            left_h = list(range(len(hl)))
            left_b = []
            for loc in bl:
                bprint = self.base.fingerprint(loc)
                match = next((i for i in left_h if hprints[i] == bprint), None)
                if match is None:
                    left_b.append(loc)
                else:
                    left_h.remove(match)
            if len(left_b) == len(left_h):  # the same number changed: compare them in order
                for bloc, index in zip(left_b, left_h, strict=True):
                    yield from self.compare(bloc, hl[index], ctx, stack)
                continue
            if keyword == "allOf":
                yield self.make(R.KEYWORD_CHANGED, ctx, side(b, keyword), side(h, keyword), "allOf branches changed")
                continue
            for loc in left_b:
                message = f"{keyword} branch {loc.pointer.rsplit('/', 1)[-1]} removed"
                yield self.make(R.BRANCH_REMOVED, ctx, side(loc), side(h, keyword), message)
            for index in left_h:
                message = f"{keyword} branch {index} added"
                yield self.make(R.BRANCH_ADDED, ctx, side(b, keyword), side(hl[index]), message)

    def _keyword_differs(self, b: Loc, h: Loc, keyword: str) -> bool:
        if keyword not in b.node or keyword not in h.node:
            return (keyword in b.node) != (keyword in h.node)
        if keyword in SCHEMA_SINGLES:
            return self.base.fingerprint(b.child(keyword)) != self.head.fingerprint(h.child(keyword))
        bc = self.base.canonical(Loc(b.doc, b.pointer, {keyword: b.node[keyword]}))
        hc = self.head.canonical(Loc(h.doc, h.pointer, {keyword: h.node[keyword]}))
        return fingerprint(bc) != fingerprint(hc)

    def _others(self, b: Loc, h: Loc, ctx: Context) -> Iterator[Change]:
        keys = {k for k in (*b.node, *h.node) if k not in HANDLED and not is_annotation(k)}
        for keyword in sorted(keys):
            if self._keyword_differs(b, h, keyword):
                message = f"{keyword} {_show(b.node.get(keyword))} -> {_show(h.node.get(keyword))}"
                yield self.make(R.KEYWORD_CHANGED, ctx, side(b, keyword), side(h, keyword), message)


def _as_object(loc: Loc) -> Loc:
    """Boolean schemas as their object forms: true is {}, false is {"not": {}}."""
    if loc.node is True:
        return Loc(loc.doc, loc.pointer, {})
    if loc.node is False:
        return Loc(loc.doc, loc.pointer, {"not": {}})
    return loc


def _external_refs(corpus: Corpus) -> set[tuple[str, str]]:
    """(target uri, fragment) of every `$ref` that points from one schema file into another."""
    found: set[tuple[str, str]] = set()

    def walk(node: Any, own: str) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                uri, fragment = urldefrag(urljoin(own, ref))
                if uri and uri != own:
                    found.add((uri, fragment))
            for value in node.values():
                walk(value, own)
        elif isinstance(node, list):
            for value in node:
                walk(value, own)

    for path, doc in corpus.schemas.items():
        walk(doc.data, corpus.uri_of(path))
    return found


def _defs(doc: JsonDoc) -> dict[str, Any]:
    defs = doc.data.get("$defs") if isinstance(doc.data, dict) else None
    return defs if isinstance(defs, dict) else {}


def diff(base: Corpus, head: Corpus) -> list[Change]:
    """Every schema change from `base` to `head`, classified; sorted by file and line."""
    differ = _Differ(base, head)
    raw: list[Change] = []
    head_by_uri = {head.uri_of(p): p for p in head.schemas}
    matched: set[str] = set()
    referenced = _external_refs(base)
    unreadable = {d.path: f"{d.message} (line {d.line}, {d.rule})" for d in head.load_diagnostics}
    for path in sorted(base.schemas):
        bdoc = base.schemas[path]
        hpath = path if path in head.schemas else head_by_uri.get(base.uri_of(path))
        if hpath is None:
            ctx = Context(direction_of(bdoc))
            problem = unreadable.get(path)
            message = f"schema {path} cannot be read in the head: {problem}" if problem else f"schema {path} removed"
            raw.append(differ.make(R.SCHEMA_REMOVED, ctx, side(root(bdoc)), None, message))
            continue
        matched.add(hpath)
        hdoc = head.schemas[hpath]
        direction = direction_of(hdoc)
        if direction_of(bdoc) != direction:
            message = f"x-wop-direction {direction_of(bdoc)} -> {direction}"
            raw.append(
                differ.make(
                    R.DIRECTION_CHANGED,
                    Context(R.ARTIFACT),
                    side(root(bdoc), "x-wop-direction"),
                    side(root(hdoc), "x-wop-direction"),
                    message,
                )
            )
            direction = R.ARTIFACT
        ctx = Context(direction)
        raw.extend(differ.compare(root(bdoc), root(hdoc), ctx))
        bdefs, hdefs = _defs(bdoc), _defs(hdoc)
        for name in sorted(bdefs.keys() & hdefs.keys(), key=lambda n: (n != TYPE_INDEX, n)):
            raw.extend(differ.compare(root(bdoc).child("$defs", name), root(hdoc).child("$defs", name), ctx))
        for name in sorted(bdefs.keys() - hdefs.keys()):
            if (base.uri_of(path), f"/$defs/{name}") in referenced:
                message = f"$defs/{name} removed; other files referenced it"
                bside, hside = side(root(bdoc), "$defs", name), side(root(hdoc), "$defs")
                raw.append(differ.make(R.DEF_REMOVED, ctx, bside, hside, message))
    for hpath in sorted(head.schemas.keys() - matched):
        hdoc = head.schemas[hpath]
        ctx = Context(direction_of(hdoc))
        raw.append(differ.make(R.SCHEMA_ADDED, ctx, None, side(root(hdoc)), f"schema {hpath} added"))
    raw.extend(_event_payloads(differ, raw))
    return merge(raw)


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
        merged[key] = replace(stronger, events=events)
    return sorted(merged.values(), key=Change.sort_key)
