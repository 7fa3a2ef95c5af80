"""Safe YAML loading that keeps the line of every mapping, key and list item.

Strict where YAML is lenient: a key written twice is recorded (at its second line) for the loader
to report; a key that is a list or a mapping, a value a safe tag cannot build (`!!int abc`, the
date `2026-13-45`, an integer of more than 4,300 digits) and aliases that expand past a bound
(a "billion laughs" document) are parse errors with a line, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from wopgen.corpus.documents import DuplicateKey

# How many nodes a document may expand to once every alias is followed.
MAX_EXPANDED_NODES = 200_000


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
    duplicates: list[DuplicateKey]


def _mapping(loader: _Loader, node: yaml.MappingNode) -> YamlMap:
    loader.flatten_mapping(node)
    result = YamlMap()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value, not a list or a mapping", key_node.start_mark
            )
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if key in result:
            first = result.key_lines.get(str(key), result.line)
            loader.duplicates.append(DuplicateKey(str(key), line, key_node.start_mark.column + 1, first))
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines.setdefault(str(key), line)
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
    return loader.construct_scalar(node)  # type: ignore[arg-type]


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> YamlList:
    result = YamlList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
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
    per use); raises YamlLoadError past MAX_EXPANDED_NODES or on an alias that contains itself."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in active:
            raise YamlLoadError("an alias refers to a node that contains it", node.start_mark.line + 1, 1)
        active.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(child) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        active.discard(key)
        if total > MAX_EXPANDED_NODES:
            raise YamlLoadError(
                f"aliases expand this document past {MAX_EXPANDED_NODES:,} values; write the data out instead",
                node.start_mark.line + 1,
                node.start_mark.column + 1,
            )
        sizes[key] = total
        return total

    return size(root)


class YamlLoadError(Exception):
    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


@dataclass
class YamlDoc:
    path: str
    text: str
    data: Any
    duplicates: list[DuplicateKey] = field(default_factory=list)


def parse_yaml(path: str, text: str) -> YamlDoc:
    try:
        loader = _Loader(text)  # its reader refuses control characters right away
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise YamlLoadError(f"invalid YAML: {exc.reason} (character {exc.character!r})", line, 1) from None
    loader.duplicates = []
    try:
        node = loader.get_single_node()
        if node is not None:
            _expanded_size(node)
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise YamlLoadError(f"invalid YAML: {exc.problem or exc}", line, col) from None
    except yaml.YAMLError as exc:
        raise YamlLoadError(f"invalid YAML: {exc}", 1, 1) from None
    except RecursionError:
        raise YamlLoadError("YAML nested too deeply to process", 1, 1) from None
    finally:
        loader.dispose()
    return YamlDoc(path=path, text=text, data=data, duplicates=loader.duplicates)
