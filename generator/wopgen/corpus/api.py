"""Read the declarative API description (`spec/api/operations.yaml`, `spec/api/channels.yaml`).

`read_api(corpus)` turns the parsed YAML into typed records and reports every shape problem
(unknown key, missing key, wrong type or value) as a diagnostic with its file and line. The format
is documented in CONTRIBUTING.md, "API descriptions"; the generator and the `api-*` checks share
this one reader. An OpenAPI or AsyncAPI document kept in the folder instead is read as written;
`DocumentRefs` follows its `$ref`s (through the graph's `document_ref`) for whoever renders it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from wopgen.corpus import Corpus
from wopgen.corpus.documents import YamlDoc, YamlList, YamlMap
from wopgen.corpus.graph import Located, value_at
from wopgen.corpus_rules import API_FORMAT, API_SHAPE
from wopgen.diagnostics import Diagnostic

OPERATIONS_FILE = "operations.yaml"
CHANNELS_FILE = "channels.yaml"

SHAPE = API_SHAPE  # the one rule of the API reader, defined with the loader's rules

FORMAT = API_FORMAT

METHODS = ("get", "post", "put", "patch", "delete")
PARAMETER_PLACES = ("path", "query", "header")
AUTH = ("public", "bearer")
STREAMS = ("sse",)
ACTIONS = ("receive", "send")
TRANSPORTS = ("sse",)
_OPERATION_ID = re.compile(r"^[a-z][A-Za-z0-9]*$")
_RFC = re.compile(r"^\d{4}$")
_STATUS = re.compile(r"^[1-5]\d\d$")
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # a field name: an RFC 9110 token
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_TEMPLATE = re.compile(r"\{([^{}]+)\}")


def template_names(text: str) -> list[str]:
    """The `{name}` expressions of a path template or a channel address, in order."""
    return _TEMPLATE.findall(text)


@dataclass(frozen=True)
class Where:
    path: str
    line: int


@dataclass(frozen=True)
class Parameter:
    name: str
    place: str
    required: bool
    description: str
    schema: dict[str, Any]
    where: Where


@dataclass(frozen=True)
class Header:
    name: str
    description: str
    schema: dict[str, Any]


@dataclass(frozen=True)
class Response:
    status: str
    schema: str
    description: str
    where: Where
    headers: tuple[Header, ...] = ()


@dataclass(frozen=True)
class ErrorUse:
    code: str
    status: int
    description: str
    where: Where
    headers: tuple[Header, ...] = ()


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    tag: str
    summary: str
    description: str
    rfc: str | None
    capability: str | None
    capability_minimum: int | None
    auth: str
    parameters: list[Parameter]
    request: str | None
    request_where: Where
    request_required: bool  # whether a request with no body is refused (OpenAPI's requestBody.required)
    responses: list[Response]
    errors: list[ErrorUse]
    stream: str | None
    where: Where

    def path_names(self) -> list[str]:
        return template_names(self.path)


@dataclass(frozen=True)
class Message:
    type: str
    summary: str | None
    where: Where


@dataclass(frozen=True)
class Channel:
    id: str
    address: str
    transport: str
    title: str
    description: str
    parameters: list[tuple[str, str]]
    envelope: str
    payloads: str
    operation_id: str
    action: str
    operation_summary: str
    messages: list[Message]
    where: Where
    envelope_where: Where
    payloads_where: Where


@dataclass(frozen=True)
class Tag:
    name: str
    description: str


@dataclass(frozen=True)
class StandardDocument:
    """An OpenAPI or AsyncAPI document kept in the API folder instead of the declarative files."""

    kind: str  # "openapi" | "asyncapi"
    version: str
    doc: YamlDoc

    @property
    def path(self) -> str:
        return self.doc.path


def standard_kind(data: Any) -> tuple[str, str] | None:
    """("openapi" | "asyncapi", version) when `data` is the top of such a document, else None."""
    if not isinstance(data, dict):
        return None
    for kind in ("openapi", "asyncapi"):
        version = data.get(kind)
        if isinstance(version, str | int | float):
            return kind, str(version)
    return None


# The members a Reference Object (or a schema that is only a `$ref`) may carry beside `$ref`
# without adding anything to what it stands for.
_NOTES = frozenset({"$ref", "summary", "description", "title", "$comment"})


class DocumentRefs:
    """The `$ref`s of one OpenAPI or AsyncAPI document, followed as those formats follow them.

    A ref is read relative to the file it is written in: a pointer into the document itself, into a
    schema of the corpus, or into another file of the corpus (a shared fragment of the API folder).
    `path` None stands for a document that is no corpus file (the ones `wopgen api` renders, which are
    self-contained): only its own pointers lead anywhere. Nothing is fetched.
    """

    def __init__(self, corpus: Corpus | None, path: str | None, data: Any) -> None:
        self.corpus = corpus
        self.path = path or ""
        self.data = data

    def _data(self, path: str) -> tuple[bool, Any]:
        if path == self.path:
            return True, self.data
        corpus = self.corpus
        if corpus is not None and path in corpus.schemas:
            return True, corpus.schemas[path].data
        if corpus is not None and path in corpus.api:
            return True, corpus.api[path].data
        return False, None

    def target(self, ref: str, written_in: str | None = None) -> Located | None:
        """Where `ref`, written in the file `written_in` (default: this document), leads; None when
        it leads nowhere (`wopgen check` reports it as `api-ref-unresolved`)."""
        at = self.path if written_in is None else written_in
        if self.corpus is None or not self.path:
            if not ref.startswith("#"):
                return None
            pointer = ref[1:]
            return Located(at, pointer) if value_at(self.data, pointer)[0] else None
        known, data = self._data(at)
        return self.corpus.graph.document_ref(at, data, ref)[0] if known else None

    def value(self, where: Located) -> tuple[bool, Any]:
        """(found, value) at a location `target` gave."""
        known, data = self._data(where.path)
        return value_at(data, where.pointer) if known else (False, None)

    def resolve(self, node: Any) -> Mapping[str, Any] | None:
        """The object a Reference Object stands for (a parameter, a response, a request body, a
        header, a message, a channel parameter): its `$ref`s followed, however many, to an object
        without one, with the `summary` and `description` written beside a `$ref` taking the place of
        the target's (as OpenAPI 3.1 says). `node` itself when it is no reference; None when a `$ref`
        leads nowhere, to something that is not an object, or round in a loop."""
        if not isinstance(node, Mapping):
            return None
        notes: dict[str, Any] = {}
        seen: set[Located] = set()
        at: str | None = None
        while isinstance(node.get("$ref"), str):
            for key in ("summary", "description"):
                if key in node and key not in notes:
                    notes[key] = node[key]
            where = self.target(node["$ref"], at)
            if where is None or where in seen:
                return None
            seen.add(where)
            found, node = self.value(where)
            if not found or not isinstance(node, Mapping):
                return None
            at = where.path
        return {**node, **notes} if notes else node

    def schema_target(self, node: Mapping[str, Any]) -> Located | None:
        """Where the schema `{"$ref": ...}` of this document stands: a node of a corpus schema, or,
        when the chain of references ends inside the API files, the last schema there that is more
        than a `$ref` (a component written inline). References that add nothing (a component that is
        only a `$ref`, maybe with notes) are followed; None when one leads nowhere or loops."""
        seen: set[Located] = set()
        at: str | None = None
        while True:
            where = self.target(str(node["$ref"]), at)
            if where is None or where in seen:
                return None
            if self.corpus is not None and where.path in self.corpus.schemas:
                return where
            seen.add(where)
            found, value = self.value(where)
            if not found:
                return None
            if not (isinstance(value, Mapping) and isinstance(value.get("$ref"), str) and set(value) <= _NOTES):
                return where
            node, at = value, where.path


@dataclass
class ApiDescription:
    title: str = ""
    version: str = ""
    description: str = ""
    tags: list[Tag] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    operations_path: str | None = None
    channels_path: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    standard: list[StandardDocument] = field(default_factory=list)  # OpenAPI / AsyncAPI documents as written

    @property
    def present(self) -> bool:
        return self.operations_path is not None or self.channels_path is not None


class _Shape:
    """Checks one mapping against its allowed and required keys, collecting diagnostics."""

    def __init__(self, path: str, out: list[Diagnostic]) -> None:
        self.path = path
        self.out = out

    def problem(self, line: int, message: str, hint: str = "") -> None:
        self.out.append(SHAPE.at(self.path, line, message, hint or "see CONTRIBUTING.md, API descriptions"))

    def mapping(self, value: Any, line: int, what: str, required: tuple[str, ...], optional: tuple[str, ...]) -> bool:
        if not isinstance(value, dict):
            self.problem(line, f"{what} must be a mapping")
            return False
        known = required + optional
        for key in value:
            if key not in known:
                self.problem(_line(value, key), f"{what}: unknown key {key!r}", f"known keys: {', '.join(known)}")
        for key in required:
            if key not in value:
                self.problem(_line(value, None), f"{what}: missing key {key!r}")
        return True

    def text(self, value: Any, key: str, what: str) -> str:
        got = value.get(key)
        if key in value and (not isinstance(got, str) or not got.strip()):
            self.problem(_line(value, key), f"{what}: {key} must be a non-empty string")
            return ""
        return got if isinstance(got, str) else ""

    def choice(self, value: Any, key: str, what: str, choices: tuple[str, ...]) -> str:
        got = value.get(key)
        if key in value and got not in choices:
            self.problem(_line(value, key), f"{what}: {key} is {got!r}; expected one of {', '.join(choices)}")
            return ""
        return got if isinstance(got, str) else ""

    def schema(self, value: Any, key: str, what: str) -> dict[str, Any] | None:
        """`value[key]` as an inline JSON Schema (plain data), or None with a problem when it is not a mapping."""
        got = value.get(key)
        if not isinstance(got, dict):
            self.problem(_line(value, key), f"{what}: {key} must be an inline JSON Schema mapping")
            return None
        return dict(_plain(got))

    def items(self, value: Any, key: str, what: str) -> list[tuple[Any, int]]:
        got = value.get(key)
        if key not in value:
            return []
        if not isinstance(got, list):
            self.problem(_line(value, key), f"{what}: {key} must be a list")
            return []
        if not isinstance(got, YamlList):
            return [(item, _line(value, key)) for item in got]
        return [(item, got.line_of(i)) for i, item in enumerate(got)]


def _line(value: Any, key: str | None) -> int:
    if isinstance(value, YamlMap):
        return value.line_of(key) if key is not None else value.line
    return 1


def _where(path: str, value: Any, key: str | None = None) -> Where:
    return Where(path, _line(value, key))


def read_api(corpus: Corpus) -> ApiDescription:
    """The API description of the corpus; `present` is false when the corpus has none.

    Read once per corpus: every later call returns the same description.
    """
    return corpus.view(("api",), lambda: _read_api(corpus))


def _read_api(corpus: Corpus) -> ApiDescription:
    api = ApiDescription()
    folder = corpus.settings.api.rstrip("/")
    docs = {doc.path.removeprefix(folder + "/"): doc for doc in corpus.api.values()}
    if OPERATIONS_FILE in docs:
        api.operations_path = docs[OPERATIONS_FILE].path
        _read_operations(docs[OPERATIONS_FILE], api)
    if CHANNELS_FILE in docs:
        api.channels_path = docs[CHANNELS_FILE].path
        _read_channels(docs[CHANNELS_FILE], api)
    for name, doc in sorted(docs.items()):
        if name in (OPERATIONS_FILE, CHANNELS_FILE):
            continue
        found = standard_kind(doc.data)
        if found is not None:
            api.standard.append(StandardDocument(found[0], found[1], doc))
            continue
        _Shape(doc.path, api.diagnostics).problem(
            1,
            f"unknown API description file {name!r}",
            f"expected {OPERATIONS_FILE} and {CHANNELS_FILE}, or an OpenAPI 3.1 / AsyncAPI 3.x document",
        )
    if not api.present and not api.standard and corpus.exists(folder):
        api.diagnostics.append(
            FORMAT.at(
                folder,
                1,
                f"{folder}/ holds no API description wopgen can read",
                f"add {OPERATIONS_FILE}/{CHANNELS_FILE} (see CONTRIBUTING.md) or an openapi.yaml (3.1) / "
                "asyncapi.yaml (3.x), or point [tool.wopgen] api elsewhere",
            )
        )
    return api


def _read_operations(doc: YamlDoc, api: ApiDescription) -> None:
    shape = _Shape(doc.path, api.diagnostics)
    top = doc.data
    if not shape.mapping(top, 1, "operations.yaml", ("operations",), ("info", "tags")):
        return
    info = top.get("info")
    if "info" in top and shape.mapping(info, _line(top, "info"), "info", ("title", "version"), ("description",)):
        api.title = shape.text(info, "title", "info")
        api.version = shape.text(info, "version", "info")
        api.description = shape.text(info, "description", "info")
    for item, line in shape.items(top, "tags", "operations.yaml"):
        if shape.mapping(item, line, "tag", ("name", "description"), ()):
            api.tags.append(Tag(shape.text(item, "name", "tag"), shape.text(item, "description", "tag")))
    for item, line in shape.items(top, "operations", "operations.yaml"):
        operation = _read_operation(shape, item, line)
        if operation is not None:
            api.operations.append(operation)


_OPERATION_KEYS = (
    "operationId",
    "method",
    "path",
    "tag",
    "summary",
    "description",
    "rfc",
    "capability",
    "auth",
    "parameters",
    "request",
    "responses",
    "errors",
)


def _read_operation(shape: _Shape, item: Any, line: int) -> Operation | None:
    if not shape.mapping(item, line, "operation", _OPERATION_KEYS, ("capabilityMinimum", "stream")):
        return None
    op_id = shape.text(item, "operationId", "operation")
    what = f"operation {op_id or '?'}"
    if op_id and not _OPERATION_ID.match(op_id):
        shape.problem(_line(item, "operationId"), f"{what}: operationId must be camelCase letters and digits")
    path = shape.text(item, "path", what)
    if path and not path.startswith("/"):
        shape.problem(_line(item, "path"), f"{what}: path must start with '/'")
    rfc = item.get("rfc")
    if rfc is not None and not (isinstance(rfc, str) and _RFC.match(rfc)):
        shape.problem(_line(item, "rfc"), f'{what}: rfc must be a quoted four-digit string such as "0081", or null')
        rfc = None
    capability = item.get("capability")
    if capability is not None and not (isinstance(capability, str) and _DOTTED.match(capability)):
        shape.problem(_line(item, "capability"), f"{what}: capability must be a dotted discovery path, or null")
        capability = None
    minimum = item.get("capabilityMinimum")
    if minimum is not None and (isinstance(minimum, bool) or not isinstance(minimum, int)):
        shape.problem(_line(item, "capabilityMinimum"), f"{what}: capabilityMinimum must be an integer")
        minimum = None
    if minimum is not None and capability is None:
        shape.problem(_line(item, "capabilityMinimum"), f"{what}: capabilityMinimum needs a capability")
    parameters = [
        p for p in (_read_parameter(shape, v, ln, what) for v, ln in shape.items(item, "parameters", what)) if p
    ]
    request, request_where, request_required = None, _where(shape.path, item, "request"), True
    raw_request = item.get("request")
    if raw_request is not None and shape.mapping(
        raw_request, _line(item, "request"), f"{what}: request", ("schema",), ("required",)
    ):
        request = shape.text(raw_request, "schema", f"{what}: request") or None
        request_where = _where(shape.path, raw_request, "schema")
        request_required = raw_request.get("required", True)
        if not isinstance(request_required, bool):
            shape.problem(_line(raw_request, "required"), f"{what}: request required must be true or false")
            request_required = True
    responses = _read_responses(shape, item, what)
    errors = [e for e in (_read_error(shape, v, ln, what) for v, ln in shape.items(item, "errors", what)) if e]
    return Operation(
        operation_id=op_id,
        method=shape.choice(item, "method", what, METHODS),
        path=path,
        tag=shape.text(item, "tag", what),
        summary=shape.text(item, "summary", what),
        description=shape.text(item, "description", what),
        rfc=rfc,
        capability=capability,
        capability_minimum=minimum,
        auth=shape.choice(item, "auth", what, AUTH),
        parameters=parameters,
        request=request,
        request_where=request_where,
        request_required=request_required,
        responses=responses,
        errors=errors,
        stream=shape.choice(item, "stream", what, STREAMS) or None,
        where=_where(shape.path, item),
    )


def _read_parameter(shape: _Shape, item: Any, line: int, what: str) -> Parameter | None:
    keys = ("name", "in", "required", "description", "schema")
    if not shape.mapping(item, line, f"{what}: parameter", keys, ()):
        return None
    name = shape.text(item, "name", f"{what}: parameter")
    required = item.get("required")
    if not isinstance(required, bool):
        shape.problem(_line(item, "required"), f"{what}: parameter {name}: required must be true or false")
        required = False
    schema = shape.schema(item, "schema", f"{what}: parameter {name}")
    return Parameter(
        name=name,
        place=shape.choice(item, "in", f"{what}: parameter {name}", PARAMETER_PLACES),
        required=required,
        description=shape.text(item, "description", f"{what}: parameter {name}"),
        schema={} if schema is None else schema,
        where=_where(shape.path, item),
    )


def _read_responses(shape: _Shape, item: Any, what: str) -> list[Response]:
    raw = item.get("responses")
    if "responses" not in item:
        return []
    if not isinstance(raw, dict) or not raw:
        shape.problem(_line(item, "responses"), f"{what}: responses must map at least one status to a response")
        return []
    found = []
    for status, value in raw.items():
        key_line = _line(raw, status)
        if not isinstance(status, str) or not _STATUS.match(status) or not status.startswith("2"):
            shape.problem(key_line, f'{what}: response status {status!r} must be a quoted 2xx code such as "200"')
            continue
        if shape.mapping(value, key_line, f"{what}: response {status}", ("schema", "description"), ("headers",)):
            found.append(
                Response(
                    status,
                    shape.text(value, "schema", f"{what}: response {status}"),
                    shape.text(value, "description", f"{what}: response {status}"),
                    _where(shape.path, value, "schema"),
                    _read_headers(shape, value, f"{what}: response {status}"),
                )
            )
    return found


def _read_error(shape: _Shape, item: Any, line: int, what: str) -> ErrorUse | None:
    if not shape.mapping(item, line, f"{what}: error", ("code", "status", "description"), ("headers",)):
        return None
    status = item.get("status")
    if isinstance(status, bool) or not isinstance(status, int) or not 400 <= status <= 599:
        shape.problem(_line(item, "status"), f"{what}: error status must be an HTTP error status (400-599)")
        return None
    code = shape.text(item, "code", f"{what}: error")
    return ErrorUse(
        code=code,
        status=status,
        description=shape.text(item, "description", f"{what}: error"),
        where=_where(shape.path, item),
        headers=_read_headers(shape, item, f"{what}: error {code}"),
    )


def _read_headers(shape: _Shape, item: Any, what: str) -> tuple[Header, ...]:
    """The response headers an answer documents: `{<Name>: {description, schema}}`, `schema` an inline
    JSON Schema of the header's value."""
    raw = item.get("headers")
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not raw:
        shape.problem(_line(item, "headers"), f"{what}: headers must map at least one header name to its description")
        return ()
    found = []
    for name, value in raw.items():
        line = _line(raw, name)
        if not isinstance(name, str) or not _HEADER_NAME.match(name):
            shape.problem(line, f"{what}: {name!r} is not an HTTP header name")
            continue
        if not shape.mapping(value, line, f"{what}: header {name}", ("description", "schema"), ()):
            continue
        schema = shape.schema(value, "schema", f"{what}: header {name}")
        if schema is not None:
            found.append(Header(name, shape.text(value, "description", f"{what}: header {name}"), schema))
    return tuple(found)


