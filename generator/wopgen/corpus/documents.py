"""The documents of the corpus, parsed with positions: JSON and YAML, one parse-error type.

JSON: parsing uses the C `json` module; the pointer-to-offset index is built lazily the first time
a position is asked for, so a clean corpus never pays for it. YAML: safe loading that keeps the line
of every mapping, key and list item. Either way a document that does not parse is a `ParseError`
with the line and column of the problem.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')
BOM = b"\xef\xbb\xbf"


class ParseError(Exception):
    """A document that cannot be decoded or parsed, and where (1-based line and column)."""

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


@dataclass
class JsonDoc:
    """A parsed JSON file: its text, its value, and positions on demand."""

    path: str
    text: str
    data: Any
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
    """UTF-8 without a byte-order mark, or a ParseError that says where it went wrong."""
    if raw.startswith(BOM):
        raise ParseError("file starts with a UTF-8 byte-order mark; save it as UTF-8 without a BOM", 1, 1)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = raw[: exc.start].decode("utf-8", errors="replace")
        line = prefix.count("\n") + 1
        col = len(prefix) - (prefix.rfind("\n") + 1) + 1
        raise ParseError(f"not valid UTF-8: byte 0x{raw[exc.start]:02x} at offset {exc.start}", line, col) from None


def parse_json(path: str, raw: bytes) -> JsonDoc:
    text = decode_text(raw)
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ParseError(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except ValueError as exc:  # NaN / Infinity
        raise ParseError(f"invalid JSON: {exc}", 1, 1) from None
    except RecursionError:
        raise ParseError("JSON nested too deeply to process; flatten the structure", 1, 1) from None
    return JsonDoc(path=path, text=text, data=data)


# --- YAML -----------------------------------------------------------------------------------


class YamlMap(dict[str, Any]):
    """A mapping that knows its own line and the line of each of its keys."""

    line: int = 1
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        lines: dict[str, int] = getattr(self, "key_lines", {})
        return lines.get(key, self.line)


class YamlList(list[Any]):
    line: int = 1
    item_lines: list[int]

    def line_of(self, index: int) -> int:
        lines: list[int] = getattr(self, "item_lines", [])
        return lines[index] if index < len(lines) else self.line


class _Loader(yaml.SafeLoader):
    pass


def _mapping(loader: _Loader, node: yaml.MappingNode) -> YamlMap:
    loader.flatten_mapping(node)
    result = YamlMap()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[str(key)] = key_node.start_mark.line + 1
    return result


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> YamlList:
    result = YamlList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


@dataclass
class YamlDoc:
    path: str
    text: str
    data: Any


def parse_yaml(path: str, text: str) -> YamlDoc:
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise ParseError(f"invalid YAML: {exc.problem or exc}", line, col) from None
    except yaml.YAMLError as exc:
        raise ParseError(f"invalid YAML: {exc}", 1, 1) from None
    except RecursionError:
        raise ParseError("YAML nested too deeply to process", 1, 1) from None
    return YamlDoc(path=path, text=text, data=data)
