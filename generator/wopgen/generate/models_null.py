"""Optional members that may not be null, carried into the models.

JSON Schema keeps two questions apart: `required` says whether a member may be left out, the
member's own schema says whether `null` is a value it takes. datamodel-code-generator answers both
with one annotation, `X | None = None`, so a model would accept `{"description": null}` where the
schema rejects it. wopgen tells the library which optional members reject null by a marker key on
their subschema (`MARKER`, read through the library's `field_extra_keys`), then rewrites the
`Field(json_schema_extra=...)` the library makes of it into `NOT_NULL`: a validator that refuses an
explicit null and leaves an omitted member alone (an unset default is never validated).

Whether a member takes null is asked of the corpus's own validator, so `$ref`, `allOf`, type lists,
`const` and `enum` all count as the schema says.
"""

from __future__ import annotations

import ast
import copy
import re
from typing import Any

import referencing.exceptions
from jsonschema.exceptions import UnknownType

from wopgen.corpus import Corpus
from wopgen.corpus.documents import escape_token
from wopgen.corpus.graph import Position, schema_objects, unescape_token

_UNJUDGED = (referencing.exceptions.Unresolvable, UnknownType, RecursionError, TypeError, ValueError, AttributeError)
_LINE_END = re.compile(rb"\r\n|\r|\n")
MARKER = "x-wopgen-not-null"  # never written to a model: `not_null_fields` turns it into NOT_NULL
HELPER_MODULE = "_not_null"
HELPER_TEXT = '''\
"""The check behind `NOT_NULL`: an optional member whose schema rejects null. Do not edit by hand."""

from __future__ import annotations

from typing import TypeVar

from pydantic import AfterValidator

_T = TypeVar("_T")


def refuse_null(value: _T) -> _T:
    """`value` unchanged, unless it is null: the member may be left out, but null is not one of its values."""
    if value is None:
        raise ValueError("may be left out, but may not be null")
    return value


NOT_NULL = AfterValidator(refuse_null)
'''


def optional_not_null(corpus: Corpus, path: str) -> list[str]:
    """Pointers, in document order, of the members of schema `path` that an object may leave out
    (not in its `required`) and whose subschema rejects null. A subschema the validator cannot
    judge (an unresolvable `$ref`) is left as the library types it."""
    doc = corpus.schemas.get(path)
    if doc is None or not corpus.resolvable(path):
        return []
    found: list[str] = []
    for item in schema_objects(doc.data, corpus.uri_of(path)):
        properties = item.node.get("properties")
        if item.position is not Position.SCHEMA or not isinstance(properties, dict):
            continue
        required = item.node.get("required")
        needed = set(required) if isinstance(required, list) else set()
        for name, subschema in properties.items():
            if name in needed or not isinstance(subschema, dict):
                continue
            pointer = f"{item.pointer}/properties/{escape_token(name)}"
            try:
                takes_null = corpus.validator(path, pointer).is_valid(None)
            except _UNJUDGED:  # an unresolvable `$ref`, a `$ref` loop, a keyword of the wrong type: leave it be
                continue
            if not takes_null:
                found.append(pointer)
    return found


def marked(data: Any, pointers: list[str]) -> Any:
    """A copy of `data` with `MARKER` set on the subschema at each of `pointers` (data itself when none)."""
    if not pointers:
        return data
    out = copy.deepcopy(data)
    for pointer in pointers:
        node = out
        for token in pointer.split("/")[1:]:
            node = node[int(token)] if isinstance(node, list) else node[unescape_token(token)]
        node[MARKER] = True
    return out


def _is_marker(value: ast.expr) -> bool:
    return (
        isinstance(value, ast.Dict)
        and len(value.keys) == 1
        and isinstance(value.keys[0], ast.Constant)
        and value.keys[0].value == MARKER
    )


def not_null_fields(text: str, depth: int) -> str:
    """The library's module `text` with each marked `Field(...)` made `NOT_NULL` (plus the field's other
    arguments, if any), and the import of NOT_NULL from the helper module, `depth` folders up."""
    if MARKER not in text:
        return text
    raw = text.encode("utf-8")  # ast counts lines as Python does and columns in UTF-8 bytes
    starts = [0] + [m.end() for m in _LINE_END.finditer(raw)]
    edits: list[tuple[int, int, str]] = []  # (start byte, end byte, replacement)
    for node in ast.walk(ast.parse(text)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Field"):
            continue
        kept = [k for k in node.keywords if not (k.arg == "json_schema_extra" and _is_marker(k.value))]
        if len(kept) == len(node.keywords) or node.end_lineno is None or node.end_col_offset is None:
            continue
        rest = ast.unparse(ast.Call(node.func, node.args, kept)) + ", " if node.args or kept else ""
        start, end = starts[node.lineno - 1] + node.col_offset, starts[node.end_lineno - 1] + node.end_col_offset
        edits.append((start, end, rest + "NOT_NULL"))
    for start, end, replacement in sorted(edits, reverse=True):
        raw = raw[:start] + replacement.encode("utf-8") + raw[end:]
    body = raw.decode("utf-8")
    future = "from __future__ import annotations\n"
    importing = f"from {'.' * depth}{HELPER_MODULE} import NOT_NULL\n"
    if future in body:
        return body.replace(future, future + importing, 1)
    return importing + body