def _read_channels(doc: YamlDoc, api: ApiDescription) -> None:
    shape = _Shape(doc.path, api.diagnostics)
    top = doc.data
    if not shape.mapping(top, 1, "channels.yaml", ("channels",), ()):
        return
    keys = (
        "id",
        "address",
        "transport",
        "title",
        "description",
        "parameters",
        "envelope",
        "payloads",
        "operation",
        "messages",
    )
    for item, line in shape.items(top, "channels", "channels.yaml"):
        if not shape.mapping(item, line, "channel", keys, ()):
            continue
        channel_id = shape.text(item, "id", "channel")
        what = f"channel {channel_id or '?'}"
        parameters = []
        for value, ln in shape.items(item, "parameters", what):
            if shape.mapping(value, ln, f"{what}: parameter", ("name", "description"), ()):
                parameters.append(
                    (
                        shape.text(value, "name", f"{what}: parameter"),
                        shape.text(value, "description", f"{what}: parameter"),
                    )
                )
        operation = item.get("operation")
        op_id = action = op_summary = ""
        if "operation" in item and shape.mapping(
            operation, _line(item, "operation"), f"{what}: operation", ("operationId", "action", "summary"), ()
        ):
            op_id = shape.text(operation, "operationId", f"{what}: operation")
            action = shape.choice(operation, "action", f"{what}: operation", ACTIONS)
            op_summary = shape.text(operation, "summary", f"{what}: operation")
        messages = []
        for value, ln in shape.items(item, "messages", what):
            if shape.mapping(value, ln, f"{what}: message", ("type",), ("summary",)):
                summary = shape.text(value, "summary", f"{what}: message") or None
                messages.append(
                    Message(shape.text(value, "type", f"{what}: message"), summary, _where(shape.path, value))
                )
        api.channels.append(
            Channel(
                id=channel_id,
                address=shape.text(item, "address", what),
                transport=shape.choice(item, "transport", what, TRANSPORTS),
                title=shape.text(item, "title", what),
                description=shape.text(item, "description", what),
                parameters=parameters,
                envelope=shape.text(item, "envelope", what),
                payloads=shape.text(item, "payloads", what),
                operation_id=op_id,
                action=action,
                operation_summary=op_summary,
                messages=messages,
                where=_where(shape.path, item),
                envelope_where=_where(shape.path, item, "envelope"),
                payloads_where=_where(shape.path, item, "payloads"),
            )
        )


def _plain(value: Any) -> Any:
    """Plain dicts and lists (the YAML loader's line-keeping types are not for output)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
