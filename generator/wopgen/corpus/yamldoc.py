"""Safe YAML loading that keeps the line of every mapping, key and list item."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml


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


# libyaml's parser where it is installed (several times faster); the constructors below are the
# same either way, so the data and its lines do not depend on which parser read the text.
_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SafeLoader):  # type: ignore[valid-type,misc]
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


def parse_yaml(path: str, text: str) -> YamlDoc:
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise YamlLoadError(f"invalid YAML: {exc.problem or exc}", line, col) from None
    except yaml.YAMLError as exc:
        raise YamlLoadError(f"invalid YAML: {exc}", 1, 1) from None
    except RecursionError:
        raise YamlLoadError("YAML nested too deeply to process", 1, 1) from None
    return YamlDoc(path=path, text=text, data=data)
