"""JSON documents that remember where every value sits, so a JSON pointer maps to line:col.

Parsing uses the C `json` module; the pointer-to-offset index is built lazily the first time a
position is asked for, so a clean corpus never pays for it.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')
BOM = b"\xef\xbb\xbf"


class JsonLoadError(Exception):
    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


def escape_token(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(parts: Iterable[str | int]) -> str:
    return "".join("/" + escape_token(p) for p in parts)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(m.end() for m in re.finditer("\n", text))
    return starts


def line_col(starts: list[int], offset: int) -> tuple[int, int]:
    line = bisect.bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1


def _index(text: str) -> dict[str, int]:
    """Map every JSON pointer in a valid document to the offset where its value starts."""
    offsets: dict[str, int] = {}
    # Each frame: [is_object, pointer, next array index or current key, expecting_key]
    stack: list[list[Any]] = []
    current = ""

    def value_pointer() -> str:
        if not stack:
            return ""
        frame = stack[-1]
        if frame[0]:
            return str(frame[1]) + "/" + escape_token(frame[2])
        return str(frame[1]) + "/" + str(frame[2])

    for match in _TOKEN.finditer(text):
        tok = match.group()
        start = match.start()
        if tok in (",", ":"):
            if tok == "," and stack:
                frame = stack[-1]
                if frame[0]:
                    frame[3] = True
                else:
                    frame[2] += 1
            continue
        if tok in ("}", "]"):
            stack.pop()
            continue
        if stack and stack[-1][0] and stack[-1][3]:
            stack[-1][2] = json.loads(tok)
            stack[-1][3] = False
            continue
        current = value_pointer()
        offsets[current] = start
        if tok == "{":
            stack.append([True, current, "", True])
        elif tok == "[":
            stack.append([False, current, 0, False])
    return offsets


@dataclass(frozen=True)
class DuplicateKey:
    """A key written twice in one object or mapping; the later value is the one kept."""

    key: str
    line: int  # of the second occurrence
    col: int
    first_line: int


def _duplicate_keys(text: str) -> list[DuplicateKey]:
    """Every key repeated within one object of a valid JSON text, at its second occurrence."""
    found: list[DuplicateKey] = []
    starts = _line_starts(text)
    # Each frame: the keys seen so far (None for an array) with the offset of their first use,
    # and whether the next string is a key.
    stack: list[tuple[dict[str, int] | None, list[bool]]] = []
    for match in _TOKEN.finditer(text):
        tok = match.group()
        if tok in ("{", "["):
            stack.append(({} if tok == "{" else None, [tok == "{"]))
            continue
        if tok in ("}", "]"):
            stack.pop()
            continue
        if not stack:
            continue
        keys, expecting = stack[-1]
        if tok == ",":
            expecting[0] = keys is not None
        elif keys is not None and expecting[0]:
            key = json.loads(tok)
            expecting[0] = False
            if key in keys:
                line, col = line_col(starts, match.start())
                found.append(DuplicateKey(key, line, col, line_col(starts, keys[key])[0]))
            else:
                keys[key] = match.start()
    return found


@dataclass
class JsonDoc:
    """A parsed JSON file: its text, its value, and positions on demand."""

    path: str
    text: str
    data: Any
    duplicates: list[DuplicateKey] = field(default_factory=list)
    _offsets: dict[str, int] | None = field(default=None, repr=False)
    _starts: list[int] | None = field(default=None, repr=False)

    def locate(self, where: str | Iterable[str | int] = "") -> tuple[int, int]:
        """line, col (1-based) of the value at a pointer, or of its nearest existing ancestor."""
        ptr = where if isinstance(where, str) else pointer(where)
        if self._offsets is None:
            self._offsets = _index(self.text)
            self._starts = _line_starts(self.text)
        assert self._starts is not None
        while True:
            if ptr in self._offsets:
                return line_col(self._starts, self._offsets[ptr])
            if not ptr:
                return 1, 1
            ptr = ptr.rsplit("/", 1)[0]

    def line(self, where: str | Iterable[str | int] = "") -> int:
        return self.locate(where)[0]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def decode_text(raw: bytes) -> str:
    """UTF-8 without a byte-order mark, or a JsonLoadError that says where it went wrong."""
    if raw.startswith(BOM):
        raise JsonLoadError("file starts with a UTF-8 byte-order mark; save it as UTF-8 without a BOM", 1, 1)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = raw[: exc.start].decode("utf-8", errors="replace")
        line = prefix.count("\n") + 1
        col = len(prefix) - (prefix.rfind("\n") + 1) + 1
        raise JsonLoadError(f"not valid UTF-8: byte 0x{raw[exc.start]:02x} at offset {exc.start}", line, col) from None


def parse_json(path: str, raw: bytes) -> JsonDoc:
    """Parse a JSON file; keys written twice in one object are kept (the later wins, as JSON
    parsers do) and listed in `duplicates` so the loader can report them."""
    text = decode_text(raw)
    repeated = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal repeated
        result = dict(items)
        if len(result) != len(items):
            repeated = True
        return result

    try:
        data = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        raise JsonLoadError(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except ValueError as exc:  # NaN / Infinity
        raise JsonLoadError(f"invalid JSON: {exc}", 1, 1) from None
    except RecursionError:
        raise JsonLoadError("JSON nested too deeply to process; flatten the structure", 1, 1) from None
    return JsonDoc(path=path, text=text, data=data, duplicates=_duplicate_keys(text) if repeated else [])
