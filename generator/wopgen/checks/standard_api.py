"""OpenAPI 3.1 and AsyncAPI 3.x documents kept in the API folder as written (instead of the
declarative operations.yaml/channels.yaml): each is validated by its standard validator
(openapi-spec-validator; the official AsyncAPI JSON Schema vendored from `@asyncapi/specs`), every
`$ref` must lead somewhere (inside the document, or to a schema of the corpus), and operationIds are
unique across both documents. Nothing is fetched: a `$ref` to the network is a finding."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import jsonschema_specifications  # type: ignore[import-untyped]
import referencing
import referencing.exceptions
from jsonschema import Draft7Validator
from referencing.jsonschema import DRAFT7

from wopgen.corpus import Corpus
from wopgen.corpus.api import StandardDocument, template_names
from wopgen.corpus.documents import line_at, locate_at
from wopgen.corpus.graph import ref_strings
from wopgen.diagnostics import Diagnostic, define

ASYNCAPI_SPECS_VERSION = "6.11.1"  # npm @asyncapi/specs, files schemas/3.0.0.json and 3.1.0.json; see data/asyncapi
ASYNCAPI_VERSIONS = ("3.0.0", "3.1.0")
METASCHEMAS: referencing.Registry[Any] = jsonschema_specifications.REGISTRY
_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

OPENAPI_INVALID = define(
    "api-openapi",
    "error",
    "An OpenAPI document of the API folder (or the one rendered from operations.yaml) is not OpenAPI 3.1 "
    "or fails openapi-spec-validator.",
)
ASYNCAPI_INVALID = define(
    "api-asyncapi",
    "error",
    "An AsyncAPI document of the API folder (or the one rendered from channels.yaml) is not AsyncAPI "
    f"{' or '.join(ASYNCAPI_VERSIONS)} or fails the official AsyncAPI JSON Schema.",
)
REF_UNRESOLVED = define(
    "api-ref-unresolved",
    "error",
    "A `$ref` of an OpenAPI or AsyncAPI document leads nowhere: a missing pointer, a file that does not exist, "
    "a schema pointer that does not resolve, or a network address (never fetched).",
)
OPERATION_ID = define("api-operation-id-duplicate", "error", "Two operations (HTTP or channel) share an operationId.")
CHANNEL_PARAMETERS = define(
    "api-channel-parameters",
    "error",
    "A `{name}` of a channel's address has no parameter entry, or a parameter entry is not in the address.",
)


def _without_refs(data: Any, kept: Callable[[str], bool]) -> Any:
    """A plain copy of `data` in which every `$ref` that `kept` refuses is an empty object."""
    plain = json.loads(json.dumps(data))
    for path, ref in list(ref_strings(plain)):
        if kept(ref):
            continue
        node = plain
        for part in path:
            node = node[part]
        del node["$ref"]
    return plain


_READ_SCHEMES = ("", "file", "http", "https")  # the schemes `_CorpusFiles` answers for


class _CorpusFiles:
    """What openapi-spec-validator reads where an OpenAPI document refers to another file: the corpus file
    (a schema, by its path or its `$id`, another API document, or a file they share parts from, which the
    loader read: `Corpus.api_shared`), never fetched or read again. A reference to anything else stands
    for an empty object; it has its own finding (`api-ref-unresolved`, `schema-ref-external`). In what is
    read, a reference of a scheme answered nowhere here is dropped too, so the validator never reaches
    past the corpus."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.root = corpus.root.resolve()

    def __call__(self, uri: str) -> Any:
        document = uri.partition("#")[0]
        parts = urlsplit(document)
        corpus = self.corpus
        if parts.scheme in ("http", "https"):
            found: Any = corpus.schemas_by_uri.get(document)
        else:
            try:
                relative = Path(unquote(parts.path)).resolve().relative_to(self.root).as_posix()
            except ValueError:
                return {}
            found = corpus.schemas.get(relative) or corpus.api.get(relative) or corpus.api_shared.get(relative)
        return {} if found is None else _local(found.data)


def _local(data: Any) -> Any:
    """`data` without the references `_CorpusFiles` would not answer for (another scheme: `urn:`, `ftp:`)."""
    return _without_refs(data, lambda ref: urlsplit(ref).scheme.lower() in _READ_SCHEMES)


def _openapi_source(corpus: Corpus, document: StandardDocument) -> Any:
    """An OpenAPI document as openapi-spec-validator reads it: its references to other corpus files are
    followed there (a parameter or a response shared from `common/parameters.yaml`, read as an empty
    object, was refused), the others stand for an empty object."""
    from jsonschema_path import SchemaPath

    data = document.doc.data
    graph = corpus.graph
    followed = _without_refs(data, lambda ref: graph.document_ref_problem(document.path, data, ref) is None)
    files = _CorpusFiles(corpus)
    base = (corpus.root / document.path).resolve().as_uri()
    return SchemaPath.from_dict(_local(followed), base_uri=base, handlers=dict.fromkeys(_READ_SCHEMES[1:], files))


