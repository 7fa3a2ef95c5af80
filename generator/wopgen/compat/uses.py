"""The JSON types a place of a schema is already held to by whatever applies it there.

A subschema is applied to a value by the schemas around it that apply it to that same value (the
object holding it under `allOf`, `anyOf`, `oneOf`, `not`, `if`, `then` or `else`) and by every `$ref`
that leads to it. Each of those has its own verdict, and a `type` beside the applicator is part of
it: a value of a type that `type` refuses is refused there whatever the subschema says of it. So
where every way a place is applied holds the value to some types, what the place says of values of
the other types decides no verdict (`"type": "object"` gained by a definition only ever applied
beside `"type": "object"`).

`Uses.held_to(place)` is that set of types: for each way the place is applied, the `type`s met
going up through the schemas that apply it in place, and on through the `$ref`s that lead to each
of them, up to where the value is named by something else (the root of a document, a member or an
item of another value); the union over the ways. It is sound and partial: a way it cannot follow
holds the value to no type. The root of a document, a definition something outside may apply by
name (the plan says which), a schema with its own `$id` or anchor, a place only a `$dynamicRef` or
`$recursiveRef` may reach, a `$ref` cycle, and a place nothing applies at all take every type.
"""

from __future__ import annotations

from collections.abc import Callable

from wopgen.compat.cover import ALL_TYPES, meet, types
from wopgen.compat.normalize import Loc, Resolver, ignores_ref_siblings
from wopgen.corpus.documents import escape_token, may_write
from wopgen.corpus.graph import Located, Position, RefSite, SchemaObject, Status, unescape_token
from wopgen.corpus.keywords import DEFS, draft_of

_UNIONS = frozenset({"allOf", "anyOf", "oneOf"})  # a list of subschemas applied to the value itself
_SINGLES = frozenset({"not", "if", "then", "else"})  # one subschema applied to the value itself
_TABLES = frozenset({DEFS, "definitions"})
_ANCHORS = ("$anchor", "$dynamicAnchor", "$recursiveAnchor")
MAX_DEPTH = 64  # places followed up; a longer chain holds the value to no type


class Uses:
    """The ways the places of one corpus's schemas are applied (`held_to`), read from its `$ref` graph.

    `named(path, pointer)` tells whether the definition at `pointer` of the schema file `path` may be
    applied by name from outside what the corpus shows (a root the plan names, any definition a
    corpus publishes)."""

    def __init__(self, resolver: Resolver, named: Callable[[str, str], bool]) -> None:
        self.graph = resolver.graph
        self.corpus = resolver.corpus
        self._named = named
        self._memo: dict[Located, frozenset[str]] = {}
        self._objects: dict[str, dict[str, SchemaObject]] = {}
        self._into: dict[Located, list[RefSite]] | None = None

    def held_to(self, loc: Loc) -> frozenset[str]:
        """The JSON types a value must have for each schema that applies `loc` where it sits to accept it
        (every type where that cannot be shown)."""
        into = self._sites_into()
        if into is None:
            return ALL_TYPES
        return self._held(Located(loc.doc.path, loc.pointer), into, frozenset(), 0)

    def _sites_into(self) -> dict[Located, list[RefSite]] | None:
        """The `$ref` sites by the place they lead to; None when a dynamic reference may lead anywhere."""
        if self._into is None:
            if self.graph.dynamic_sites or any(
                may_write(d.text, "$recursiveRef") for d in self.corpus.schemas.values()
            ):
                return None
            into: dict[Located, list[RefSite]] = {}
            for site in self.graph.sites:
                if site.target is None or site.status not in (Status.RESOLVED, Status.UNCHECKED):
                    continue
                # by the object it lands on, however its pointer is spelt
                landed = self.graph.locate(self.graph.node(site.target)) or site.target
                into.setdefault(landed, []).append(site)
            self._into = into
        return self._into

    def _object(self, where: Located) -> SchemaObject | None:
        table = self._objects.get(where.path)
        if table is None:
            table = {item.pointer: item for item in self.graph.objects(where.path)}
            self._objects[where.path] = table
        return table.get(where.pointer)

    def _held(
        self, where: Located, into: dict[Located, list[RefSite]], open_: frozenset[Located], depth: int
    ) -> frozenset[str]:
        known = self._memo.get(where)
        if known is not None:
            return known
        if where in open_ or depth > MAX_DEPTH:
            return ALL_TYPES  # a cycle, or too far: not worked out (every type, so what is kept above is sound)
        found = self._held_here(where, into, open_ | {where}, depth + 1)
        self._memo[where] = found
        return found

    def _held_here(
        self, where: Located, into: dict[Located, list[RefSite]], open_: frozenset[Located], depth: int
    ) -> frozenset[str]:
        item = self._object(where)
        if item is None or item.position is not Position.SCHEMA or not where.pointer:
            return ALL_TYPES  # not a schema object the walk knows, or the root of a document
        if item.declared is not None or any(isinstance(item.node.get(k), str) for k in _ANCHORS):
            return ALL_TYPES  # named by its own URI: anyone may apply it
        found: frozenset[str] = frozenset()
        applied = False
        doc = self.corpus.schemas[where.path]
        tokens = [unescape_token(t) for t in where.pointer.split("/")[1:]]
        holder: str | None = None
        if len(tokens) >= 2 and tokens[-2] in _UNIONS and tokens[-1].isdigit():
            holder = "".join("/" + escape_token(t) for t in tokens[:-2])
            keyword = tokens[-2]
        elif tokens[-1] in _SINGLES:
            holder = "".join("/" + escape_token(t) for t in tokens[:-1])
            keyword = tokens[-1]
        elif len(tokens) >= 2 and tokens[-2] in _TABLES:
            if self._named(where.path, where.pointer):
                return ALL_TYPES
        else:
            return ALL_TYPES  # a member or item of another value, or a keyword no draft applies in place
        if holder is not None:
            outer = self._object(Located(where.path, holder))
            draft = draft_of(doc.data)
            if (
                outer is None
                or outer.position is not Position.SCHEMA
                or not (keyword in draft.lists or keyword in draft.singles)
                or (ignores_ref_siblings(doc) and "$ref" in outer.node)
            ):
                return ALL_TYPES  # not applied as written (a `$ref` beside it, in a draft that ignores the rest)
            own = types(outer.node) or ALL_TYPES
            found |= meet(own, self._held(Located(where.path, holder), into, open_, depth))
            applied = True
        for site in into.get(where, ()):
            referrer = self.graph.node(site.source)
            beside = isinstance(referrer, dict) and not ignores_ref_siblings(site.doc)
            own = (types(referrer) if beside else None) or ALL_TYPES
            found |= meet(own, self._held(site.source, into, open_, depth))
            applied = True
        return found if applied else ALL_TYPES  # applied by nothing the corpus shows: kept as its own contract
