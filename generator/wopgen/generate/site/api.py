"""API reference pages, rendered from the OpenAPI and AsyncAPI documents: the ones `wopgen api`
generates from operations.yaml/channels.yaml, and the corpus's own, kept in the API folder as written
(a folder may hold both: the generated pages come first).

The operations and the event channel become plain Markdown (no viewer, nothing from a CDN); every
schema of the corpus the documents name links to its schema page, and the documents are published
next to the pages for tools that want them. A corpus's own document is read as OpenAPI and AsyncAPI
read it: its Reference Objects followed (`DocumentRefs`), path-item parameters merged into each
operation. The API folder may hold several documents of a kind; each gets its pages (`placed`).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wopgen.corpus import Corpus
from wopgen.corpus.api import DocumentRefs, StandardDocument, read_api
from wopgen.corpus.graph import ref_strings, unescape_token
from wopgen.generate.api import ASYNCAPI_FILE, ITEM_SCHEMA_KEY, OPENAPI_FILE, ApiError, api_documents, dump
from wopgen.generate.bundle import UNBUNDLED, BundleError, bundling, component_origins
from wopgen.generate.site.context import Pages, SiteContext
from wopgen.generate.site.events import EVENTS, event_anchor
from wopgen.generate.site.events import events as site_events
from wopgen.generate.site.paths import Target
from wopgen.generate.site.schemadoc import cell, type_of

FOLDER = "api"
HTTP = f"{FOLDER}/index.md"
CHANNELS = f"{FOLDER}/events.md"
TRY = f"{FOLDER}/try.md"  # the Swagger UI page of the (first) OpenAPI document, see `tryit`
TRY_SPEC = f"{FOLDER}/openapi.try.json"  # what that page loads
_COMPONENT = re.compile(r"^#/components/schemas/([^/]+)$")
_SCHEMA_COMPONENT = re.compile(r"^/components/schemas/([^/]+)$")
_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
# The message annotations the event-channel page shows, each with what it tells; a document none of
# whose messages carries one does not say, and the page leaves its column out.
MESSAGE_ANNOTATIONS = (
    ("x-wop-rfc", "the RFC that introduced it"),
    ("x-wop-content-free", "whether its payload is content-free"),
)


def operation_anchor(operation_id: str) -> str:
    return "op-" + re.sub(r"[^a-z0-9]+", "-", operation_id.lower()).strip("-")


def one_line(text: Any) -> str:
    """Text for a table cell, a heading or an emphasis: one line, whitespace collapsed."""
    return " ".join(str(text).split())


class _Components:
    """Links from the schemas a document names to the schema pages.

    A generated document bundles the corpus schemas as `#/components/schemas/<Title>`, and what a
    `$ref` lands on inside one (a `$defs` entry) as a component of its own (see `component_origins`);
    a corpus's own document names them by file (`../schemas/x.schema.json[#/$defs/y]`, or an `$id`),
    directly or through components that are only a reference, and its own inline components by name.
    """

    def __init__(self, site: SiteContext, page: str, refs: DocumentRefs, generated: bool) -> None:
        self.site = site
        self.page = page
        self.refs = refs
        self.generated = generated
        self.origins = component_origins(site.corpus) if generated else {}

    def __call__(self, node: Mapping[str, Any]) -> tuple[str, str] | None:
        if self.generated:
            match = _COMPONENT.match(str(node["$ref"]))
            where = self.origins.get(match.group(1)) if match is not None else None
            if match is None or where is None:
                return None
            if where.pointer:
                return self.site.paths.schema_link(self.page, where)
            return match.group(1), self.site.paths.href(self.page, Target(self.site.paths.schema_page(where.path)))
        where = self.refs.schema_target(node)
        if where is None:
            return None
        if where.path in self.site.corpus.schemas:
            return self.site.paths.schema_link(self.page, where)
        component = _SCHEMA_COMPONENT.match(where.pointer)
        return (unescape_token(component.group(1)), "") if component else None

    def schema(self, node: Any) -> str:
        return cell(type_of(node, self)) if node else "—"

    def _schema_file(self, schema: Any) -> str | None:
        """The path of the corpus schema a body's schema names as a whole, or None."""
        ref = schema.get("$ref") if isinstance(schema, Mapping) else None
        if not isinstance(ref, str):
            return None
        if self.generated:
            match = _COMPONENT.match(ref)
            where = self.origins.get(match.group(1)) if match is not None else None
            return where.path if where is not None and not where.pointer else None
        where = self.refs.schema_target(schema)
        return (
            where.path if where is not None and where.path in self.site.corpus.schemas and not where.pointer else None
        )

    def example(self, content: Any) -> str:
        """The first valid example of the schema a request or answer body names, as indented JSON
        highlighted once (the mark of its block, see `wopgen.generate.site.blocks`)."""
        if not isinstance(content, Mapping):
            return ""
        for entry in content.values():
            path = self._schema_file(_body_schema(entry))
            if path is None:
                continue
            found = self.site.examples(self.site.corpus.schema_name(path), "valid")
            if found:
                return self.site.blocks.add(json.dumps(found[0].doc.data, indent=2, ensure_ascii=False))
        return ""


