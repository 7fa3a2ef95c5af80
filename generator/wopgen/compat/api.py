"""The HTTP surface: error codes with their statuses, and the operations described in `spec/api/`.

Error codes come from the `x-wop-http-status` map at the root of `error-envelope.schema.json`.
Operations come from `spec/api/*.yaml`, read tolerantly so the comparison works whatever the
exact layout: every mapping with a string `operationId` is an operation, keyed by that id; its
method and path are its own `method`/`path` members or, OpenAPI style, the keys it sits under; its
responses are a `responses` mapping (status -> anything) or list (items with `status`); its error
codes are an `errors` mapping (code -> status) or list (items with `code` and `status`, or bare
codes). Words (`summary`, `description`, `tag`, `rfc`, ...) are not part of the contract and are
ignored. Besides method and path, the request, `auth`, `stream`, the capability gate and each
parameter (`in` + `name`: removed, made required, retyped; a new required one) are compared. A
corpus without `spec/api/` simply has no operations to compare.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from wopgen.compat import rules as R
from wopgen.compat.change import Change, Side
from wopgen.compat.normalize import fingerprint
from wopgen.corpus import Corpus
from wopgen.rules import Rule

ERROR_ENVELOPE = "error-envelope.schema.json"
HTTP_STATUS = "x-wop-http-status"
METHODS = frozenset({"get", "put", "post", "delete", "patch", "head", "options", "trace"})
REQUEST_KEYS = ("request", "requestBody", "body", "requestSchema")
CONTRACT_KEYS = ("auth", "stream", "capability", "capabilityMinimum")
WORDS = frozenset({"summary", "description", "title", "tag", "tags", "rfc", "examples", "example"})


@dataclass
class Operation:
    id: str
    path: str  # the file
    line: int
    method: str = ""
    route: str = ""
    request: str = ""
    contract: dict[str, str] = field(default_factory=dict)  # auth, stream, capability gate
    parameters: dict[str, tuple[bool, str, int]] = field(default_factory=dict)  # in:name -> (required, schema, line)
    responses: dict[str, tuple[str, int]] = field(default_factory=dict)  # status -> (shape, line)
    errors: dict[str, tuple[str, int]] = field(default_factory=dict)  # code -> (status, line)


def _line(node: Any, key: str | int | None = None) -> int:
    if key is not None and hasattr(node, "line_of"):
        return int(node.line_of(key))
    return int(getattr(node, "line", 1))


def _operation(file: str, node: dict[str, Any], trail: list[Any]) -> Operation:
    op = Operation(str(node["operationId"]), file, _line(node))
    method = node.get("method")
    if not isinstance(method, str) and trail and str(trail[-1]).lower() in METHODS:
        method = str(trail[-1])
    op.method = method.upper() if isinstance(method, str) else ""
    route = node.get("path") or node.get("route")
    if not isinstance(route, str) and len(trail) >= 2 and str(trail[-2]).startswith("/"):
        route = str(trail[-2])
    op.route = route if isinstance(route, str) else ""
    request = next((node[k] for k in REQUEST_KEYS if k in node), None)
    op.request = "" if request is None else _shape(request)
    op.contract = {k: fingerprint(node[k]) for k in CONTRACT_KEYS if node.get(k) is not None}
    parameters = node.get("parameters")
    for index, item in enumerate(parameters if isinstance(parameters, list) else []):
        if isinstance(item, dict) and "name" in item:
            key = f"{item.get('in', '')}:{item['name']}"
            op.parameters[key] = (item.get("required") is True, _shape(item.get("schema")), _line(parameters, index))
    responses = node.get("responses")
    if isinstance(responses, dict):
        for status, shape in responses.items():
            op.responses[str(status)] = (_shape(shape), _line(responses, status))
    elif isinstance(responses, list):
        for index, item in enumerate(responses):
            if isinstance(item, dict) and "status" in item:
                op.responses[str(item["status"])] = (_shape(item), _line(responses, index))
    errors = node.get("errors")
    if isinstance(errors, dict):
        for code, status in errors.items():
            op.errors[str(code)] = (fingerprint(status), _line(errors, code))
    elif isinstance(errors, list):
        for index, item in enumerate(errors):
            if isinstance(item, dict) and "code" in item:
                op.errors[str(item["code"])] = (fingerprint(item.get("status")), _line(errors, index))
            elif isinstance(item, str):
                op.errors[item] = ("", _line(errors, index))
    return op


def _shape(value: Any) -> str:
    """The contract part of a request, response or parameter: everything but the words."""
    if isinstance(value, dict):
        return fingerprint({k: v for k, v in value.items() if k not in WORDS})
    return fingerprint(value)


def operations(corpus: Corpus) -> dict[str, Operation]:
    found: dict[str, Operation] = {}

    def walk(file: str, node: Any, trail: list[Any]) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("operationId"), str):
                op = _operation(file, node, trail)
                found.setdefault(op.id, op)
                return
            for key, value in node.items():
                walk(file, value, [*trail, key])
        elif isinstance(node, list):
            for value in node:
                walk(file, value, trail)

    for path in sorted(corpus.api):
        walk(path, corpus.api[path].data, [])
    return found


def _change(rule: Rule, message: str, base: Side | None, head: Side | None, hint: str = "") -> Change:
    return Change(rule.id, rule.severity, message, base, head, hint or R.default_hint(rule.severity))


def _error_codes(corpus: Corpus) -> tuple[str, dict[str, Any], Any] | None:
    for path, doc in corpus.schemas.items():
        if path.rsplit("/", 1)[-1] == ERROR_ENVELOPE and isinstance(doc.data, dict):
            table = doc.data.get(HTTP_STATUS)
            if isinstance(table, dict):
                return path, table, doc
    return None


def diff_error_envelope(base: Corpus, head: Corpus) -> Iterator[Change]:
    before, after = _error_codes(base), _error_codes(head)
    if before is None or after is None:
        return
    (bpath, btable, bdoc), (hpath, htable, hdoc) = before, after

    def at(doc: Any, path: str, code: str | None = None) -> Side:
        pointer = f"/{HTTP_STATUS}" + (f"/{code}" if code is not None else "")
        return Side(path, pointer, doc.line(pointer))

    for code in sorted(btable.keys() - htable.keys()):
        yield _change(R.ERROR_CODE_REMOVED, f"error code {code!r} removed", at(bdoc, bpath, code), at(hdoc, hpath))
    for code in sorted(htable.keys() - btable.keys()):
        message = f"error code {code!r} added (HTTP {htable[code]})"
        yield _change(R.ERROR_CODE_ADDED, message, at(bdoc, bpath), at(hdoc, hpath, code))
    for code in sorted(btable.keys() & htable.keys()):
        if btable[code] != htable[code]:
            message = f"error code {code!r} now sent with HTTP {htable[code]} instead of {btable[code]}"
            yield _change(R.ERROR_STATUS_CHANGED, message, at(bdoc, bpath, code), at(hdoc, hpath, code))


def diff_operations(base: Corpus, head: Corpus) -> Iterator[Change]:
    before, after = operations(base), operations(head)
    for op_id in sorted(before.keys() - after.keys()):
        op = before[op_id]
        yield _change(R.OPERATION_REMOVED, f"{_label(op)} removed", _side(op), None)
    for op_id in sorted(after.keys() - before.keys()):
        op = after[op_id]
        yield _change(R.OPERATION_ADDED, f"{_label(op)} added", None, _side(op))
    for op_id in sorted(before.keys() & after.keys()):
        yield from _compare_operation(before[op_id], after[op_id])


def _label(op: Operation) -> str:
    return f"operation {op.id}" + (f" ({op.method} {op.route})" if op.method or op.route else "")


def _side(op: Operation, line: int | None = None, key: str = "") -> Side:
    return Side(op.path, f"{op.id}{'/' + key if key else ''}", line or op.line)


def _compare_operation(b: Operation, h: Operation) -> Iterator[Change]:
    facets = [("method", b.method, h.method), ("path", b.route, h.route), ("request", b.request, h.request)]
    facets += [(k, b.contract.get(k, ""), h.contract.get(k, "")) for k in CONTRACT_KEYS]
    for what, old, new in facets:
        if old != new:
            message = f"operation {b.id}: {what} {old or '(none)'} -> {new or '(none)'}"
            yield _change(R.OPERATION_CHANGED, message, _side(b, key=what), _side(h, key=what))
    yield from _compare_parameters(b, h)
    for status in sorted(b.responses.keys() - h.responses.keys()):
        message = f"operation {b.id}: response {status} removed"
        yield _change(R.RESPONSE_REMOVED, message, _side(b, b.responses[status][1], status), _side(h))
    for status in sorted(h.responses.keys() - b.responses.keys()):
        message = f"operation {b.id}: response {status} added"
        yield _change(R.RESPONSE_ADDED, message, _side(b), _side(h, h.responses[status][1], status))
    for status in sorted(b.responses.keys() & h.responses.keys()):
        if b.responses[status][0] != h.responses[status][0]:
            message = f"operation {b.id}: response {status} changed"
            bside, hside = _side(b, b.responses[status][1], status), _side(h, h.responses[status][1], status)
            yield _change(R.OPERATION_CHANGED, message, bside, hside)
    for code in sorted(b.errors.keys() - h.errors.keys()):
        message = f"operation {b.id}: error code {code!r} removed"
        yield _change(R.ERROR_CODE_REMOVED, message, _side(b, b.errors[code][1], code), _side(h))
    for code in sorted(h.errors.keys() - b.errors.keys()):
        message = f"operation {b.id}: error code {code!r} added"
        yield _change(R.ERROR_CODE_ADDED, message, _side(b), _side(h, h.errors[code][1], code))
    for code in sorted(b.errors.keys() & h.errors.keys()):
        if b.errors[code][0] != h.errors[code][0]:
            message = f"operation {b.id}: error code {code!r} status {b.errors[code][0]} -> {h.errors[code][0]}"
            yield _change(
                R.ERROR_STATUS_CHANGED, message, _side(b, b.errors[code][1], code), _side(h, h.errors[code][1], code)
            )


def _compare_parameters(b: Operation, h: Operation) -> Iterator[Change]:
    for key in sorted(b.parameters.keys() - h.parameters.keys()):
        message = f"operation {b.id}: parameter {key} removed"
        yield _change(R.OPERATION_CHANGED, message, _side(b, b.parameters[key][2], key), _side(h))
    for key in sorted(h.parameters.keys() - b.parameters.keys()):
        if h.parameters[key][0]:
            message = f"operation {b.id}: new required parameter {key}"
            yield _change(R.OPERATION_CHANGED, message, _side(b), _side(h, h.parameters[key][2], key))
    for key in sorted(b.parameters.keys() & h.parameters.keys()):
        (b_required, b_schema, b_line), (h_required, h_schema, h_line) = b.parameters[key], h.parameters[key]
        if (h_required and not b_required) or b_schema != h_schema:
            what = "is now required" if h_required and not b_required else "changed its schema"
            message = f"operation {b.id}: parameter {key} {what}"
            yield _change(R.OPERATION_CHANGED, message, _side(b, b_line, key), _side(h, h_line, key))
