"""The event catalogue and the capabilities reference, both read from the schemas' annotations.

Events: every `RunEventType` (the enum of the run-event schema), its payload `$def` found
through `_typeIndex`, and the `x-wop-capability`, `x-wop-rfc` and `x-wop-content-free` annotations.
Capabilities: the discovery schema's members as dotted paths, the events each flag gates, and the
execution-model version ladder read from the `version` member.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from wopgen.corpus.events import event_types, type_index
from wopgen.corpus.graph import Located
from wopgen.generate.site import schemadoc
from wopgen.generate.site.context import SiteContext
from wopgen.generate.site.paths import Target, def_anchor

EVENTS = "events.md"
CAPABILITIES = "capabilities.md"
# Where a rung starts in the description of the version: `N = ` at its start or after a space.
_RUNG_START = re.compile(r"(?:^|(?<=\s))(\d+) = ")
_RFC_CITED = re.compile(r"RFC (\d{4})")
# The citation of the rung's RFC, taken out of what it adds: ` (RFC 0037)` or `, RFC 0039` before a `)`.
_CITATION = re.compile(r"\s*\(RFC \d{4}\)|,\s*RFC \d{4}(?=\))")


@dataclass(frozen=True)
class Event:
    type: str
    anchor: str
    def_name: str
    schema_path: str
    node: Mapping[str, Any]

    def annotation(self, key: str) -> Any:
        return self.node.get(key)


def _defs(site: SiteContext, name: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for path in sorted(site.corpus.schemas):
        data = site.corpus.schemas[path].data
        defs = data.get("$defs") if isinstance(data, dict) else None
        if isinstance(defs, dict) and isinstance(defs.get(name), dict):
            yield path, defs[name]


def event_anchor(event_type: str) -> str:
    return "event-" + re.sub(r"[^a-z0-9]+", "-", event_type.lower()).strip("-")


def events(site: SiteContext) -> list[Event]:
    """Every event type in enum order, with its payload `$def` (an empty node when it has none)."""
    index = type_index(site.corpus)
    out = []
    for event_type in event_types(site.corpus) or []:
        payload = index.payloads.get(event_type) if index is not None else None
        if index is None or payload is None:
            out.append(Event(event_type, event_anchor(event_type), "", "", {}))
        else:
            out.append(Event(event_type, event_anchor(event_type), payload.def_name, index.doc.path, payload.node))
    return out


def _rfc(site: SiteContext, page: str, value: Any) -> str:
    if isinstance(value, str) and value.isdigit():
        return site.rfc_link(page, int(value))
    return "baseline"


# The annotations the catalogue reads, each with what it tells: an event without one is ungated, from
# the baseline or of unstated content only when some event of the corpus carries it. A corpus whose
# payloads carry none (the published OpenWOP v1 schemas) does not say, and the page says nothing of it.
ANNOTATIONS = (
    ("x-wop-capability", "the capability flag that gates it"),
    ("x-wop-rfc", "the RFC that introduced it"),
    ("x-wop-content-free", "whether its payload is content-free (identifiers, counts and scores only)"),
)


def _stated(found: list[Event]) -> dict[str, bool]:
    """For each annotation of ANNOTATIONS, whether some event payload of the corpus carries it."""
    return {key: any(e.annotation(key) is not None for e in found) for key, _ in ANNOTATIONS}


def _linker(site: SiteContext, page: str) -> schemadoc.RefLinker:
    return lambda holder: site.paths.schema_ref(page, holder)


def events_page(site: SiteContext) -> str:
    rows = []
    found = events(site)
    stated = _stated(found)
    for event in found:
        payload_link = ""
        fields: list[schemadoc.Field] = []
        if event.def_name:
            page = site.paths.schema_page(event.schema_path)
            payload_link = site.paths.href(EVENTS, Target(page), def_anchor(event.def_name))
            fields = list(schemadoc.fields_of(event.node, _linker(site, EVENTS)))
        refers = ""
        target = site.paths.ref_target(event.node) if event.def_name and not fields else None
        if target is not None:  # the `$def` names a schema of its own: its fields are the payload's
            label, link = site.paths.schema_link(EVENTS, target)
            refers = f"[`{label}`]({link})"
            fields = list(schemadoc.fields_of(site.corpus.graph.node(target), _linker(site, EVENTS)))
        content_free = event.annotation("x-wop-content-free")
        rows.append(
            {
                "type": event.type,
                "anchor": event.anchor,
                "payload": event.def_name,
                "payload_link": payload_link,
                "payload_line": (
                    f"[`{event.def_name}`]({payload_link})"
                    + (" (closed)" if event.node.get("additionalProperties") is False else "")
                    if event.def_name
                    else "no payload `$def` in `_typeIndex`"
                ),
                "description": str(event.node.get("description", "")),
                "capability": event.annotation("x-wop-capability") or "",
                "rfc": _rfc(site, EVENTS, event.annotation("x-wop-rfc")),
                "content_free": "yes" if content_free is True else ("no" if content_free is False else "not stated"),
                "fields": fields,
                "refers": refers,
            }
        )
    return site.render(
        "events.md.j2",
        rows=rows,
        stated=stated,
        told=[what for key, what in ANNOTATIONS if stated[key]],
        untold=[(key, what) for key, what in ANNOTATIONS if not stated[key]],
    )


def execution_model(site: SiteContext) -> tuple[str, Mapping[str, Any]] | None:
    """The discovery schema and its `executionModel`: a `$defs` entry of that name, else a member of
    that name below a schema's root (`multiAgent.executionModel`, as the published corpus writes it).
    Found once per corpus: whether the site has a capabilities page asks too."""
    return site.corpus.view(("site-execution-model",), lambda: _execution_model(site))


def _execution_model(site: SiteContext) -> tuple[str, Mapping[str, Any]] | None:
    for found in _defs(site, "executionModel"):
        return found
    graph = site.corpus.graph
    for path in sorted(site.corpus.schemas):
        if '"executionModel"' not in site.corpus.schemas[path].text:  # no such member: no walk
            continue
        for dotted, _child, target in graph.property_tree(Located(path, "")):
            node = graph.node(target)
            if dotted.rsplit(".", 1)[-1] == "executionModel" and isinstance(node, Mapping):
                return path, node
    return None


def _flags(site: SiteContext, path: str) -> list[tuple[str, str, str, str]]:
    """(dotted path, type, constraints, description) for every member, following `$ref`s."""
    graph = site.corpus.graph
    rows: list[tuple[str, str, str, str]] = []
    for dotted, child, target in graph.property_tree(Located(path, "")):
        child_node, target_node = graph.node(child), graph.node(target)
        description = schemadoc.description_of(target_node) or schemadoc.description_of(child_node)
        rows.append(
            (
                dotted,
                schemadoc.cell(schemadoc.type_of(child_node, _linker(site, CAPABILITIES))),
                schemadoc.cell(schemadoc.constraints_of(target_node)),
                schemadoc.cell(description),
            )
        )
    return rows


def ladder(site: SiteContext, model: Mapping[str, Any]) -> list[dict[str, str]]:
    """The rungs named in the description of `executionModel.version`, each `N = what it adds` with the RFC
    that defines it cited inside: `1 = the loop (RFC 0037); 2 = ...` or, as upstream writes them,
    `2 = Phase 2 (confidence escalation, RFC 0039). 3 = ...`. A rung ends at the next one, or at the end of
    its sentence (`.` or `;` outside parentheses)."""
    members = model.get("properties")
    version = members.get("version", {}) if isinstance(members, Mapping) else {}
    description = version.get("description", "") if isinstance(version, Mapping) else ""
    description = description if isinstance(description, str) else ""
    by_rfc: dict[str, list[str]] = {}
    for event in events(site):
        rfc = event.annotation("x-wop-rfc")
        if isinstance(rfc, str):
            by_rfc.setdefault(rfc, []).append(event.type)
    starts = list(_RUNG_START.finditer(description))
    rungs = []
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(description)
        text = _sentence(description[match.end() : end])
        cited = _RFC_CITED.findall(text)
        adds = _CITATION.sub("", text).strip()
        if not adds:
            continue
        rfc = cited[-1] if cited else None
        rungs.append(
            {
                "version": match.group(1),
                "adds": schemadoc.cell(adds),
                "rfc": site.rfc_link(CAPABILITIES, int(rfc)) if rfc else "—",
                "events": ", ".join(f"[`{t}`]({EVENTS}#{event_anchor(t)})" for t in by_rfc.get(rfc or "", [])) or "—",
            }
        )
    return rungs


def _sentence(text: str) -> str:
    """`text` up to the end of its first sentence or clause: a `.` or `;` outside parentheses, followed by a
    space or the end."""
    depth = 0
    for index, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif char in ".;" and depth == 0 and (index + 1 == len(text) or text[index + 1].isspace()):
            return text[:index]
    return text


def capabilities_page(site: SiteContext) -> str:
    """The capabilities page of a corpus with an execution model (the site has none without one)."""
    found = execution_model(site)
    assert found is not None, "published only where the corpus has an execution model (see Parts)"
    path, model = found
    gated: dict[str, list[str]] = {}
    for event in events(site):
        flag = event.annotation("x-wop-capability")
        if isinstance(flag, str):
            gated.setdefault(flag, []).append(event.type)
    gates = [
        (flag, ", ".join(f"[`{t}`]({EVENTS}#{event_anchor(t)})" for t in types))
        for flag, types in sorted(gated.items())
    ]
    return site.render(
        "capabilities.md.j2",
        schema=site.corpus.schema_name(path),
        schema_link=site.paths.href(CAPABILITIES, Target(site.paths.schema_page(path))),
        flags=_flags(site, path),
        ladder=ladder(site, model),
        gates=gates,
    )
