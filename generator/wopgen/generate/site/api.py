"""API reference pages, rendered from the OpenAPI and AsyncAPI documents `wopgen api` generates.

The operations and the event channel become plain Markdown (no viewer, nothing from a CDN); every
schema the documents name links to its schema page, and the generated files are published next to
the pages for tools that want them.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from typing import Any

from wopgen.corpus.api import StandardDocument, read_api
from wopgen.generate.api import ASYNCAPI_FILE, OPENAPI_FILE, ApiError, api_documents, dump
from wopgen.generate.site.context import Pages, SiteContext
from wopgen.generate.site.events import EVENTS, event_anchor
from wopgen.generate.site.events import events as site_events
from wopgen.generate.site.paths import Target, def_anchor
from wopgen.generate.site.schemadoc import cell, type_of

FOLDER = "api"
HTTP = f"{FOLDER}/index.md"
CHANNELS = f"{FOLDER}/events.md"
_COMPONENT = re.compile(r"^#/components/schemas/([^/]+)(?:/\$defs/([^/]+))?$")
_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def operation_anchor(operation_id: str) -> str:
    return "op-" + re.sub(r"[^a-z0-9]+", "-", operation_id.lower()).strip("-")


class _Components:
    """Links from `#/components/schemas/<Title>[/$defs/<name>]` to the schema pages."""

    def __init__(self, site: SiteContext, page: str) -> None:
        self.site = site
        self.page = page
        self.by_title: dict[str, str] = {}
        for path in sorted(site.corpus.schemas):
            data = site.corpus.schemas[path].data
            title = data.get("title") if isinstance(data, dict) else None
            if isinstance(title, str):
                self.by_title.setdefault(title, path)

    def __call__(self, node: Mapping[str, Any]) -> tuple[str, str] | None:
        match = _COMPONENT.match(str(node["$ref"]))
        if match is None or match.group(1) not in self.by_title:
            return None
        name, definition = match.groups()
        page = self.site.paths.schema_page(self.by_title[name])
        if definition:
            return definition, self.site.paths.href(self.page, Target(page), def_anchor(definition))
        return name, self.site.paths.href(self.page, Target(page))

    def schema(self, node: Any) -> str:
        return cell(type_of(node, self)) if node else "—"

    def example(self, content: Any) -> str:
        """The first valid example of the schema a request or answer body names, as indented JSON
        highlighted once (the mark of its block, see `wopgen.generate.site.blocks`)."""
        if not isinstance(content, Mapping):
            return ""
        for entry in content.values():
            schema = entry.get("schema") if isinstance(entry, Mapping) else None
            ref = schema.get("$ref") if isinstance(schema, Mapping) else None
            match = _COMPONENT.match(ref) if isinstance(ref, str) else None
            if match is None or match.group(2) or match.group(1) not in self.by_title:
                continue
            name = self.site.corpus.schema_name(self.by_title[match.group(1)])
            found = self.site.examples(name, "valid")
            if found:
                return self.site.blocks.add(json.dumps(found[0].doc.data, indent=2, ensure_ascii=False))
        return ""


def _body(content: Any, link: _Components) -> str:
    if not isinstance(content, Mapping) or not content:
        return "—"
    parts = []
    for media, entry in content.items():
        schema = entry.get("schema") if isinstance(entry, Mapping) else None
        parts.append(f"{link.schema(schema)} (`{media}`)")
    return "<br>".join(parts)


def _operations(document: Mapping[str, Any], link: _Components) -> list[dict[str, Any]]:
    out = []
    for path, item in (document.get("paths") or {}).items():
        for method in _METHODS:
            op = item.get(method) if isinstance(item, Mapping) else None
            if not isinstance(op, Mapping):
                continue
            operation_id = str(op.get("operationId", f"{method}-{path}"))
            body = op.get("requestBody") if isinstance(op.get("requestBody"), Mapping) else None
            out.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "id": operation_id,
                    "anchor": operation_anchor(operation_id),
                    "tag": (op.get("tags") or ["other"])[0],
                    "summary": str(op.get("summary", "")),
                    "description": str(op.get("description", "")),
                    "public": op.get("security") == [],
                    "parameters": [
                        {
                            "name": str(p.get("name", "")),
                            "in": str(p.get("in", "")),
                            "required": bool(p.get("required")),
                            "type": link.schema(p.get("schema")),
                            "description": cell(str(p.get("description", ""))),
                        }
                        for p in op.get("parameters") or []
                        if isinstance(p, Mapping)
                    ],
                    "body": _body(body.get("content"), link) if body else "",
                    "body_example": link.example(body.get("content")) if body else "",
                    "body_required": bool(body and body.get("required")),
                    "responses": [
                        {
                            "status": str(status),
                            "description": cell(str(answer.get("description", ""))),
                            "body": _body(answer.get("content"), link),
                            "example": link.example(answer.get("content")),
                        }
                        for status, answer in (op.get("responses") or {}).items()
                        if isinstance(answer, Mapping)
                    ],
                }
            )
    return out


def http_page(site: SiteContext, document: Mapping[str, Any], raw: str = OPENAPI_FILE) -> str:
    link = _Components(site, HTTP)
    operations = _operations(document, link)
    tags = [t for t in document.get("tags") or [] if isinstance(t, Mapping)]
    known = [str(t.get("name")) for t in tags]
    extra = sorted({op["tag"] for op in operations} - set(known))
    groups = [
        {
            "name": name,
            "description": next((str(t.get("description", "")) for t in tags if t.get("name") == name), ""),
            "operations": [op for op in operations if op["tag"] == name],
        }
        for name in [*known, *extra]
    ]
    info = document.get("info") or {}
    return site.render(
        "api-http.md.j2",
        title=str(info.get("title", "API")),
        version=str(info.get("version", "")),
        description=str(info.get("description", "")).split("\n\n")[0],
        operations=operations,
        groups=[g for g in groups if g["operations"]],
        raw=raw,
    )


def channels_page(site: SiteContext, document: Mapping[str, Any], raw: str = ASYNCAPI_FILE) -> str:
    messages = (document.get("components") or {}).get("messages") or {}
    known = {event.type for event in site_events(site)}
    channels = []
    for key, channel in (document.get("channels") or {}).items():
        if not isinstance(channel, Mapping):
            continue
        rows = []
        for name in channel.get("messages") or {}:
            message = messages.get(name, {}) if isinstance(messages, Mapping) else {}
            rfc = message.get("x-wop-rfc")
            free = message.get("x-wop-content-free")
            rows.append(
                {
                    "name": name,
                    "href": site.paths.href(CHANNELS, Target(EVENTS), event_anchor(name)) if name in known else "",
                    "summary": cell(str(message.get("summary", ""))),
                    "rfc": site.rfc_link(CHANNELS, int(rfc)) if isinstance(rfc, str) and rfc.isdigit() else "baseline",
                    "content_free": "yes" if free is True else ("no" if free is False else "not stated"),
                }
            )
        channels.append(
            {
                "key": key,
                "title": str(channel.get("title", key)),
                "address": str(channel.get("address", "")),
                "description": str(channel.get("description", "")),
                "parameters": [
                    (str(name), cell(str((p or {}).get("description", ""))))
                    for name, p in (channel.get("parameters") or {}).items()
                ],
                "messages": rows,
            }
        )
    operations = [
        {"id": key, "action": str(op.get("action", "")), "summary": str(op.get("summary", ""))}
        for key, op in (document.get("operations") or {}).items()
        if isinstance(op, Mapping)
    ]
    info = document.get("info") or {}
    return site.render(
        "api-events.md.j2",
        title=str(info.get("title", "Events")),
        description=str(info.get("description", "")).split("\n\n")[0],
        channels=channels,
        operations=operations,
        raw=raw,
    )


def nav(site: SiteContext) -> list[object]:
    return [HTTP, {"Event channel": CHANNELS}]


def _standard_pages(site: SiteContext, standard: list[StandardDocument]) -> Pages:
    """The pages of OpenAPI / AsyncAPI documents kept in the API folder as written: each is published
    as is, and the first of each kind gives the HTTP or the event-channel page."""
    out: Pages = {}
    openapi = next((d for d in standard if d.kind == "openapi"), None)
    asyncapi = next((d for d in standard if d.kind == "asyncapi"), None)
    for document in (openapi, asyncapi):
        if document is not None:
            out[f"{FOLDER}/{posixpath.basename(document.path)}"] = document.doc.text
    note = site.render("api-missing.md.j2", reason="the API folder has no document of this kind")
    out[HTTP] = http_page(site, openapi.doc.data, posixpath.basename(openapi.path)) if openapi is not None else note
    out[CHANNELS] = (
        channels_page(site, _named_messages(site, asyncapi.doc.data), posixpath.basename(asyncapi.path))
        if asyncapi is not None
        else note.replace("# HTTP API", "# Event channel", 1)
    )
    return out


def _named_messages(site: SiteContext, document: Mapping[str, Any]) -> dict[str, Any]:
    """The AsyncAPI document with each channel's messages keyed by the event type they carry (the
    message `name`), as the channel page expects; messages given by `$ref` are looked up first."""
    components = (document.get("components") or {}).get("messages") or {}
    messages: dict[str, Any] = {}
    channels: dict[str, Any] = {}
    for key, channel in (document.get("channels") or {}).items():
        if not isinstance(channel, Mapping):
            continue
        named: dict[str, Any] = {}
        for label, message in (channel.get("messages") or {}).items():
            ref = message.get("$ref") if isinstance(message, Mapping) else None
            if isinstance(ref, str) and ref.startswith("#/components/messages/"):
                message = components.get(ref.rsplit("/", 1)[1], {})
            name = message.get("name") if isinstance(message, Mapping) else None
            event = str(name) if isinstance(name, str) else str(label)
            named[event] = {}
            messages[event] = message if isinstance(message, Mapping) else {}
        channels[str(key)] = {**channel, "messages": named}
    return {**document, "channels": channels, "components": {"messages": messages}}


def openapi_data(site: SiteContext) -> Mapping[str, Any] | None:
    """The OpenAPI document as data, the very one the API pages render (None when there is none)."""
    api = read_api(site.corpus)
    if api.standard and not api.present:
        found = next((d for d in api.standard if d.kind == "openapi"), None)
        return found.doc.data if found is not None and isinstance(found.doc.data, Mapping) else None
    try:
        return api_documents(site.corpus).get(OPENAPI_FILE)
    except ApiError:
        return None


def pages(site: SiteContext) -> Pages:
    api = read_api(site.corpus)
    if api.standard and not api.present:
        return _standard_pages(site, api.standard)
    try:
        documents = api_documents(site.corpus)
        # The pages read the documents as built; the files published next to them are their YAML text.
        out: Pages = {f"{FOLDER}/{name}": dump(document) for name, document in documents.items()}
    except ApiError as exc:
        note = site.render("api-missing.md.j2", reason=str(exc))
        return {HTTP: note, CHANNELS: note.replace("# HTTP API", "# Event channel", 1)}
    out[HTTP] = http_page(site, documents.get(OPENAPI_FILE, {}))
    out[CHANNELS] = channels_page(site, documents.get(ASYNCAPI_FILE, {}))
    return out