def _bodies(content: Any, link: _Components) -> list[str]:
    """One entry per media type of a body: its schema, then the media type."""
    if not isinstance(content, Mapping):
        return []
    out = []
    for media, entry in content.items():
        out.append(f"{link.schema(_body_schema(entry))} (`{media}`)")
    return out


def _body_schema(entry: Any) -> Any:
    """The schema a media type's body is shown by: that of each item of a stream, else the body's."""
    if not isinstance(entry, Mapping):
        return None
    return entry.get(ITEM_SCHEMA_KEY) or entry.get("schema")


def _content_schema(value: Mapping[str, Any]) -> Any:
    """The schema of a parameter or header: its `schema`, else that of its first `content` entry."""
    if "schema" in value:
        return value.get("schema")
    content = value.get("content")
    if isinstance(content, Mapping):
        for entry in content.values():
            return entry.get("schema") if isinstance(entry, Mapping) else None
    return None


_NOWHERE = "(the reference leads nowhere)"  # `wopgen check` reports it as api-ref-unresolved


def _parameter(raw: Mapping[str, Any], link: _Components) -> dict[str, Any]:
    p = link.refs.resolve(raw)
    if p is None:  # named by the reference as written
        return {"name": str(raw.get("$ref", "")), "in": "", "required": False, "type": "—", "description": _NOWHERE}
    place = str(p.get("in", ""))
    return {
        "name": str(p.get("name", "")),
        "in": place,
        "required": bool(p.get("required")) or place == "path",  # a path parameter always is
        "type": link.schema(_content_schema(p)),
        "description": cell(str(p.get("description", ""))),
    }


def _parameters(item: Mapping[str, Any], op: Mapping[str, Any], link: _Components) -> list[dict[str, Any]]:
    """The parameters of an operation: those of its path item, then its own; one of its own with the
    name and place of a path-item one takes that one's place (OpenAPI 3.1, Path Item Object)."""
    rows: list[dict[str, Any]] = []
    row_of: dict[tuple[str, str], int] = {}
    for level in (item.get("parameters"), op.get("parameters")):
        for raw in level if isinstance(level, list) else []:
            if not isinstance(raw, Mapping):
                continue
            row = _parameter(raw, link)
            key = (row["name"], row["in"])
            if row["in"] and key in row_of:
                rows[row_of[key]] = row
            else:
                row_of[key] = len(rows)
                rows.append(row)
    return rows


def _headers(status: str, answer: Mapping[str, Any], link: _Components) -> list[dict[str, str]]:
    """The headers of one response, each with its type and description."""
    headers = answer.get("headers")
    out = []
    for name, raw in headers.items() if isinstance(headers, Mapping) else ():
        if str(name).lower() == "content-type":  # OpenAPI 3.1: a response header of that name is ignored
            continue
        header = link.refs.resolve(raw)
        out.append(
            {
                "status": status,
                "name": str(name),
                "type": link.schema(_content_schema(header)) if header is not None else "—",
                "description": cell(str(header.get("description", ""))) if header is not None else _NOWHERE,
            }
        )
    return out


