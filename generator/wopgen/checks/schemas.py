"""Schema rules: dialect, identity, titles, roles, `$ref` integrity, unused `$defs`, the event index."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urldefrag

from wopgen.corpus import Corpus
from wopgen.corpus.documents import JsonDoc, escape_token, may_embed_id
from wopgen.corpus.events import (
    ENUM_POINTER,
    EVENT_SCHEMA,
    INDEX_POINTER,
    PAYLOADS_SCHEMA,
    TYPE_INDEX,
    event_types,
    type_index,
)
from wopgen.corpus.graph import Status
from wopgen.corpus.keywords import DIALECT, draft_of
from wopgen.diagnostics import Diagnostic, define

CONTENT_FIELDS = frozenset(
    {"content", "output", "result", "text", "prompt", "response", "taskOutput", "body", "completion", "transcript"}
)

METASCHEMA = define("schema-metaschema", "error", "A schema is not a valid JSON Schema 2020-12 document.")
DIALECT_RULE = define("schema-dialect", "error", f"`$schema` is missing or is not {DIALECT}.")
ID_RULE = define(
    "schema-id",
    "error",
    "`$id` (`id` in a draft-04 schema) is missing or is not the configured base followed by the file name.",
)
ID_DUPLICATE = define(
    "schema-id-duplicate", "error", "Two schema files, or a subschema and another schema, claim the same `$id`."
)
TITLE = define("schema-title", "error", "A schema has no string `title` (it names the generated model).")
DIRECTION = define(
    "schema-direction",
    "error",
    "A schema does not declare its direction annotation (`x-wop-direction`: client-sent, host-emitted or "
    "artifact), or declares another value; see the direction-* settings.",
)
REF_UNRESOLVED = define(
    "schema-ref-unresolved",
    "error",
    "A `$ref` (or where a `$dynamicRef` starts) does not resolve to a schema or subschema in the corpus.",
)
REF_EXTERNAL = define(
    "schema-ref-external",
    "error",
    "A `$ref` (or `$dynamicRef`) points at the network or outside the corpus; it is never fetched.",
)
REF_CYCLE = define(
    "schema-ref-cycle", "error", "A chain of `$ref`s leads back to itself without any schema in between."
)
DEFS_UNUSED = define("schema-defs-unused", "warning", "A `$defs` entry is never referenced.")
EVENT_INDEX = define(
    "schema-event-index",
    "error",
    "The RunEventType enum and the payload `_typeIndex` do not list exactly the same event types, "
    "or an index entry does not point at a payload `$def`.",
)
CONTENT_FREE = define(
    "schema-content-free",
    "error",
    "A payload marked `x-wop-content-free` is open or declares a content-bearing property.",
)
RFC_UNKNOWN = define(
    "schema-rfc-unknown",
    "error",
    "An `x-wop-rfc` annotation names an RFC that is neither in the corpus nor declared external.",
)


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    """The schema findings, computed once per corpus: the gate asks for them before the checks do."""
    return iter(corpus.view(("check", "schemas"), lambda: list(_check(corpus))))


def _check(corpus: Corpus) -> Iterator[Diagnostic]:
    # A file whose `$id` is the one the convention gives it owns that URI: another claiming it is the duplicate.
    seen_ids: dict[str, str] = {}
    for path, doc in sorted(corpus.schemas.items()):
        if isinstance(doc.data, dict) and doc.data.get(draft_of(doc.data).id_key) == corpus.expected_id(path):
            seen_ids.setdefault(corpus.expected_id(path), path)
    for path in sorted(corpus.schemas):
        doc = corpus.schemas[path]
        yield from _check_document(corpus, path, doc, seen_ids)
    yield from _check_nested_ids(corpus)
    yield from _check_refs(corpus)
    yield from _check_unused_defs(corpus)
    yield from _check_cycles(corpus)
    yield from _check_event_index(corpus)
    yield from _check_annotations(corpus)


MAX_METASCHEMA = 20  # problems listed per file


def _check_document(corpus: Corpus, path: str, doc: JsonDoc, seen_ids: dict[str, str]) -> Iterator[Diagnostic]:
    data = doc.data
    if not isinstance(data, dict):
        yield METASCHEMA.at(path, 1, "a schema file must hold a JSON object")
        return
    errors = corpus.metaschema_errors(path)
    if errors is None:
        errors = ()
        yield METASCHEMA.at(path, 1, "schema is nested too deeply to check against the metaschema")
    # The metaschema reaches a place by several routes ($dynamicRef, allOf), and the validator says so once
    # per route: each problem is told once, at most MAX_METASCHEMA of them, then how many more there are.
    distinct = list({(tuple(map(str, e.absolute_path)), e.message, str(e.validator)): e for e in errors}.values())
    own = _own_draft_accepts(corpus, path) if distinct else None
    for error in distinct[:MAX_METASCHEMA]:
        where = list(error.absolute_path)
        line, col = doc.locate(where)
        hint = f"the `{error.validator}` keyword of the 2020-12 metaschema rejects it"
        if own:
            hint += f"; {own}, which the schema declares, accepts it (the corpus's draft is 2020-12: schema-dialect)"
        yield METASCHEMA.at(path, line, f"{_shortened(error)} (at /{'/'.join(map(str, where))})", hint, col=col)
    if len(distinct) > MAX_METASCHEMA:
        more = len(distinct) - MAX_METASCHEMA
        yield METASCHEMA.at(
            path,
            1,
            f"{more} more place{'s' if more > 1 else ''} the 2020-12 metaschema rejects {'are' if more > 1 else 'is'} not listed",
            "fix those listed and check again",
        )
    dialect = data.get("$schema")
    if dialect != DIALECT:
        line = doc.line("/$schema")
        found = "missing" if dialect is None else f"{dialect!r}"
        yield DIALECT_RULE.at(path, line, f"$schema is {found}", f'set "$schema": "{DIALECT}"')
    expected = corpus.expected_id(path)
    key = draft_of(data).id_key  # `id` in a draft-04 schema
    declared = data.get(key)
    if declared != expected:
        found = "missing" if declared is None else f"{declared!r}"
        yield ID_RULE.at(
            path, doc.line("/" + key), f"{key} is {found}, expected {expected!r}", f'set "{key}": "{expected}"'
        )
    if isinstance(declared, str) and seen_ids.setdefault(declared, path) != path:
        yield ID_DUPLICATE.at(
            path,
            doc.line("/" + key),
            f"{key} {declared!r} is also declared by {seen_ids[declared]}",
            "give each schema its own $id (base + file name)",
        )
    if not isinstance(data.get("title"), str) or not data.get("title", "").strip():
        yield TITLE.at(path, doc.line("/title"), "schema has no title", 'add "title": "<ModelName>"')
    yield from _check_direction(corpus, path, doc)


def _own_draft_accepts(corpus: Corpus, path: str) -> str | None:
    """The name of the other draft a schema declares when that draft's metaschema accepts it."""
    named = draft_of(corpus.schemas[path].data).name
    return named if named != "2020-12" and corpus.draft_errors(path) == () else None


