"""OpenAPI 3.1 and AsyncAPI 3.x documents kept in the API folder as written (instead of the
declarative operations.yaml/channels.yaml): each is validated by its standard validator
(openapi-spec-validator; the official AsyncAPI JSON Schema vendored from `@asyncapi/specs`), every
`$ref` must lead somewhere (inside the document, or to a schema of the corpus), and operationIds are
unique across both documents. Nothing is fetched: a `$ref` to the network is a finding."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

import jsonschema_specifications  # type: ignore[import-untyped]
import referencing
import referencing.exceptions
from jsonschema import Draft7Validator
from referencing.jsonschema import DRAFT7

from wopgen.corpus import Corpus
from wopgen.corpus.api import StandardDocument
from wopgen.corpus.documents import YamlList, YamlMap
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


def _line(data: Any, parts: list[Any]) -> int:
    """The line of the value at `parts` in a YAML tree (the nearest enclosing one known)."""
    line = getattr(data, "line", 1)
    node = data
    for part in parts:
        if isinstance(node, YamlMap) and str(part) in node:
            line = node.line_of(str(part))
            node = node[str(part)]
        elif isinstance(node, YamlList) and isinstance(part, int) and part < len(node):
            line = node.line_of(part)
            node = node[part]
        else:
            break
    return line


def _without_external_refs(data: Any) -> Any:
    """A plain copy in which every `$ref` to another file is an empty schema: the validator reads
    the document alone, and the refs are checked against the corpus separately."""
    plain = json.loads(json.dumps(data))
    for path, ref in list(ref_strings(plain)):
        if ref.startswith("#"):
            continue
        node = plain
        for part in path:
            node = node[part]
        del node["$ref"]
    return plain


def check(corpus: Corpus, documents: list[StandardDocument]) -> Iterator[Diagnostic]:
    clean: list[StandardDocument] = []
    for document in documents:
        broken = False
        for path, ref in ref_strings(document.doc.data):
            problem = corpus.graph.document_ref_problem(document.path, document.doc.data, ref)
            if problem is not None:
                broken = broken or ref.startswith("#")
                yield REF_UNRESOLVED.at(
                    document.path,
                    _line(document.doc.data, [*path, "$ref"]),
                    f"$ref {ref!r}: {problem}",
                    "point at a component of this document or at a schema file of the corpus",
                )
        if not broken:
            clean.append(document)
    for document in clean:
        if document.kind == "openapi":
            yield from _openapi(document)
        else:
            yield from _asyncapi(document)
    yield from _operation_ids(documents)


def _openapi(document: StandardDocument) -> Iterator[Diagnostic]:
    from openapi_spec_validator import OpenAPIV31SpecValidator

    if not document.version.startswith("3.1"):
        yield OPENAPI_INVALID.at(
            document.path,
            _line(document.doc.data, ["openapi"]),
            f"openapi {document.version!r}: wopgen reads OpenAPI 3.1 documents",
            "write the document as OpenAPI 3.1 (openapi: 3.1.0)",
        )
        return
    try:
        errors = list(OpenAPIV31SpecValidator(_without_external_refs(document.doc.data)).iter_errors())
    except (RecursionError, referencing.exceptions.Unresolvable, ValueError, TypeError, KeyError) as exc:
        yield OPENAPI_INVALID.at(document.path, 1, f"cannot be validated: {str(exc)[:200]}")
        return
    for error in errors[:50]:
        where = list(getattr(error, "absolute_path", []) or [])
        yield OPENAPI_INVALID.at(
            document.path,
            _line(document.doc.data, where),
            f"at /{'/'.join(map(str, where))}: {getattr(error, 'message', str(error)).splitlines()[0][:240]}",
            "openapi-spec-validator rejects it",
        )


def _asyncapi(document: StandardDocument) -> Iterator[Diagnostic]:
    if document.version not in ASYNCAPI_VERSIONS:
        yield ASYNCAPI_INVALID.at(
            document.path,
            _line(document.doc.data, ["asyncapi"]),
            f"asyncapi {document.version!r}: wopgen validates AsyncAPI {' and '.join(ASYNCAPI_VERSIONS)}",
            "write the document as one of those versions",
        )
        return
    validator = asyncapi_validator(document.version)
    plain = _without_external_refs(document.doc.data)
    try:
        errors = sorted(validator.iter_errors(plain), key=lambda e: list(map(str, e.absolute_path)))
    except (RecursionError, referencing.exceptions.Unresolvable) as exc:
        yield ASYNCAPI_INVALID.at(document.path, 1, f"cannot be validated: {str(exc)[:200]}")
        return
    for error in errors[:50]:
        where = list(error.absolute_path)
        yield ASYNCAPI_INVALID.at(
            document.path,
            _line(document.doc.data, where),
            f"at /{'/'.join(map(str, where))}: {error.message[:240]}",
            f"the official AsyncAPI {document.version} JSON Schema rejects it",
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
                        line = _line(data, ["paths", route, method, "operationId"])
                        seen.append((op["operationId"], document.path, line))
        else:
            operations = data.get("operations") if isinstance(data, dict) else None
            for key in operations or {} if isinstance(operations, dict) else ():
                seen.append((str(key), document.path, _line(data, ["operations", key])))
    counts = Counter(name for name, _, _ in seen)
    first: dict[str, tuple[str, int]] = {}
    for name, path, line in seen:
        if counts[name] > 1 and name in first:
            other = first[name]
            yield OPERATION_ID.at(
                path, line, f"operationId {name!r} is also used at {other[0]}:{other[1]}", "give each one its own id"
            )
        first.setdefault(name, (path, line))


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