def _responses(op: Mapping[str, Any], link: _Components) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """The rows of the operation's responses, and those of their headers."""
    rows, headers = [], []
    for status, raw in (op.get("responses") or {}).items():
        answer = link.refs.resolve(raw)
        if answer is None:
            rows.append({"status": str(status), "description": _NOWHERE, "body": "—", "example": ""})
            continue
        rows.append(
            {
                "status": str(status),
                "description": cell(str(answer.get("description", ""))),
                "body": "; ".join(_bodies(answer.get("content"), link)) or "—",
                "example": link.example(answer.get("content")),
            }
        )
        headers += _headers(str(status), answer, link)
    return rows, headers


def _operations(document: Mapping[str, Any], link: _Components) -> list[dict[str, Any]]:
    out = []
    for path, raw_item in (document.get("paths") or {}).items():
        item = link.refs.resolve(raw_item) or {}
        for method in _METHODS:
            op = item.get(method)
            if not isinstance(op, Mapping):
                continue
            operation_id = str(op.get("operationId", f"{method}-{path}"))
            body = link.refs.resolve(op.get("requestBody"))
            responses, headers = _responses(op, link)
            out.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "id": operation_id,
                    "anchor": operation_anchor(operation_id),
                    "tag": one_line((op.get("tags") or ["other"])[0]),
                    "summary": cell(str(op.get("summary", ""))),
                    "description": str(op.get("description", "")),
                    "public": op.get("security") == [],
                    "parameters": _parameters(item, op, link),
                    "bodies": _bodies(body.get("content"), link) if body else [],
                    "body_example": link.example(body.get("content")) if body else "",
                    "body_required": bool(body and body.get("required")),
                    "responses": responses,
                    "headers": headers,
                }
            )
    return out


def _refs(site: SiteContext, document: Mapping[str, Any], source: StandardDocument | None) -> DocumentRefs:
    """The references of the corpus's own document `source`, or of a generated one (self-contained)."""
    return (
        DocumentRefs(site.corpus, source.path, document) if source is not None else DocumentRefs(None, None, document)
    )


def http_page(
    site: SiteContext,
    document: Mapping[str, Any],
    raw: str = OPENAPI_FILE,
    source: StandardDocument | None = None,
    page: str = HTTP,
    heading: str = "HTTP API",
    renamed: str = "",
) -> str:
    """The HTTP page of `document`: the generated one, or `source`, the corpus's own, as written (and
    as it is `published`, as `raw`). `page` is where it goes (its links are made from there), `heading`
    what it is called, `renamed` what takes the source's own file name when `raw` is another."""
    copy = published(site.corpus, source) if source is not None else None
    link = _Components(site, page, _refs(site, document, source), generated=source is None)
    operations = _operations(document, link)
    tags = [t for t in document.get("tags") or [] if isinstance(t, Mapping)]
    known = [one_line(t.get("name")) for t in tags]
    extra = sorted({op["tag"] for op in operations} - set(known))
    groups = [
        {
            "name": name,
            "description": next((str(t.get("description", "")) for t in tags if one_line(t.get("name")) == name), ""),
            "operations": [op for op in operations if op["tag"] == name],
        }
        for name in [*known, *extra]
    ]
    info = document.get("info") or {}
    return site.render(
        "api-http.md.j2",
        heading=heading,
        title=one_line(info.get("title", "API")),
        version=one_line(info.get("version", "")),
        description=str(info.get("description", "")).split("\n\n")[0],
        operations=operations,
        groups=[g for g in groups if g["operations"]],
        raw=raw,
        source=source.path if source is not None else "",
        copy=copy,
        renamed=renamed,
    )


def _message_summary(message: Mapping[str, Any]) -> str:
    """What a message is, in one line: its summary, else its title, else its description's first line."""
    for key in ("summary", "title"):
        if one_line(message.get(key, "")):
            return cell(str(message[key]))
    lines = [line for line in str(message.get("description", "")).splitlines() if line.strip()]
    return cell(lines[0]) if lines else ""