def _shortened(error: Any) -> str:
    """The validator's message within 200 characters, the value it quotes cut rather than the words
    saying what is wrong with it."""
    text = str(error.message)
    quoted = repr(error.instance)
    if len(text) > 200 and quoted in text:
        rest = len(text) - len(quoted)  # the words around the value
        text = text.replace(quoted, quoted[: max(40, 197 - rest)] + "...", 1)
    return text[:200]


def _check_nested_ids(corpus: Corpus) -> Iterator[Diagnostic]:
    """An `$id` below a schema's root that claims the URI of another schema (a file, or a subschema
    claimed first): which of the two a `$ref` to that URI reaches then depends on the order a
    resolver reads them in, so validation and every check that follows `$ref`s could go either way."""
    claims = {uri.rstrip("#"): doc.path for uri, doc in corpus.schemas_by_uri.items()}
    for path in sorted(corpus.schemas):
        doc = corpus.schemas[path]
        if not isinstance(doc.data, dict) or not may_embed_id(doc.text, doc.data):
            continue
        key = draft_of(doc.data).id_key
        for item in corpus.graph.objects(path):
            if not item.pointer or item.declared is None:
                continue
            claimed = urldefrag(item.base).url
            owner = claims.setdefault(claimed, f"{path}#{item.pointer}")
            if owner != f"{path}#{item.pointer}":
                yield ID_DUPLICATE.at(
                    path,
                    doc.line(f"{item.pointer}/{key}"),
                    f"the {key} at {item.pointer} claims {claimed!r}, which {owner} already has",
                    "give the subschema an $id of its own, or drop its $id and $ref the other schema",
                )


