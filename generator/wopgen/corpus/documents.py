"""The documents of the corpus, parsed with positions: JSON and YAML, one parse-error type.

JSON: parsing uses the C `json` module; the pointer-to-offset index is built lazily the first time
a position is asked for, so a clean corpus never pays for it. YAML: safe loading that keeps the line
of every mapping, key and list item. Either way a document that does not parse is a `ParseError`
with the line and column of the problem.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

from wopgen.corpus.keywords import draft_of

# How many nodes a YAML document may expand to once every alias is followed.
# What a corpus file may hold; the loader refuses a larger one before reading it.
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_EXPANDED_NODES = 200_000

_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')
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
    # Each frame: [pointer of the container, its current key (escaped) or next index, whether the next
    # string is a key (None in an array)].
    stack: list[list[Any]] = []
    for match in _TOKEN.finditer(text):
        tok = match.group()
        first = tok[0]  # every token has one
        if first == ",":
            if stack:
                frame = stack[-1]
                if frame[2] is None:
                    frame[1] += 1
                else:
                    frame[2] = True
            continue
        if first == ":":
            continue
        if first == "}" or first == "]":
            stack.pop()
            continue
        if stack:
            frame = stack[-1]
            if frame[2]:  # a key: a string, decoded only when it holds an escape
                key = json.loads(tok) if "\\" in tok else tok[1:-1]
                frame[1] = escape_token(key) if "~" in key or "/" in key else key
                frame[2] = False
                continue
            current = f"{frame[0]}/{frame[1]}"
        else:
            current = ""
        offsets[current] = match.start()
        if first == "{":
            stack.append([current, "", True])
        elif first == "[":
            stack.append([current, 0, None])
    return offsets


_SPACE = re.compile(r"[ \t\n\r]*")
_INDEX = re.compile(r"0|[1-9][0-9]*")
_VALUE = json.JSONDecoder()


def _skip(text: str, at: int) -> int:
    """The first offset from `at` that is not JSON whitespace."""
    return _SPACE.match(text, at).end()  # type: ignore[union-attr]  # `*` always matches


def _after_value(text: str, at: int) -> int:
    """The first offset after the value starting at `at` and the whitespace and comma after it."""
    at = _skip(text, _VALUE.raw_decode(text, at)[1])
    return _skip(text, at + 1) if text[at] == "," else at


def _offset(text: str, where: str) -> int:
    """Where the value at pointer `where` starts in a valid JSON text without repeated keys, or its
    nearest existing ancestor: `_index(text)` asked about one pointer, found by descending to it and
    stepping over the values beside the way (parsed by the `json` module's scanner)."""
    at = _skip(text, 0)
    for token in where.split("/")[1:] if where else ():
        opener = text[at]
        if opener == "{":
            found, i = None, _skip(text, at + 1)
            while text[i] != "}":
                key, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
                i = _skip(text, _skip(text, i) + 1)  # past the colon
                if (escape_token(key) if "~" in key or "/" in key else key) == token:
                    found = i
                i = _after_value(text, i)
            if found is None:
                return at
            at = found
        elif opener == "[" and _INDEX.fullmatch(token):
            i = _skip(text, at + 1)
            for _ in range(int(token)):
                if text[i] == "]":
                    return at
                i = _after_value(text, i)
            if text[i] == "]":
                return at
            at = i
        else:
            return at
    return at


def may_write(text: str, *names: str) -> bool:
    """Whether the JSON source `text` may hold a member named one of `names`: every member is written
    `"name"` there unless a `\\u` escape spells it, so a text with neither holds none (and the document
    need not be walked to know)."""
    return "\\u" in text or any(f'"{name}"' in text for name in names)


def may_embed_id(text: str, data: Any) -> bool:
    """Whether some object below the root of the schema document `data` may have an `$id` member,
    read from its source `text`: every such member is written `"$id"` there unless a `\\u` escape
    spells it, so a text with no escape and no `"$id"` beyond the root's own cannot have one (and
    need not be walked to know)."""
    key = draft_of(data).id_key  # `id` in a draft-04 schema
    own = 1 if isinstance(data, dict) and key in data else 0
    return "\\u" in text or text.count(f'"{key}"') > own


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


# How many pointers of one file are found on their own before its positions are indexed.
_FOUND_ALONE = 8


@dataclass
class JsonDoc:
    """A parsed JSON file: its text, its value, and positions on demand."""

    path: str
    text: str
    data: Any
    duplicates: list[DuplicateKey] = field(default_factory=list)
    _offsets: dict[str, int] | None = field(default=None, repr=False)
    _starts: list[int] | None = field(default=None, repr=False)
    _asked: int = field(default=0, repr=False)

    def locate(self, where: str | Iterable[str | int] = "") -> tuple[int, int]:
        """line, col (1-based) of the value at a pointer, or of its nearest existing ancestor.

        The first few pointers asked of a file are each found on their own; from then on (or at once,
        for a file with repeated keys) every position is indexed in one pass and read from there."""
        ptr = where if isinstance(where, str) else pointer(where)
        if self._offsets is None and not self.duplicates and self._asked < _FOUND_ALONE:
            self._asked += 1
            text = self.text
            try:
                offset = _offset(text, ptr)
            except (IndexError, ValueError):  # a text that is not the JSON of `data`: the index copes
                self._asked = _FOUND_ALONE
            else:
                start = text.rfind("\n", 0, offset) + 1  # of its line
                return text.count("\n", 0, offset) + 1, offset - start + 1
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


class _Refused(ValueError):
    """A literal `json` would accept that is no JSON number: NaN, Infinity, or a number past the
    range of a double (read as infinity, which no JSON text or YAML writer can give back)."""

    def __init__(self, literal: str, message: str) -> None:
        super().__init__(message)
        self.literal = literal


def _reject_constant(name: str) -> Any:
    raise _Refused(name, f"{name} is not valid JSON")


def json_value(text: str) -> Any:
    """`text` read as JSON (RFC 8259): a ValueError for `NaN`, `Infinity` and `-Infinity` too, which
    Python's reader takes though no JSON holds them. For text from elsewhere (a host's answers); a
    corpus file is read by `parse_json`, which also locates what it refuses."""
    return json.loads(text, parse_constant=_reject_constant)


def _finite(literal: str) -> float:
    """The number `literal` writes, unless it is too large to be kept as anything but infinity."""
    value = float(literal)
    if math.isinf(value):
        raise _Refused(literal, f"the number {literal} is out of range (it would be read as infinity)")
    return value


def _literal_at(text: str, literal: str) -> tuple[int, int]:
    """line, col of the first bare token (not inside a string) written `literal`: the one the parser,
    which reads in order, refused."""
    for match in _TOKEN.finditer(text):
        if match.group() == literal:
            return line_col(_line_starts(text), match.start())
    return 1, 1


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
        data = json.loads(text, parse_constant=_reject_constant, parse_float=_finite, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        raise ParseError(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except _Refused as exc:
        raise ParseError(f"invalid JSON: {exc}", *_literal_at(text, exc.literal)) from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise ParseError(f"invalid JSON: {exc}", 1, 1) from None
    except RecursionError:
        raise ParseError("JSON nested too deeply to process; flatten the structure", 1, 1) from None
    return JsonDoc(path=path, text=text, data=data, duplicates=_duplicate_keys(text) if repeated else [])


# --- YAML -----------------------------------------------------------------------------------


class YamlMap(dict[str, Any]):
    """A mapping that knows its own line and where each of its members is written."""

    line: int = 1
    marks: dict[str, tuple[int, int]]  # key -> line, col (1-based): see `mark_of`

    def line_of(self, key: str) -> int:
        """The line of the key `key` (of the mapping itself when it has no such key)."""
        return self.mark_of(key)[0]

    def mark_of(self, key: str) -> tuple[int, int]:
        """line, col (1-based) of the member `key`: on the key's line, at its value when that is a
        scalar written there, else at the key."""
        marks: dict[str, tuple[int, int]] = getattr(self, "marks", {})
        return marks.get(key, (self.line, 1))


class YamlList(list[Any]):
    line: int = 1
    item_marks: list[tuple[int, int]]  # line, col (1-based) where each item starts

    def line_of(self, index: int) -> int:
        return self.mark_of(index)[0]

    def mark_of(self, index: int) -> tuple[int, int]:
        """line, col (1-based) where the item `index` starts."""
        marks: list[tuple[int, int]] = getattr(self, "item_marks", [])
        return marks[index] if index < len(marks) else (self.line, 1)


def line_at(data: Any, parts: list[Any]) -> int:
    """The line of the value at `parts` (keys and indexes) in a YAML tree, or of the nearest
    enclosing value whose line is known."""
    return locate_at(data, parts)[0]


def locate_at(data: Any, parts: list[Any]) -> tuple[int, int]:
    """line, col (1-based) of the value at `parts` (keys and indexes) in a YAML tree (see
    `YamlMap.mark_of`), or of the nearest enclosing value whose place is known."""
    where = (getattr(data, "line", 1), 1)
    node = data
    for part in parts:
        if isinstance(node, YamlMap) and str(part) in node:
            where = node.mark_of(str(part))
            node = node[str(part)]
        elif isinstance(node, YamlList) and isinstance(part, int) and part < len(node):
            where = node.mark_of(part)
            node = node[part]
        else:
            break
    return where


# libyaml's parser where it is installed (several times faster); the constructors below are the
# same either way, so the data and its lines do not depend on which parser read the text.
_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SafeLoader):  # type: ignore[valid-type,misc]
    duplicates: list[DuplicateKey]


def _mapping(loader: _Loader, node: yaml.MappingNode) -> YamlMap:
    loader.flatten_mapping(node)
    result = YamlMap()
    result.line = node.start_mark.line + 1
    result.marks = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value, not a list or a mapping", key_node.start_mark
            )
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if key in result:
            first = result.line_of(str(key))
            loader.duplicates.append(DuplicateKey(str(key), line, key_node.start_mark.column + 1, first))
        result[key] = loader.construct_object(value_node, deep=True)
        if str(key) not in result.marks:
            mark = value_node.start_mark if isinstance(value_node, yaml.ScalarNode) else key_node.start_mark
            if mark.line + 1 != line:  # a scalar continued on the next line: the key is the place
                mark = key_node.start_mark
            result.marks[str(key)] = (line, mark.column + 1)
    return result


def _strict(construct: Callable[[Any, Any], Any], what: str) -> Callable[[_Loader, yaml.Node], Any]:
    """A safe constructor whose ValueError becomes a parse error at the node."""

    def build(loader: _Loader, node: yaml.Node) -> Any:
        try:
            return construct(loader, node)
        except (ValueError, OverflowError, TypeError) as exc:
            raise yaml.constructor.ConstructorError(None, None, f"not a valid {what}: {exc}", node.start_mark) from None

    return build


def _timestamp(loader: _Loader, node: yaml.Node) -> Any:
    """Dates stay text: `2026-05-01` is read as the string it is written as, whatever it holds."""
    return loader.construct_scalar(node)


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> YamlList:
    result = YamlList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_marks = [(child.start_mark.line + 1, child.start_mark.column + 1) for child in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
for _tag, _what in (("int", "integer"), ("float", "number"), ("binary", "base64 value"), ("bool", "boolean")):
    _Loader.add_constructor(
        f"tag:yaml.org,2002:{_tag}", _strict(yaml.SafeLoader.yaml_constructors[f"tag:yaml.org,2002:{_tag}"], _what)
    )


def _expanded_size(root: yaml.Node) -> int:
    """How many nodes the document holds once every alias is followed (a shared node counts once
    per use); raises ParseError past MAX_EXPANDED_NODES or on an alias that contains itself."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in active:
            raise ParseError("an alias refers to a node that contains it", node.start_mark.line + 1, 1)
        active.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(child) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        active.discard(key)
        if total > MAX_EXPANDED_NODES:
            raise ParseError(
                f"aliases expand this document past {MAX_EXPANDED_NODES:,} values; write the data out instead",
                node.start_mark.line + 1,
                node.start_mark.column + 1,
            )
        sizes[key] = total
        return total

    return size(root)


@dataclass
class YamlDoc:
    path: str
    text: str
    data: Any
    duplicates: list[DuplicateKey] = field(default_factory=list)


# libyaml builds a document's nodes by recursion in C: a document nested some 50,000 levels deep (100 KB
# of `[`) overflows the C stack and kills the process before any Python guard runs (20,000 levels are
# still built). Nothing in a corpus nests anywhere near this deep, and Python's own limits refuse far
# less already, with a finding.
MAX_YAML_DEPTH = 10_000
# Levels that more indentation alone opens: each needs a line indented more than the one before, so d of
# them take at least d * (d - 1) / 2 characters, and a file holds at most MAX_FILE_BYTES.
_INDENTED_LEVELS = math.isqrt(2 * MAX_FILE_BYTES) + 1


def yaml_too_deep(text: str) -> tuple[int, int] | None:
    """(line, column), 1-based, where the YAML stream `text` nests past MAX_YAML_DEPTH; None when it does
    not (or cannot be parsed: the loader then says why). The parser's events are read one by one, which
    takes no recursion, and only where the text could nest so deep: every level opens with a `[`, `{`,
    `-` or `?`, or with more indentation (`_INDENTED_LEVELS`)."""
    if sum(text.count(c) for c in "[{-?") + _INDENTED_LEVELS <= MAX_YAML_DEPTH:
        return None
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_SafeLoader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_YAML_DEPTH:
                    mark = event.start_mark
                    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return None
    return None


def parse_yaml(path: str, text: str) -> YamlDoc:
    deep = yaml_too_deep(text)
    if deep is not None:
        raise ParseError(f"YAML nested more than {MAX_YAML_DEPTH:,} levels deep; flatten the structure", *deep)
    try:
        loader = _Loader(text)  # its reader refuses control characters right away
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise ParseError(f"invalid YAML: {exc.reason} (character {exc.character!r})", line, 1) from None
    loader.duplicates = []
    try:
        node = loader.get_single_node()
        if node is not None:
            _expanded_size(node)
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise ParseError(f"invalid YAML: {exc.problem or exc}", line, col) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise ParseError(f"invalid YAML: {exc.reason} (character {exc.character!r})", line, 1) from None
    except yaml.YAMLError as exc:
        raise ParseError(f"invalid YAML: {exc}", 1, 1) from None
    except RecursionError:
        raise ParseError("YAML nested too deeply to process", 1, 1) from None
    finally:
        loader.dispose()
    return YamlDoc(path=path, text=text, data=data, duplicates=loader.duplicates)
