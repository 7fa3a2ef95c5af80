"""Prose against schema: a value the prose gives an enumerated member must be one of its enum.

The schemas say which values a member such as `onFail` or `disposition` may take; the pages and
RFCs name those values again in backticks. This check reads every property whose schema (through
`$ref`, `anyOf`/`oneOf` and `const`) is a closed set of strings, and flags a value the prose
assigns to that property when the set does not have it. Three spellings count as an assignment:

- one code span holding `name: value` (`onFail: reject`);
- a code span `name` followed by `:`, `is`, `is one of` or `one of` and a list of code spans
  joined by commas, `or`, `and` or `|`, each optionally followed by a parenthesis
  ("`onFail`: `reject` (stops the run), `conditional_pass` or `escalate`");
- a table whose header cell is the code span `name`: every cell of that column that is one code
  span.

The text of a link to a rejected example (a path with `/invalid/`) is a counter-example that names
a wrong value on purpose, and is skipped.

A property name used with different meanings (an enum in one schema, another enum or a free
string in another) is ambiguous in prose and is not checked.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator, Mapping
from typing import Any

from wopgen.corpus import Corpus
from wopgen.corpus.documents import escape_token
from wopgen.corpus.graph import Located, Position, RefGraph, Status
from wopgen.corpus.markdown import Link, MarkdownDoc
from wopgen.diagnostics import Diagnostic, define

ENUM_VALUE = define(
    "doc-enum-value",
    "error",
    "Prose gives an enumerated member (in backticks) a value its schema's enum does not have.",
)

_VALUE = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]*")
_PAIR = re.compile(r'`([A-Za-z_][A-Za-z0-9_]*): "?([A-Za-z_][A-Za-z0-9_.:-]*)"?`')
_NAME = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`")
_LEAD = re.compile(r"\s*(?::|\bis one of\b|\bis\b|\bone of\b)\s*")
_ITEM = re.compile(r"`([^`]+)`(\s*\([^()]*\))?")
_JOIN = re.compile(r"\s*(?:,\s*(?:or\s+|and\s+)?|\bor\b\s*|\band\b\s*|\|\s*)")
_MAX_DEPTH = 16
_DELIMITER = re.compile(r":?-+:?")  # a cell of a table's delimiter row


def enum_values(corpus: Corpus) -> dict[str, frozenset[str]]:
    """Every property name whose schema is the same closed set of strings wherever it appears.

    A name that is a closed set in one place and open, or a different set, in another has more
    than one meaning, and prose cannot say which one it means: it is left out.
    """
    found: dict[str, set[frozenset[str] | None]] = {}
    graph = corpus.graph
    for path in sorted(corpus.schemas):
        if not corpus.resolvable(path):
            continue
        for item in graph.objects(path):
            if item.position is not Position.SCHEMA:
                continue
            properties = item.node.get("properties")
            if not isinstance(properties, dict):
                continue
            at = f"{item.pointer}/properties/"
            for name, schema in properties.items():
                values = _strings(graph, Located(path, at + escape_token(name)), 0, schema)
                found.setdefault(name, set()).add(frozenset(values) if values else None)
    closed: dict[str, frozenset[str]] = {}
    for name, sets in found.items():
        only = next(iter(sets))
        if len(sets) == 1 and only is not None:
            closed[name] = only
    return closed


def _strings(graph: RefGraph, where: Located, depth: int, node: Any = None) -> set[str] | None:
    """The closed set of strings the subschema at `where` (`node`, when the caller has it) allows,
    or None when it is not one."""
    if node is None:
        node = graph.node(where)
    if not isinstance(node, dict) or depth > _MAX_DEPTH:
        return None
    if isinstance(node.get("enum"), list):
        values = node["enum"]
        return {v for v in values if isinstance(v, str)} if all(isinstance(v, str) for v in values) else None
    if isinstance(node.get("const"), str):
        return {node["const"]}
    site = graph.site_at(where)
    if site is not None:
        if site.status is not Status.RESOLVED or site.target is None:
            return None  # schema-ref-unresolved reports it; here it is simply not an enum
        return _strings(graph, site.target, depth + 1)
    for keyword in ("anyOf", "oneOf"):
        branches = node.get(keyword)
        if isinstance(branches, list) and branches:
            union: set[str] = set()
            for index in range(len(branches)):
                values = _strings(graph, where.child(keyword, index), depth + 1, branches[index])
                if values is None:
                    return None
                union |= values
            return union
    return None


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    enums = enum_values(corpus)
    if not enums:
        return
    # Every assignment and every enumerated table column opens with a code span naming the member
    # (`name:` or `name`): a page without one cannot assign a value, and is not read line by line.
    named = re.compile("`(?:" + "|".join(re.escape(name) for name in sorted(enums)) + ")[:`]")
    pages: list[MarkdownDoc] = [*corpus.docs.values(), *(r.doc for r in corpus.rfcs.values())]
    for page in sorted(pages, key=lambda p: p.path):
        if named.search(page.text):
            yield from _page(page, enums)


def _page(page: MarkdownDoc, enums: Mapping[str, frozenset[str]]) -> Iterator[Diagnostic]:
    columns: dict[int, str] = {}  # the enumerated columns of the table being read
    counter_examples: dict[int, list[Link]] = {}
    for link in page.links:
        if "/invalid/" in link.target:
            counter_examples.setdefault(link.line, []).append(link)
    front = page.front_matter_lines  # taken off the page by the site: no claim of the page's
    for number, line in enumerate(page.lines, 1):
        if number <= front or number in page.code_lines:
            continue
        if "`" in line:  # every assignment is written in code spans
            for name, value, col in _assignments(_blanked(line, counter_examples.get(number, [])), enums):
                if value not in enums[name]:
                    yield _finding(page.path, number, col, name, value, enums[name])
        columns = (yield from _table_row(page.path, number, line, columns, enums)) if "|" in line else {}


def _blanked(line: str, counter_examples: list[Link]) -> str:
    """The line with every link to a rejected example blanked (same columns): a counter-example
    names a wrong value on purpose."""
    for link in counter_examples:
        start = link.col - 1
        line = line[:start] + " " * min(link.length, len(line) - start) + line[start + link.length :]
    return line


def _assignments(line: str, enums: Mapping[str, frozenset[str]]) -> Iterator[tuple[str, str, int]]:
    """(property, value, column) for every value the line assigns to an enumerated property."""
    for match in _PAIR.finditer(line):
        if match.group(1) in enums:
            yield match.group(1), match.group(2), match.start(2) + 1
    for match in _NAME.finditer(line):
        name = match.group(1)
        if name not in enums:
            continue
        lead = _LEAD.match(line, match.end())
        if lead is None:
            continue
        at = lead.end()
        while True:
            item = _ITEM.match(line, at)
            if item is None or not _VALUE.fullmatch(item.group(1)):
                break
            yield name, item.group(1), item.start(1) + 1
            join = _JOIN.match(line, item.end())
            if join is None or join.end() == item.end():
                break
            at = join.end()


def _table_row(
    path: str, number: int, line: str, columns: dict[int, str], enums: Mapping[str, frozenset[str]]
) -> Generator[Diagnostic, None, dict[int, str]]:
    """Check one line as a table row; return the enumerated columns for the next row (generator return)."""
    stripped = line.strip()
    if not stripped.startswith("|"):
        return {}
    cells = [cell.strip() for cell in stripped.strip("|").split("|")]
    if all(_DELIMITER.fullmatch(cell) for cell in cells if cell):
        return columns
    if not columns:
        header = {i: m.group(1) for i, cell in enumerate(cells) if (m := _NAME.fullmatch(cell)) and m.group(1) in enums}
        return header if header else {-1: ""}
    for index, name in columns.items():
        if 0 <= index < len(cells):
            cell = _NAME.fullmatch(cells[index])
            if cell and cell.group(1) not in enums[name]:
                col = line.find(cells[index]) + 2
                yield _finding(path, number, col, name, cell.group(1), enums[name])
    return columns


def _finding(path: str, line: int, col: int, name: str, value: str, allowed: frozenset[str]) -> Diagnostic:
    return ENUM_VALUE.at(
        path,
        line,
        f"`{name}` is given the value {value!r}, which its schema's enum does not have",
        f"use one of {', '.join(sorted(allowed))}, or add the value to the schema first",
        col=col,
    )
