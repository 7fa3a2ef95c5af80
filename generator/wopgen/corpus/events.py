"""The event-type index, read in one place: the `RunEventType` enum and the payload `_typeIndex`.

The envelope schema (`run-event`) lists the event types in `$defs/RunEventType/enum`; the payload
schema (`run-event-payloads`) maps each type to the `$def` of its payload through
`$defs/_typeIndex/properties`, every entry `{"$ref": "#/$defs/<name>"}`. Checks, generators, the
site and the conformance model all read the index through `event_types` and `type_index`.

Both readers take whatever the corpus holds, including schemas the checks reject: a schema that is
not an object, an index that is not an object, an enum that is not a list give "no index" (None);
entries that do not name a `$defs` object are left out of `payloads` and listed in `malformed`.
They never raise. Reporting what is wrong is the job of the `schema-*` rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wopgen.corpus import Corpus
from wopgen.corpus.documents import JsonDoc, escape_token
from wopgen.corpus.graph import Located, unescape_token

EVENT_SCHEMA = "run-event"
PAYLOADS_SCHEMA = "run-event-payloads"
TYPE_ENUM = "RunEventType"
TYPE_INDEX = "_typeIndex"
ENUM_POINTER = f"/$defs/{TYPE_ENUM}/enum"
INDEX_POINTER = f"/$defs/{TYPE_INDEX}/properties"


@dataclass(frozen=True)
class Payload:
    """One good index entry: the event type and the `$defs` member holding its payload schema."""

    event_type: str
    def_name: str
    node: Mapping[str, Any]

    @property
    def pointer(self) -> str:
        """JSON pointer of the payload `$def` inside the payload schema, e.g. `/$defs/runStarted`."""
        return "/$defs/" + escape_token(self.def_name)


@dataclass(frozen=True)
class TypeIndex:
    """The `_typeIndex` of one payload schema."""

    doc: JsonDoc
    payloads: dict[str, Payload]  # event type -> payload, sorted by event type
    malformed: tuple[str, ...]  # event types whose entry is not {"$ref": "#/$defs/<an object member>"}

    def __contains__(self, event_type: object) -> bool:
        return event_type in self.payloads


def _defs(doc: JsonDoc | None) -> dict[str, Any] | None:
    data = doc.data if doc is not None else None
    defs = data.get("$defs") if isinstance(data, dict) else None
    return defs if isinstance(defs, dict) else None


def event_types(corpus: Corpus, schema: str = EVENT_SCHEMA) -> list[str] | None:
    """The string values of the `RunEventType` enum of `schema`, in order (repeats kept), or None."""
    return corpus.view(("event-types", schema), lambda: _event_types(corpus, schema))


def _event_types(corpus: Corpus, schema: str) -> list[str] | None:
    defs = _defs(corpus.schemas_by_name.get(schema))
    holder = defs.get(TYPE_ENUM) if defs is not None else None
    enum = holder.get("enum") if isinstance(holder, dict) else None
    return [value for value in enum if isinstance(value, str)] if isinstance(enum, list) else None


def index_of(corpus: Corpus, doc: JsonDoc) -> TypeIndex | None:
    """The `_typeIndex` of one schema document, or None when it has no usable one (computed once)."""
    return corpus.view(("type-index", doc.path), lambda: _index_of(corpus, doc))


def _index_of(corpus: Corpus, doc: JsonDoc) -> TypeIndex | None:
    defs = _defs(doc)
    holder = defs.get(TYPE_INDEX) if defs is not None else None
    entries = holder.get("properties") if isinstance(holder, dict) else None
    if defs is None or not isinstance(entries, dict):
        return None
    payloads: dict[str, Payload] = {}
    malformed: list[str] = []
    for event_type in sorted(entries):
        name = _def_name(corpus, Located(doc.path, f"{INDEX_POINTER}/{escape_token(event_type)}"))
        node = defs.get(name) if name is not None else None
        if name is None or not isinstance(node, dict):
            malformed.append(event_type)
            continue
        payloads[event_type] = Payload(event_type, name, node)
    return TypeIndex(doc, payloads, tuple(malformed))


def type_index(corpus: Corpus, schema: str = PAYLOADS_SCHEMA) -> TypeIndex | None:
    """The `_typeIndex` of the payload schema named `schema`, or None when it has no usable one."""
    doc = corpus.schemas_by_name.get(schema)
    return index_of(corpus, doc) if doc is not None else None


def _def_name(corpus: Corpus, entry: Located) -> str | None:
    """`name` when the `$ref` of the index entry at `entry` lands on `$defs/<name>` of the same file."""
    site = corpus.graph.site_at(entry)
    target = site.target if site is not None else None
    if target is None or target.path != entry.path:
        return None
    parts = target.pointer.split("/")
    if len(parts) != 3 or parts[1] != "$defs" or not parts[2]:
        return None
    return unescape_token(parts[2])