def channels_page(
    site: SiteContext,
    document: Mapping[str, Any],
    raw: str = ASYNCAPI_FILE,
    source: StandardDocument | None = None,
    page: str = CHANNELS,
    heading: str = "Event channel",
    renamed: str = "",
) -> str:
    """The event-channel page of `document`: the generated one, or `source`, the corpus's own; `raw`,
    `page`, `heading` and `renamed` as for `http_page`."""
    copy = published(site.corpus, source) if source is not None else None
    refs = _refs(site, document, source)
    known = {event.type for event in site_events(site)}
    channels = []
    found: list[Mapping[str, Any]] = []
    for key, raw_channel in (document.get("channels") or {}).items():
        channel = refs.resolve(raw_channel)
        if channel is None:
            continue
        rows = []
        listed = channel.get("messages")
        for label, raw_message in listed.items() if isinstance(listed, Mapping) else ():
            message = refs.resolve(raw_message) or {}
            found.append(message)
            named = message.get("name")
            name = str(named) if isinstance(named, str) else str(label)
            rfc = message.get("x-wop-rfc")
            free = message.get("x-wop-content-free")
            rows.append(
                {
                    "name": name,
                    "href": site.paths.href(page, Target(EVENTS), event_anchor(name)) if name in known else "",
                    "summary": _message_summary(message),
                    "rfc": site.rfc_link(page, int(rfc)) if isinstance(rfc, str) and rfc.isdigit() else "baseline",
                    "content_free": "yes" if free is True else ("no" if free is False else "not stated"),
                }
            )
        address = channel.get("address")
        parameters = channel.get("parameters")
        channels.append(
            {
                "key": key,
                "title": one_line(channel.get("title", key)),
                "address": str(address) if isinstance(address, str) else "",
                "description": str(channel.get("description", "")),
                "parameters": [
                    (str(name), cell(str((refs.resolve(p) or {}).get("description", ""))))
                    for name, p in (parameters.items() if isinstance(parameters, Mapping) else ())
                ],
                "messages": rows,
            }
        )
    stated = {key: any(m.get(key) is not None for m in found) for key, _ in MESSAGE_ANNOTATIONS}
    operations = [
        {
            "id": key,
            "action": one_line(op.get("action", "")),
            "summary": cell(str(op.get("summary", "") or op.get("title", ""))),
        }
        for key, op in (document.get("operations") or {}).items()
        if isinstance(op, Mapping)
    ]
    info = document.get("info") or {}
    return site.render(
        "api-events.md.j2",
        heading=heading,
        title=one_line(info.get("title", "Events")),
        description=str(info.get("description", "")).split("\n\n")[0],
        channels=channels,
        operations=operations,
        raw=raw,
        source=source.path if source is not None else "",
        copy=copy,
        renamed=renamed,
        stated=stated,
        untold=[key for key, _ in MESSAGE_ANNOTATIONS if not stated[key]],
    )


@dataclass(frozen=True)
class Placed:
    """Where the site shows one API document. The first OpenAPI and the first AsyncAPI document keep
    the pages every build has given them (the HTTP page, the event-channel page, the Swagger UI page),
    so links to those stay good; each further document gets pages named after its file, listed in the
    nav under `label`. A document generated from the declarative files comes first of its kind."""

    kind: str  # "openapi" | "asyncapi"
    page: str  # its HTTP or event-channel page
    published: str  # the name of its file in the site's API folder
    label: str = ""  # "" for the first of its kind, whose nav entries are the ones the site always had
    try_page: str = ""  # an OpenAPI document's Swagger UI page, and the file that page loads
    try_spec: str = ""
    source: StandardDocument | None = None  # None: the document `wopgen api` generates
    renamed: str = ""  # what the site publishes under the source's own file name, when `published` differs

    @property
    def heading(self) -> str:
        what = "HTTP API" if self.kind == "openapi" else "Event channel"
        return f"{what}: {self.label}" if self.label else what


_GENERATED = (
    Placed("openapi", HTTP, OPENAPI_FILE, try_page=TRY, try_spec=TRY_SPEC),
    Placed("asyncapi", CHANNELS, ASYNCAPI_FILE),
)
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0] if name.endswith((".yaml", ".yml", ".json")) else name


def _claims(path: str) -> set[str]:
    """What a site path occupies once built: a page its folder too (`api/x.md` is served as `api/x/`)."""
    return {path, path.removesuffix(".md")} if path.endswith(".md") else {path}


def _named_first(documents: list[StandardDocument], kind: str) -> list[StandardDocument]:
    """`documents` (in file-name order) with those named after their format (`openapi.yaml`) first."""
    return sorted(documents, key=lambda d: _stem(posixpath.basename(d.path)) != kind)