def check(corpus: Corpus, documents: list[StandardDocument]) -> Iterator[Diagnostic]:
    clean: list[StandardDocument] = []
    for document in documents:
        broken = False
        for path, ref in ref_strings(document.doc.data):
            problem = corpus.graph.document_ref_problem(document.path, document.doc.data, ref)
            if problem is not None:
                broken = broken or ref.startswith("#")
                line, col = locate_at(document.doc.data, [*path, "$ref"])
                yield REF_UNRESOLVED.at(
                    document.path,
                    line,
                    f"$ref {ref!r}: {problem}",
                    "point at a component of this document or at a schema file of the corpus",
                    col=col,
                )
        if not broken:
            clean.append(document)
    for document in clean:
        yield from _standard(corpus, document)
        if document.kind == "asyncapi":
            yield from _channel_parameters(document)
    yield from _operation_ids(documents)


def _channel_parameters(document: StandardDocument) -> Iterator[Diagnostic]:
    """AsyncAPI 3: the parameters of a channel are the expressions of its address, no more and no
    fewer (a Parameters Object "MUST contain all the parameters used in the parent channel address",
    and each key "MUST match the parameter name used in the parent channel address"). A channel
    whose address is null (unknown or dynamic) or a `$ref` is not judged."""
    data = document.doc.data
    for section in ("channels", "components"):
        channels = data.get(section) if isinstance(data, dict) else None
        if section == "components":
            channels = channels.get("channels") if isinstance(channels, dict) else None
        if not isinstance(channels, dict):
            continue
        base = ["channels"] if section == "channels" else ["components", "channels"]
        for key, channel in channels.items():
            if not isinstance(channel, dict) or "$ref" in channel or not isinstance(channel.get("address"), str):
                continue
            address = channel["address"]
            used = template_names(address)
            parameters = channel.get("parameters")
            declared = [str(name) for name in parameters] if isinstance(parameters, dict) else []
            for name in dict.fromkeys(used):
                if name not in declared:
                    line, col = locate_at(data, [*base, key, "address"])
                    yield CHANNEL_PARAMETERS.at(
                        document.path,
                        line,
                        f"channel {key}: the address {address!r} names {{{name}}} but parameters has no {name!r}",
                        f"add {name} under the channel's parameters",
                        col=col,
                    )
            for name in declared:
                if name not in used:
                    line, col = locate_at(data, [*base, key, "parameters", name])
                    yield CHANNEL_PARAMETERS.at(
                        document.path,
                        line,
                        f"channel {key}: parameter {name!r} is not an expression of the address {address!r}",
                        f"write {{{name}}} in the address or remove the parameter",
                        col=col,
                    )


class Unvalidated(Exception):
    """A document its standard validator cannot read through (a `$ref` cycle, or one leading nowhere)."""


def standard_errors(kind: str, version: str, data: Any) -> list[tuple[list[Any], str]]:
    """What the standard validator of `kind` (`openapi` 3.1, or `asyncapi` of `version`) rejects in
    `data` (plain JSON data: no YAML line wrappers; for OpenAPI also a `SchemaPath` that says how its
    references are read), as (path in the document, message), in path order; `Unvalidated` when it
    cannot tell."""
    from openapi_spec_validator import OpenAPIV31SpecValidator

    try:
        if kind == "openapi":
            errors = list(OpenAPIV31SpecValidator(data).iter_errors())
        else:
            errors = list(asyncapi_validator(version).iter_errors(data))
    except RecursionError:
        raise Unvalidated("a $ref cycle") from None
    except referencing.exceptions.Unresolvable as exc:
        raise Unvalidated(f"$ref {exc.ref!r} leads nowhere") from None
    except (ValueError, TypeError, KeyError) as exc:
        raise Unvalidated(str(exc)) from None
    found = [(list(getattr(e, "absolute_path", []) or []), _worded(e)) for e in errors]
    return sorted(found, key=lambda item: list(map(str, item[0])))


def _short(error: Any) -> str:
    """The first line of `error`'s message, with the value it starts by quoting cut short: jsonschema
    writes `{...the whole object...} is not valid under any of the given schemas`, and cut at a fixed
    length the message lost the part that says what is wrong."""
    message = str(getattr(error, "message", error)).splitlines()[0]
    quoted = repr(getattr(error, "instance", None))
    if len(quoted) > 80 and message.startswith(quoted):
        message = quoted[:60] + "..." + message[len(quoted) :]
    return message


