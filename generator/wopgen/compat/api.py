"""The HTTP surface: error codes with their statuses, and the operations described in `spec/api/`.

Error codes come from the `x-wop-http-status` map at the root of `error-envelope.schema.json`.
Operations come from `spec/api/operations.yaml`, read by `apispec.read_api` (the reader the `api-*`
checks and `wopgen api` use; its format is in CONTRIBUTING.md), keyed by operationId. Words
(`summary`, `description`, `tag`, `rfc`, parameter descriptions) are not part of the contract and
are ignored. Besides method and path, the request schema, `auth`, `stream`, the capability gate,
each response status with its schema, each error code with its status and each parameter (`in` +
`name`: removed, made required, retyped; a new required one) are compared. A corpus without
`spec/api/` simply has no operations to compare.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from wopgen.compat import rules as R
from wopgen.compat.change import Change, Side
from wopgen.compat.normalize import fingerprint
from wopgen.corpus import Corpus
from wopgen.corpus.api import Operation as ApiOperation
from wopgen.corpus.api import read_api
from wopgen.diagnostics import Rule

ERROR_ENVELOPE = "error-envelope.schema.json"
HTTP_STATUS = "x-wop-http-status"
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


def _operation(source: ApiOperation) -> Operation:
    op = Operation(source.operation_id, source.where.path, source.where.line)
    op.method = source.method.upper()
    op.route = source.path
    if source.request is not None:
        op.request = _shape({"schema": source.request, "required": source.request_required})
    contract = {
        "auth": source.auth or None,
        "stream": source.stream,
        "capability": source.capability,
        "capabilityMinimum": source.capability_minimum,
    }
    op.contract = {k: fingerprint(v) for k, v in contract.items() if v is not None}
    for parameter in source.parameters:
        key = f"{parameter.place}:{parameter.name}"
        op.parameters[key] = (parameter.required, _shape(parameter.schema), parameter.where.line)
    for response in source.responses:
        op.responses[response.status] = (_shape({"schema": response.schema}), response.where.line)
    for error in source.errors:
        op.errors[error.code] = (fingerprint(error.status), error.where.line)
    return op


def _shape(value: Any) -> str:
    """The contract part of a request, response or parameter: everything but the words."""
    if isinstance(value, dict):
        return fingerprint({k: v for k, v in value.items() if k not in WORDS})
    return fingerprint(value)


def operations(corpus: Corpus) -> dict[str, Operation]:
    """The operations of the corpus's API description, read by `apispec.read_api`, keyed by operationId."""
    found: dict[str, Operation] = {}
    for source in read_api(corpus).operations:
        if source.operation_id:
            found.setdefault(source.operation_id, _operation(source))
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
    yield from _compare_keyed(
        b,
        h,
        b.responses,
        h.responses,
        lambda s: f"response {s}",
        (R.RESPONSE_REMOVED, R.RESPONSE_ADDED, R.OPERATION_CHANGED),
        lambda old, new: "changed",
    )
    yield from _compare_keyed(
        b,
        h,
        b.errors,
        h.errors,
        lambda c: f"error code {c!r}",
        (R.ERROR_CODE_REMOVED, R.ERROR_CODE_ADDED, R.ERROR_STATUS_CHANGED),
        lambda old, new: f"status {old} -> {new}",
    )


def _compare_keyed(
    b: Operation,
    h: Operation,
    old: Mapping[str, tuple[Any, int]],
    new: Mapping[str, tuple[Any, int]],
    name: Callable[[str], str],
    rules: tuple[Rule, Rule, Rule],
    describe: Callable[[Any, Any], str],
) -> Iterator[Change]:
    """Entries keyed alike on both sides (responses by status, error codes): removed, added, changed."""
    removed, added, changed = rules
    for key in sorted(old.keys() - new.keys()):
        yield _change(removed, f"operation {b.id}: {name(key)} removed", _side(b, old[key][1], key), _side(h))
    for key in sorted(new.keys() - old.keys()):
        yield _change(added, f"operation {b.id}: {name(key)} added", _side(b), _side(h, new[key][1], key))
    for key in sorted(old.keys() & new.keys()):
        if old[key][0] != new[key][0]:
            message = f"operation {b.id}: {name(key)} {describe(old[key][0], new[key][0])}"
            yield _change(changed, message, _side(b, old[key][1], key), _side(h, new[key][1], key))


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
