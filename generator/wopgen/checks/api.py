"""API description rules: the shape of `spec/api/*.yaml`, what it refers to, and the documents
`wopgen api` renders from it, validated by openapi-spec-validator and by the official AsyncAPI 3.0
JSON Schema (vendored from `@asyncapi/specs`, see `ASYNCAPI_SPECS_VERSION`)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

from wopgen.checks import standard_api
from wopgen.corpus import Corpus
from wopgen.corpus.api import ApiDescription, Channel, Operation, Where, read_api, template_names
from wopgen.corpus.events import TYPE_ENUM, TYPE_INDEX, event_types, type_index
from wopgen.corpus.graph import Located
from wopgen.diagnostics import Diagnostic, Rule, define
from wopgen.generate.api import ASYNCAPI_VERSION, ERROR_SCHEMA, HTTP_STATUS_KEY, asyncapi_document, openapi_document
from wopgen.generate.bundle import BundleError

ASYNCAPI_SPECS_VERSION = standard_api.ASYNCAPI_SPECS_VERSION
DISCOVERY_SCHEMA = "capabilities"

SCHEMA_UNRESOLVED = define(
    "api-schema-unresolved", "error", "An operation or channel names a schema that is not in the corpus."
)
ROUTE_DUPLICATE = define("api-route-duplicate", "error", "Two operations share a method and path.")
PATH_PARAMETERS = define(
    "api-path-parameters",
    "error",
    "A `{name}` of an operation's path has no required `in: path` parameter, or a path parameter is not in the path.",
)
CHANNEL_PARAMETERS = standard_api.CHANNEL_PARAMETERS
ERROR_CODE_UNKNOWN = define(
    "api-error-code-unknown",
    "error",
    "An operation answers with an error code that the error envelope's `x-wop-http-status` does not list.",
)
ERROR_STATUS = define(
    "api-error-status",
    "error",
    "An operation sends an error code with another HTTP status than the error envelope's `x-wop-http-status`.",
)
EVENT_MESSAGE = define(
    "api-event-message",
    "error",
    "The event channel does not have exactly one message per RunEventType value, or names an unknown type.",
)
CAPABILITY_UNKNOWN = define(
    "api-capability-unknown",
    "error",
    "An operation is gated on a capability path that the discovery schema does not declare.",
)
TAG_UNDECLARED = define(
    "api-tag-undeclared", "warning", "An operation's tag is not declared in the `tags` list of operations.yaml."
)
RFC_UNKNOWN = define(
    "api-rfc-unknown",
    "error",
    "An operation names an RFC that is neither in the corpus nor in [tool.wopgen] external-rfcs.",
)
OPENAPI_INVALID = standard_api.OPENAPI_INVALID
ASYNCAPI_INVALID = standard_api.ASYNCAPI_INVALID


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    from wopgen.checks.gate import blocking  # here: the gate imports the checks package

    api = read_api(corpus)
    yield from api.diagnostics
    # The rest reads schemas through the registry and renders the documents, which means nothing
    # (and can recurse forever) until the schema findings that block generation are fixed.
    blocked = (api.standard or api.present) and blocking(corpus)
    if api.standard and not blocked:
        yield from standard_api.check(corpus, api.standard)
    if not api.present or blocked:
        return
    yield from _references(corpus, api)
    yield from _identities(api)
    yield from _errors(corpus, api)
    yield from _messages(corpus, api)
    yield from _capabilities(corpus, api)
    if not api.diagnostics:
        yield from _rendered(corpus, api)


def _at(rule: Rule, where: Where, message: str, hint: str = "") -> Diagnostic:
    return rule.at(where.path, where.line, message, hint)


def _references(corpus: Corpus, api: ApiDescription) -> Iterator[Diagnostic]:
    known = corpus.schemas_by_name
    hint = "use a schema file name without .schema.json, e.g. run-snapshot"
    for op in api.operations:
        if op.request and op.request not in known:
            yield _at(SCHEMA_UNRESOLVED, op.request_where, f"{op.operation_id}: no schema named {op.request!r}", hint)
        for response in op.responses:
            if response.schema and response.schema not in known:
                yield _at(
                    SCHEMA_UNRESOLVED,
                    response.where,
                    f"{op.operation_id}: response {response.status}: no schema named {response.schema!r}",
                    hint,
                )
        if op.rfc is not None:
            number = int(op.rfc)
            if number not in corpus.rfcs_by_number and number not in corpus.settings.external_rfcs:
                yield _at(
                    RFC_UNKNOWN,
                    op.where,
                    f"{op.operation_id}: RFC {op.rfc} is not in the corpus",
                    "add the RFC or list its number in [tool.wopgen] external-rfcs",
                )
    for channel in api.channels:
        for name, where in ((channel.envelope, channel.envelope_where), (channel.payloads, channel.payloads_where)):
            if name and name not in known:
                yield _at(SCHEMA_UNRESOLVED, where, f"channel {channel.id}: no schema named {name!r}", hint)


def _identities(api: ApiDescription) -> Iterator[Diagnostic]:
    named = [(o.operation_id, o.where) for o in api.operations] + [(c.operation_id, c.where) for c in api.channels]
    yield from standard_api.operation_ids_repeated([(name, where.path, where.line) for name, where in named])
    for channel in api.channels:
        yield from _channel_parameters(channel)
    routes: set[tuple[str, str]] = set()
    declared_tags = {t.name for t in api.tags}
    for op in api.operations:
        route = (op.method, op.path)
        if route in routes:
            yield _at(ROUTE_DUPLICATE, op.where, f"{op.method.upper()} {op.path} is declared twice")
        routes.add(route)
        yield from _path_parameters(op)
        if declared_tags and op.tag and op.tag not in declared_tags:
            yield _at(TAG_UNDECLARED, op.where, f"{op.operation_id}: tag {op.tag!r} is not declared", "add it to tags:")


def _path_parameters(op: Operation) -> Iterator[Diagnostic]:
    in_path = {p.name: p for p in op.parameters if p.place == "path"}
    for name in op.path_names():
        param = in_path.get(name)
        if param is None:
            yield _at(
                PATH_PARAMETERS,
                op.where,
                f"{op.operation_id}: the path names {{{name}}} but no parameter has name {name!r} and in: path",
            )
        elif not param.required:
            yield _at(
                PATH_PARAMETERS, param.where, f"{op.operation_id}: path parameter {name!r} must be required: true"
            )
    for name, param in in_path.items():
        if name not in op.path_names():
            yield _at(PATH_PARAMETERS, param.where, f"{op.operation_id}: path parameter {name!r} is not in {op.path}")


def _channel_parameters(channel: Channel) -> Iterator[Diagnostic]:
    in_address = template_names(channel.address)
    declared = [name for name, _text in channel.parameters]
    for name in in_address:
        if name not in declared:
            yield _at(
                CHANNEL_PARAMETERS,
                channel.where,
                f"channel {channel.id}: the address names {{{name}}} but no parameter has name {name!r}",
            )
    for name in declared:
        if name not in in_address:
            yield _at(
                CHANNEL_PARAMETERS,
                channel.where,
                f"channel {channel.id}: parameter {name!r} is not in {channel.address}",
            )


def _errors(corpus: Corpus, api: ApiDescription) -> Iterator[Diagnostic]:
    envelope = corpus.schemas_by_name.get(ERROR_SCHEMA)
    table = envelope.data.get(HTTP_STATUS_KEY) if envelope is not None and isinstance(envelope.data, dict) else None
    statuses = table if isinstance(table, dict) else {}
    for op in api.operations:
        for error in op.errors:
            if error.code not in statuses:
                known = ", ".join(sorted(statuses)) or "none"
                yield _at(
                    ERROR_CODE_UNKNOWN,
                    error.where,
                    f"{op.operation_id}: error code {error.code!r} is not in {ERROR_SCHEMA}'s {HTTP_STATUS_KEY}",
                    f"known codes: {known}",
                )
            elif statuses[error.code] != error.status:
                yield _at(
                    ERROR_STATUS,
                    error.where,
                    f"{op.operation_id}: {error.code} is sent with {statuses[error.code]}, not {error.status}",
                    f"change status to {statuses[error.code]}",
                )


def _messages(corpus: Corpus, api: ApiDescription) -> Iterator[Diagnostic]:
    for channel in api.channels:
        if channel.envelope not in corpus.schemas_by_name or channel.payloads not in corpus.schemas_by_name:
            continue
        types = event_types(corpus, channel.envelope) or []
        index = type_index(corpus, channel.payloads)
        counts = Counter(m.type for m in channel.messages)
        reported: set[str] = set()
        for message in channel.messages:
            if message.type not in types:
                yield _at(
                    EVENT_MESSAGE,
                    message.where,
                    f"channel {channel.id}: {message.type!r} is not a {TYPE_ENUM} value",
                    f"known types: {', '.join(types)}",
                )
            elif index is None or message.type not in index:
                yield _at(
                    EVENT_MESSAGE,
                    message.where,
                    f"channel {channel.id}: {message.type!r} has no payload in {channel.payloads} {TYPE_INDEX}",
                )
            elif counts[message.type] > 1 and message.type not in reported:
                reported.add(message.type)
                yield _at(
                    EVENT_MESSAGE, message.where, f"channel {channel.id}: {message.type!r} has more than one message"
                )
        for event_type in types:
            if event_type not in counts:
                yield _at(
                    EVENT_MESSAGE,
                    channel.where,
                    f"channel {channel.id}: {TYPE_ENUM} value {event_type!r} has no message",
                    f"add `- type: {event_type}` to messages",
                )


def _capabilities(corpus: Corpus, api: ApiDescription) -> Iterator[Diagnostic]:
    discovery = corpus.schemas_by_name.get(DISCOVERY_SCHEMA)
    if discovery is None:
        return
    for op in api.operations:
        if op.capability and not _declares(corpus, discovery.path, op.capability.split(".")):
            yield _at(
                CAPABILITY_UNKNOWN,
                op.where,
                f"{op.operation_id}: {DISCOVERY_SCHEMA} declares no {op.capability!r}",
                "name a dotted path of properties in the discovery schema",
            )


def _declares(corpus: Corpus, path: str, segments: list[str]) -> bool:
    """Whether the schema at `path` declares the property path `segments` (following `$ref`s)."""
    return corpus.graph.property_path(Located(path, ""), segments) is not None


def _unbundled(rule: Rule, document: str, exc: BundleError) -> Iterator[Diagnostic]:
    """A `$ref` the bundle cannot express, reported where it is written; an unknown schema name is
    `api-schema-unresolved`, reported by `_references`."""
    if exc.site is not None:
        line, col = exc.site.locate()
        yield rule.at(
            exc.site.path,
            line,
            f"{document} cannot be rendered: {exc}"[:300],
            "fix the $ref (see the schema-ref-* findings), then run `wopgen api`",
            col=col,
        )


def _rendered(corpus: Corpus, api: ApiDescription) -> Iterator[Diagnostic]:
    """Render both documents and validate them with the standard validators."""
    for rule, name, source, render, wanted in (
        (OPENAPI_INVALID, "openapi.yaml", api.operations_path, openapi_document, api.operations),
        (ASYNCAPI_INVALID, "asyncapi.yaml", api.channels_path, asyncapi_document, api.channels),
    ):
        if not wanted or not source:
            continue
        try:
            document = render(corpus, api)
        except BundleError as exc:
            yield from _unbundled(rule, name, exc)
            continue
        try:
            errors = standard_api.standard_errors(
                name.split(".")[0], ASYNCAPI_VERSION, json.loads(json.dumps(document))
            )
        except standard_api.Unvalidated as exc:
            yield rule.at(
                source,
                1,
                f"{name} cannot be validated: {exc}"[:300],
                f"run `wopgen api` and inspect the $refs of {name}",
            )
            continue
        for where, message in errors[:50]:
            at = "/".join(map(str, where)) or "document"
            yield rule.at(source, 1, f"{name} at {at}: {message}"[:400], "run `wopgen api` and inspect it")