def _worded(error: Any) -> str:
    """What a finding says of `error`; for a value no alternative of a `oneOf`/`anyOf` fits, also where
    the alternative that went deepest into it fails, which is usually the mistake."""
    message = _short(error)
    leaves = list(_leaves(error))
    if leaves and leaves[0] is not error:
        deepest = max(leaves, key=lambda leaf: len(leaf.absolute_path))
        below = list(deepest.absolute_path)[len(error.absolute_path) :]
        where = "/".join(map(str, below)) or "the value itself"
        message += f"; the closest alternative fails at {where}: {_short(deepest)}"
    return message


def _leaves(error: Any) -> Iterator[Any]:
    """The errors below `error` that have none below them (itself when it has none)."""
    context = getattr(error, "context", None)
    if not context:
        yield error
        return
    for child in context:
        yield from _leaves(child)


def _standard(corpus: Corpus, document: StandardDocument) -> Iterator[Diagnostic]:
    """A document of the API folder against its standard validator, each finding at its own line."""
    openapi = document.kind == "openapi"
    rule = OPENAPI_INVALID if openapi else ASYNCAPI_INVALID
    if openapi and not document.version.startswith("3.1"):
        message = f"openapi {document.version!r}: wopgen reads OpenAPI 3.1 documents"
        line, col = locate_at(document.doc.data, ["openapi"])
        yield rule.at(document.path, line, message, "write the document as OpenAPI 3.1 (openapi: 3.1.0)", col=col)
        return
    if not openapi and document.version not in ASYNCAPI_VERSIONS:
        message = f"asyncapi {document.version!r}: wopgen validates AsyncAPI {' and '.join(ASYNCAPI_VERSIONS)}"
        line, col = locate_at(document.doc.data, ["asyncapi"])
        yield rule.at(document.path, line, message, "write the document as one of those versions", col=col)
        return
    try:
        # openapi-spec-validator follows each `$ref` of the document (`_openapi_source` says how); the AsyncAPI
        # schema only checks that a Reference object is well formed, so there it stays as written.
        data = _openapi_source(corpus, document) if openapi else json.loads(json.dumps(document.doc.data))
        errors = standard_errors(document.kind, document.version, data)
    except Unvalidated as exc:
        yield rule.at(document.path, 1, f"cannot be validated: {str(exc)[:200]}")
        return
    validator = "openapi-spec-validator" if openapi else f"the official AsyncAPI {document.version} JSON Schema"
    for where, message in errors[:50]:
        line, col = locate_at(document.doc.data, where)
        yield rule.at(
            document.path,
            line,
            f"at /{'/'.join(map(str, where))}: {message[:240]}",
            f"{validator} rejects it",
            col=col,
        )


def _operation_ids(documents: list[StandardDocument]) -> Iterator[Diagnostic]:
    """operationIds of every OpenAPI operation and AsyncAPI operation, unique across the documents."""
    seen: list[tuple[str, str, int]] = []
    for document in documents:
        data = document.doc.data
        if document.kind == "openapi":
            paths = data.get("paths") if isinstance(data, dict) else None
            for route, item in (paths or {}).items() if isinstance(paths, dict) else ():
                for method in _METHODS:
                    op = item.get(method) if isinstance(item, dict) else None
                    if isinstance(op, dict) and isinstance(op.get("operationId"), str):
                        line = line_at(data, ["paths", route, method, "operationId"])
                        seen.append((op["operationId"], document.path, line))
        else:
            operations = data.get("operations") if isinstance(data, dict) else None
            for key in operations or {} if isinstance(operations, dict) else ():
                seen.append((str(key), document.path, line_at(data, ["operations", key])))
    yield from operation_ids_repeated(seen)


def operation_ids_repeated(seen: list[tuple[str, str, int]]) -> Iterator[Diagnostic]:
    """Each use of an operationId after its first, among (operationId, path, line) in reading order."""
    first: dict[str, tuple[str, int]] = {}
    for name, path, line in seen:
        if name in first:
            other = first[name]
            yield OPERATION_ID.at(
                path, line, f"operationId {name!r} is also used at {other[0]}:{other[1]}", "give each one its own id"
            )
        else:
            first[name] = (path, line)


@cache
def asyncapi_validator(version: str = "3.0.0") -> Draft7Validator:
    """The official AsyncAPI schema of `version`, with the JSON Schema metaschemas it cites; nothing
    is fetched. Its definitions carry their own `$id`s, so crawling the one file registers all of them."""
    name = f"asyncapi-{version}.schema.json"
    text = resources.files("wopgen").joinpath("data", "asyncapi", name).read_text(encoding="utf-8")
    schema = json.loads(text)
    resource = referencing.Resource.from_contents(schema, default_specification=DRAFT7)
    registry = METASCHEMAS.with_resource(schema["$id"], resource).crawl()
    return Draft7Validator(schema, registry=registry)
