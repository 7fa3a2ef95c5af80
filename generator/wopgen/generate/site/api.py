"""API reference pages, rendered from the OpenAPI and AsyncAPI documents `wopgen api` generates.

The operations and the event channel become plain Markdown (no viewer, nothing from a CDN); every
schema the documents name links to its schema page, and the generated files are published next to
the pages for tools that want them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from wopgen.generate.api import ASYNCAPI_FILE, OPENAPI_FILE, ApiError, api_documents, dump
from wopgen.generate.site.context import Pages, SiteContext
from wopgen.generate.site.events import EVENTS, event_anchor
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
                    "body_required": bool(body and body.get("required")),
                    "responses": [
                        {
                            "status": str(status),
                            "description": cell(str(answer.get("description", ""))),
                            "body": _body(answer.get("content"), link),
                        }
                        for status, answer in (op.get("responses") or {}).items()
                        if isinstance(answer, Mapping)
                    ],
                }
            )
    return out


def http_page(site: SiteContext, document: Mapping[str, Any]) -> str:
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
        raw=OPENAPI_FILE,
    )


def channels_page(site: SiteContext, document: Mapping[str, Any]) -> str:
    messages = (document.get("components") or {}).get("messages") or {}
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
                    "href": site.paths.href(CHANNELS, Target(EVENTS), event_anchor(name)),
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
        raw=ASYNCAPI_FILE,
    )


def nav(site: SiteContext) -> list[object]:
    return [HTTP, {"Event channel": CHANNELS}]


def pages(site: SiteContext) -> Pages:
    try:
        documents = api_documents(site.corpus)
    except ApiError as exc:
        note = site.render("api-missing.md.j2", reason=str(exc))
        return {HTTP: note, CHANNELS: note.replace("# HTTP API", "# Event channel", 1)}
    # The pages read the documents as built; the files published next to them are their YAML text.
    out: Pages = {f"{FOLDER}/{name}": dump(document) for name, document in documents.items()}
    out[HTTP] = http_page(site, documents.get(OPENAPI_FILE, {}))
    out[CHANNELS] = channels_page(site, documents.get(ASYNCAPI_FILE, {}))
    return out