def placed(site: SiteContext) -> list[Placed]:
    """Every API document the site shows, the first of each kind first (see `Placed`).

    A kind the declarative files describe (operations.yaml: OpenAPI, channels.yaml: AsyncAPI) has the
    generated document first; the corpus's own documents of that kind follow it. Of a kind they do not
    describe, the first is the corpus's own document named as its format names it (`openapi.yaml`,
    `asyncapi.json`), else the first by file name. A further one is named after the file it is
    published as, without the extension (`admin.openapi.yaml`: `api/admin.openapi.md`, and for OpenAPI
    `api/admin.openapi.try.md` loading `api/admin.openapi.try.json`), with `-2`, `-3` added should that
    name be taken by a page or a file the API folder already has (`index.yaml`, `try.json`).

    Every document of the API folder is published under its own file name, which the folder makes
    unique, unless the site writes another file of that name beside it (the generated `openapi.yaml`,
    the Swagger UI copy `openapi.try.json`): then under that name with `-2`, `-3` added before the
    extension (`openapi-2.yaml`), and the copies of the other documents name it so (see `published`).
    Worked out once per corpus: the nav, the pages and each Swagger UI page ask."""
    return _placements(site.corpus)


def _placements(corpus: Corpus) -> list[Placed]:
    return corpus.view(("site-api-placed",), lambda: _placed(corpus))


def _placed(corpus: Corpus) -> list[Placed]:
    api = read_api(corpus)
    if not api.standard:
        return list(_GENERATED)
    declared = {"openapi": api.operations_path, "asyncapi": api.channels_path}
    own = {
        first.kind: _named_first([d for d in api.standard if d.kind == first.kind], first.kind) for first in _GENERATED
    }
    # The generated page of a kind stays when the declarative files describe that kind, or when no
    # document of the corpus's own takes its place (with channels.yaml alone, the HTTP page says so).
    generated = {kind: api.present and (declared[kind] is not None or not own[kind]) for kind in own}
    reserved = {posixpath.basename(TRY_SPEC): "the copy of the OpenAPI document the Swagger UI page loads"}
    for first in _GENERATED:
        source = declared[first.kind]
        if source is not None:
            reserved[first.published] = f"the document generated from `{source}`"
    names = _published_names(api.standard, reserved)
    taken: set[str] = set()
    for path in (HTTP, CHANNELS, TRY, TRY_SPEC, *(f"{FOLDER}/{name}" for name in [*reserved, *names.values()])):
        taken |= _claims(path)
    out: list[Placed] = []
    for first in _GENERATED:
        kind = first.kind
        if generated[kind]:
            out.append(first)
        for number, document in enumerate(own[kind]):
            name = names[document.path]
            renamed = reserved.get(posixpath.basename(document.path), "")
            if number == 0 and not generated[kind]:
                out.append(Placed(kind, first.page, name, "", first.try_page, first.try_spec, document, renamed))
                continue
            base = _UNSAFE.sub("-", _stem(name)).strip("-.") or kind
            suffix = 1
            while True:
                slug = f"{FOLDER}/{base}" if suffix == 1 else f"{FOLDER}/{base}-{suffix}"
                paths = [f"{slug}.md", *((f"{slug}.try.md", f"{slug}.try.json") if kind == "openapi" else ())]
                wanted = set().union(*(_claims(path) for path in paths))
                if not wanted & taken:
                    break
                suffix += 1
            taken |= wanted
            try_page, try_spec = paths[1:] if kind == "openapi" else ("", "")
            label = posixpath.basename(document.path)
            out.append(Placed(kind, paths[0], name, label, try_page, try_spec, document, renamed))
    return out


def source_pages(site: SiteContext) -> dict[str, str]:
    """The page that shows each API file of the corpus (repository path -> site page), and the HTTP
    page for the API folder itself, so a link written to one of them in the prose leads there."""
    api = read_api(site.corpus)
    rendered = ((api.operations_path, HTTP), (api.channels_path, CHANNELS))
    shown = {path: page for path, page in rendered if path}
    shown |= {place.source.path: place.page for place in placed(site) if place.source is not None}
    folder = posixpath.normpath(site.corpus.settings.api)
    if shown and folder != ".":
        shown[folder] = HTTP
    return shown