def _check_direction(corpus: Corpus, path: str, doc: JsonDoc) -> Iterator[Diagnostic]:
    """The direction annotation: required unless `direction-required = false`; checked when present."""
    conventions = corpus.settings.conventions
    key, allowed = conventions.direction_key, conventions.directions
    direction = doc.data.get(key) if isinstance(doc.data, dict) else None
    if direction in allowed or (direction is None and not conventions.direction_required):
        return
    found = "missing" if direction is None else f"{direction!r}"
    yield DIRECTION.at(
        path,
        doc.line("/" + escape_token(key)),
        f"{key} is {found}",
        f"declare who produces instances: one of {', '.join(allowed)}",
    )


def _check_refs(corpus: Corpus) -> Iterator[Diagnostic]:
    for site in [*corpus.graph.sites, *corpus.graph.dynamic_sites]:
        if site.status is Status.EXTERNAL:
            line, col = site.locate()
            said = f"{site.keyword} {site.ref!r}" + ("" if site.ref == site.uri else f" (that is {site.uri!r})")
            yield REF_EXTERNAL.at(
                site.path,
                line,
                f"{said} names no schema of the corpus, and nothing outside it is fetched",
                "refer to a schema of the corpus, by its $id or by a path relative to this file",
                col=col,
            )
        elif site.status in _UNRESOLVED_HINTS:
            line, col = site.locate()
            hint = _UNRESOLVED_HINTS[site.status]
            draft = draft_of(site.doc.data)
            if site.status is Status.NO_NODE and draft.legacy:
                hint = (
                    "point at an existing subschema (#/definitions/<name>), or declare the anchor it names "
                    f'("{draft.id_key}": "#<name>")'
                )
            yield REF_UNRESOLVED.at(site.path, line, f"{site.keyword} {site.ref!r}: {site.detail}", hint, col=col)


_UNRESOLVED_HINTS = {
    Status.NO_DOCUMENT: "check the file name, or add the schema",
    Status.NO_NODE: "point at an existing subschema (#/$defs/<name>), or declare the anchor it names ($anchor, $dynamicAnchor)",
}


def _check_unused_defs(corpus: Corpus) -> Iterator[Diagnostic]:
    used = corpus.graph.used_defs
    for path in sorted(corpus.schemas):
        doc = corpus.schemas[path]
        defs = doc.data.get("$defs") if isinstance(doc.data, dict) else None
        if not isinstance(defs, dict):
            continue
        for name in defs:
            if name == TYPE_INDEX or name in used.get(path, frozenset()):
                continue
            frag = "/$defs/" + escape_token(name)
            yield DEFS_UNUSED.at(path, doc.line(frag), f"$defs/{name} is never referenced", "reference it or remove it")


def _check_cycles(corpus: Corpus) -> Iterator[Diagnostic]:
    """Report each chain of objects that are nothing but a `$ref`, leading back to itself."""
    for cycle in corpus.graph.cycles:
        site = cycle.sites[0]
        line, col = site.locate()
        yield REF_CYCLE.at(
            site.path,
            line,
            f"$ref cycle: {' -> '.join(map(str, cycle.route))}",
            "break the loop with a real schema in between",
            col=col,
        )