def _published_names(documents: list[StandardDocument], reserved: Mapping[str, str]) -> dict[str, str]:
    """Document path -> the file name it is published under: its own, or, when that is `reserved`,
    its own with the first free `-2`, `-3` before the extension (one no document of the folder has)."""
    used = {*reserved, *(posixpath.basename(d.path) for d in documents)}
    names: dict[str, str] = {}
    for document in documents:
        name = posixpath.basename(document.path)
        if name in reserved:
            stem = _stem(name)
            extension = name[len(stem) :]
            number = 2
            while f"{stem}-{number}{extension}" in used:
                number += 1
            name = f"{stem}-{number}{extension}"
            used.add(name)
        names[document.path] = name
    return names


def nav(site: SiteContext) -> list[object]:
    """The HTTP and event-channel pages in the nav: the first of each kind as always, then the others."""
    further: list[object] = [{place.heading: place.page} for place in placed(site) if place.label]
    return [HTTP, {"Event channel": CHANNELS}, *further]


@dataclass(frozen=True)
class Published:
    """A corpus's own API document as the site publishes it beside its page.

    The document names the corpus schemas by their paths in the repository (`../schemas/x.schema.json`)
    or by `$id`, which a reader of the published file cannot follow: the site does not serve the
    schemas at those paths, and an `$id` would be fetched from the network. So a document with such
    `$ref`s is published as the copy `bundling` makes, the schemas in it; one without is published
    byte for byte as written, since it needs nothing. Its page says which, and names every reference
    that leads nowhere in the published file (templates/site/_api-published.md.j2).
    """

    text: str  # the published file
    data: dict[str, Any] | None  # the document standing on its own, for Swagger UI; None when none can be made
    bundled: tuple[str, ...]  # the components the corpus schemas were bundled under; () for the file as written
    unresolved: tuple[tuple[str, str], ...]  # (`$ref`, why) for each that leads nowhere in the published file
    problem: str = ""  # why the schemas could not be bundled, in which case the file is as written
    as_written: bool = True  # the file byte for byte, else a copy
    siblings: int = 0  # the copy's references into the other API documents, which name them beside it


def published(corpus: Corpus, document: StandardDocument) -> Published:
    """How `document` is published (see `Published`): made once per corpus, for its page and its
    Swagger UI page alike."""
    return corpus.view(("site-api-published", document.path), lambda: _published(corpus, document))


_DANGLING = "points at nothing in this document"


def _dangling(corpus: Corpus, path: str, data: Any) -> list[tuple[str, str]]:
    """The `$ref`s of `data` (the document at `path` or its copy) that point inside it at nothing, as
    `wopgen check` reads them (api-ref-unresolved)."""
    return [
        (ref, _DANGLING)
        for _where, ref in ref_strings(data)
        if ref.startswith("#") and corpus.graph.document_ref_problem(path, data, ref)
    ]


def _published(corpus: Corpus, document: StandardDocument) -> Published:
    data = document.doc.data
    outside = [ref for _where, ref in ref_strings(data) if not ref.startswith("#")]
    beside = {place.source.path: place.published for place in _placements(corpus) if place.source is not None}
    try:
        bundled = bundling(corpus, document.path, data, beside)
    except BundleError as exc:
        return _as_written(corpus, document, outside, None, str(exc))
    copy = bundled.document
    if not outside or copy == json.loads(json.dumps(data)):  # it needs nothing, or names its siblings so already
        return _as_written(corpus, document, [], copy)
    try:
        text = json.dumps(copy, indent=2, ensure_ascii=False) + "\n" if document.path.endswith(".json") else dump(copy)
    except ApiError as exc:  # nested too deeply for the YAML writer
        return _as_written(corpus, document, outside, copy, str(exc))
    taken_out = [(ref, _taken_out(corpus, document, ref)) for ref in bundled.unbundled]
    unresolved = tuple(_unique(taken_out + _dangling(corpus, document.path, copy)))
    return Published(text, copy, bundled.schemas, unresolved, as_written=False, siblings=len(bundled.siblings))


def _taken_out(corpus: Corpus, document: StandardDocument, ref: str) -> str:
    """Why the bundled copy of `document` carries `ref` only as a note: it leads nowhere, or into a file
    of the corpus that is no schema (another API document), which the copy does not carry."""
    target = corpus.graph.document_ref(document.path, document.doc.data, ref)[0]
    kept = f"the copy keeps it as `{UNBUNDLED}`"
    if target is None:
        return f"leads nowhere (`wopgen check` reports it as `api-ref-unresolved`); {kept}"
    return f"leads into `{target.path}`, which is neither a schema nor an API document; {kept}"