def _check_event_index(corpus: Corpus) -> Iterator[Diagnostic]:
    enum = event_types(corpus)
    index = type_index(corpus)
    if index is not None:
        for name in index.malformed:
            yield EVENT_INDEX.at(
                index.doc.path,
                index.doc.line(f"{INDEX_POINTER}/{escape_token(name)}"),
                f"the _typeIndex entry for {name!r} does not point at a payload in $defs",
                f'write it as "{name}": {{"$ref": "#/$defs/<camelCaseName>"}} naming an object in $defs',
            )
    payloads_doc = corpus.schemas_by_name.get(PAYLOADS_SCHEMA)
    if enum is not None and index is None and payloads_doc is not None and isinstance(payloads_doc.data, dict):
        yield EVENT_INDEX.at(
            payloads_doc.path,
            payloads_doc.line(f"/$defs/{TYPE_INDEX}"),
            "there is no _typeIndex object with properties, so no event type has a payload",
            f'make $defs/{TYPE_INDEX} an object whose "properties" map each event type to {{"$ref": "#/$defs/<name>"}}',
        )
    if enum is None or index is None:
        return
    enum_doc = corpus.schemas_by_name[EVENT_SCHEMA]
    listed = set(index.payloads) | set(index.malformed)
    for name in sorted(set(enum) - listed):
        yield EVENT_INDEX.at(
            index.doc.path,
            index.doc.line(INDEX_POINTER),
            f"event type {name!r} is in RunEventType but has no payload in _typeIndex",
            f'add "{name}": {{"$ref": "#/$defs/<camelCaseName>"}}',
        )
    for name in sorted(listed - set(enum)):
        yield EVENT_INDEX.at(
            enum_doc.path,
            enum_doc.line(ENUM_POINTER),
            f"event type {name!r} has a payload in _typeIndex but is not in RunEventType",
            "add it to the enum or remove the payload entry",
        )
    if len(enum) != len(set(enum)):
        dupes = sorted({e for e in enum if enum.count(e) > 1})
        yield EVENT_INDEX.at(
            enum_doc.path,
            enum_doc.line(ENUM_POINTER),
            f"RunEventType lists {', '.join(dupes)} more than once",
            "list each type once",
        )


def _check_annotations(corpus: Corpus) -> Iterator[Diagnostic]:
    for path in sorted(corpus.schemas):
        doc = corpus.schemas[path]
        if not isinstance(doc.data, dict):
            continue
        for item in corpus.graph.objects(path):
            ptr, node = item.pointer, item.node
            rfc = node.get("x-wop-rfc")
            if isinstance(rfc, str) and rfc.isdigit() and int(rfc) not in _known_rfcs(corpus):
                yield RFC_UNKNOWN.at(
                    path,
                    doc.line(ptr + "/x-wop-rfc"),
                    f"x-wop-rfc names RFC {rfc}, which is not in the corpus",
                    "add the RFC or list its number in [tool.wopgen] external-rfcs",
                )
            if node.get("x-wop-content-free") is True:
                yield from _content_free(path, doc, ptr, node)


def _known_rfcs(corpus: Corpus) -> frozenset[int]:
    """The RFC numbers an `x-wop-rfc` may name; asked only when one is met, since reading the RFC
    numbers parses every RFC."""
    return corpus.view(
        ("schemas", "known-rfcs"),
        lambda: frozenset(corpus.rfcs_by_number) | frozenset(corpus.settings.external_rfcs),
    )


def _content_free(path: str, doc: JsonDoc, ptr: str, node: dict[str, Any]) -> Iterator[Diagnostic]:
    if node.get("additionalProperties") is not False:
        yield CONTENT_FREE.at(
            path,
            doc.line(ptr),
            f"{ptr or '/'} is content-free but not closed",
            'add "additionalProperties": false so no content can ride along',
        )
    props = node.get("properties")
    if isinstance(props, dict):
        for name in sorted(set(props) & CONTENT_FIELDS):
            yield CONTENT_FREE.at(
                path,
                doc.line(f"{ptr}/properties/{escape_token(name)}"),
                f"content-free payload declares content-bearing property {name!r}",
                "carry an identifier, count or score instead, and serve content from an authorised resource",
            )