def _as_written(
    corpus: Corpus, document: StandardDocument, outside: list[str], alone: dict[str, Any] | None, problem: str = ""
) -> Published:
    """`document` published byte for byte: it needs no other file, or (`problem`) no copy could be made
    that does, and each of its `outside` references names a file the site does not publish there."""
    missed = [(ref, "left as written: the file it names is not published with it") for ref in outside]
    dangling = _dangling(corpus, document.path, document.doc.data)
    return Published(document.doc.text, alone, (), tuple(_unique(missed + dangling)), problem)


def _unique(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return list(dict.fromkeys(pairs))


def _generated_pages(site: SiteContext, places: list[Placed]) -> Pages:
    """The pages of the documents `wopgen api` generates from operations.yaml/channels.yaml, and the
    documents beside them; when they cannot be generated, each page says why. A kind nothing is
    generated for (channels.yaml without operations.yaml) is left to the note `pages` gives it."""
    if not places:
        return {}
    try:
        documents = api_documents(site.corpus)
    except ApiError as exc:
        note = site.render("api-missing.md.j2", reason=str(exc))
        return {place.page: _titled(note, place.kind) for place in places}
    # The pages read the documents as built; the files published next to them are their YAML text.
    out: Pages = {f"{FOLDER}/{name}": dump(document) for name, document in documents.items()}
    for place in places:
        if place.published in documents:
            render = http_page if place.kind == "openapi" else channels_page
            out[place.page] = render(site, documents[place.published], place.published, None, place.page)
    return out


def _standard_pages(site: SiteContext, places: list[Placed]) -> Pages:
    """The pages of OpenAPI / AsyncAPI documents kept in the API folder as written: each is published
    (see `Published`) and gets its page."""
    out: Pages = {}
    for place in places:
        source = place.source
        if source is None:
            continue
        out[f"{FOLDER}/{place.published}"] = published(site.corpus, source).text
        render = http_page if place.kind == "openapi" else channels_page
        out[place.page] = render(
            site, source.doc.data, place.published, source, place.page, place.heading, place.renamed
        )
    return out


def _titled(note: str, kind: str) -> str:
    """The note of `api-missing.md.j2` (titled for the HTTP page) as the page of `kind` has it."""
    return note if kind == "openapi" else note.replace("# HTTP API", "# Event channel", 1)


def openapi_data(site: SiteContext, place: Placed) -> Mapping[str, Any] | None:
    """The OpenAPI document `place` shows, for tools that read it as one file (its Swagger UI page),
    standing on its own: the corpus's own document is a copy whose `$ref`s into the schemas point at
    copies of them bundled into it (`Published.data`); the generated one is bundled already. None when
    there is none or it cannot be bundled."""
    if place.source is not None:
        return published(site.corpus, place.source).data
    try:
        return api_documents(site.corpus).get(OPENAPI_FILE)
    except ApiError:
        return None


def pages(site: SiteContext) -> Pages:
    """Every API page and the documents published beside them: the generated ones first, then the
    corpus's own (see `placed`)."""
    places = placed(site)
    out = _generated_pages(site, [place for place in places if place.source is None])
    out.update(_standard_pages(site, places))
    note = site.render("api-missing.md.j2", reason="the API folder has no document of this kind")
    for page, kind in ((HTTP, "openapi"), (CHANNELS, "asyncapi")):  # a kind the corpus has no document of
        out.setdefault(page, _titled(note, kind))
    return out


def sources(site: SiteContext) -> dict[str, str]:
    """Each API page -> the corpus file it is rendered from, for its edit link: the corpus's own
    document, or the declarative file the generated one is made from (none for a page of a kind the
    declarative files do not describe)."""
    api = read_api(site.corpus)
    declared = {"openapi": api.operations_path, "asyncapi": api.channels_path}
    out: dict[str, str] = {}
    for place in placed(site):
        path = place.source.path if place.source is not None else declared[place.kind]
        if path is not None:
            out.update(dict.fromkeys(filter(None, (place.page, place.try_page)), path))
    return out
