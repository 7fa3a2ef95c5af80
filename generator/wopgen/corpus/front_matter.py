"""A page's front matter, read as the docs site reads it.

mkdocs takes a page's metadata from its first lines (`mkdocs.utils.meta.get_data`): a YAML mapping
between a `---` line on the very first line and the next line that is `---` or `...`; failing that,
MultiMarkdown `key: value` lines up to the first blank one. What it takes is left out of the page. A
YAML block that does not load, or loads as something other than a mapping, stays on the page and is
shown as text. This reader asks mkdocs' own function, regular expression and YAML loader, so what it
finds is what the site will find, and notes where each key is written so a check can point at it.
mkdocs is imported when a page first needs it: most pages open with their `# title` and have none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from wopgen.corpus.documents import MAX_YAML_DEPTH, yaml_too_deep

YAML = "yaml"
MULTIMARKDOWN = "multimarkdown"

_NEWLINE = re.compile(r"\r\n?")  # mkdocs reads a page with universal newlines
_BLANK_LINES = re.compile(r"(?:[ \t]*\n)+")
# The opening and closing lines of mkdocs' YAML_RE with nothing between them, which it does not match
# (it wants a line between the two): empty front matter, shown as a heading `---`.
_EMPTY = re.compile(r"-{3}[ \t]*\n(?:\.{3}|-{3})[ \t]*(?:\n|$)")


@dataclass(frozen=True)
class Duplicate:
    key: str
    line: int
    first: int  # the line where the key is first given


@dataclass(frozen=True)
class FrontMatter:
    """What the site makes of the top of a page.

    `lines` is how many of the page's first lines the site takes off it (0 when it reads none and the
    page is shown whole); `data` is what it reads from them, `keys` the line of each key. `problem`,
    with `line` and `col`, says why a block written as YAML front matter is not read (and so shown
    as text)."""

    form: str  # YAML or MULTIMARKDOWN
    lines: int
    data: Mapping[Any, Any] = field(default_factory=dict)
    keys: Mapping[str, int] = field(default_factory=dict)
    duplicates: tuple[Duplicate, ...] = ()
    problem: str | None = None
    line: int = 1
    col: int = 1

    def line_of(self, key: str) -> int:
        """The line of `key` (of the front matter's first line when it has no line of its own, as a
        key merged in from an alias)."""
        return self.keys.get(key, 1)


def read_front_matter(text: str) -> FrontMatter | None:
    """The front matter of the page `text` (None when the site finds none and none is written)."""
    # mkdocs reads metadata only from a page whose first line is --- or a key (a letter, digit, _ or
    # -), and what this reader reports besides opens with --- or blank lines: a page that opens with
    # its # title has none.
    if text.startswith("#"):
        return None
    from mkdocs.utils import meta

    source = _NEWLINE.sub("\n", text)
    block = meta.YAML_RE.match(source)
    deep = yaml_too_deep(block.group(1)) if block is not None else None
    if deep is not None:  # mkdocs' reader would take the process down with it (see MAX_YAML_DEPTH)
        return FrontMatter(
            YAML, 0, problem=f"nests more than {MAX_YAML_DEPTH:,} levels deep", line=1 + deep[0], col=deep[1]
        )
    rest, data = meta.get_data(source)
    taken = source[: len(source) - len(rest)]  # what mkdocs took off the page (it returns the rest of it)
    count = taken.count("\n") + (1 if taken and not taken.endswith("\n") else 0)
    if block is not None:
        if count:
            keys, duplicates = _keys(block.group(1), 2)
            return FrontMatter(YAML, count, data, keys, duplicates)
        return _unread(block.group(1), 2)
    if data:  # (with none, mkdocs took no more than blank lines)
        return FrontMatter(MULTIMARKDOWN, count, data, _multimarkdown_keys(taken))
    if _EMPTY.match(source):
        return FrontMatter(YAML, 0, problem="is empty, not a mapping of keys to values", line=1)
    return _below_blank_lines(source)


def _keys(block: str, first: int) -> tuple[dict[str, int], tuple[Duplicate, ...]]:
    """The line of each top-level key of the YAML mapping `block` (whose first line is line `first` of
    the page), and the keys given more than once."""
    node = yaml.compose(block, Loader=_loader())
    keys: dict[str, int] = {}
    duplicates: list[Duplicate] = []
    for key_node, _value in node.value if isinstance(node, yaml.MappingNode) else ():
        if not isinstance(key_node, yaml.ScalarNode):
            continue
        line = first + key_node.start_mark.line
        if key_node.value in keys:
            duplicates.append(Duplicate(key_node.value, line, keys[key_node.value]))
        else:
            keys[key_node.value] = line
    return keys, tuple(duplicates)


def _unread(block: str, first: int) -> FrontMatter:
    """A YAML block at the top of a page that the site does not read: why not, and where."""
    try:
        data = yaml.load(block, Loader=_loader())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = (first + mark.line, mark.column + 1) if mark is not None else (first, 1)
        return FrontMatter(YAML, 0, problem=f"is not valid YAML: {exc.problem or exc}", line=where[0], col=where[1])
    except Exception as exc:  # what else mkdocs' reader gives up on (a date such as 2026-13-45)
        return FrontMatter(YAML, 0, problem=f"is not valid YAML: {exc}", line=first)
    return FrontMatter(YAML, 0, problem=f"is {_kind(data)}, not a mapping of keys to values", line=first)


def _kind(data: Any) -> str:
    if data is None:
        return "empty"
    if isinstance(data, list):
        return "a list"
    if isinstance(data, str):
        return "a line of text"
    return f"a single value ({type(data).__name__})"


def _loader() -> Any:
    """The YAML loader mkdocs' get_data loads with (libyaml's safe loader where it is installed)."""
    from mkdocs.utils import meta

    return meta.SafeLoader  # type: ignore[attr-defined]  # (imported there, not re-exported)


def _multimarkdown_keys(taken: str) -> dict[str, int]:
    """The line of each key of MultiMarkdown metadata (keys in lower case, as mkdocs reads them)."""
    from mkdocs.utils import meta

    keys: dict[str, int] = {}
    for number, line in enumerate(taken.split("\n"), start=1):
        found = meta.META_RE.match(line)
        if found is not None:
            keys.setdefault(found.group("key").lower().strip(), number)
    return keys


def _below_blank_lines(source: str) -> FrontMatter | None:
    """Front matter written after blank lines: a block mkdocs would read at the top, which below them
    it leaves on the page as text."""
    from mkdocs.utils import meta

    blank = _BLANK_LINES.match(source)
    if blank is None:
        return None
    below = source[blank.end() :]
    if meta.YAML_RE.match(below) is None:
        return None
    _rest, data = meta.get_data(below)
    if not data:  # not a mapping, or an empty one: rules and text, not front matter
        return None
    skipped = blank.group(0).count("\n")
    return FrontMatter(YAML, 0, problem=f"starts on line {skipped + 1}, not on the page's first line", line=skipped + 1)


__all__ = ["MULTIMARKDOWN", "YAML", "Duplicate", "FrontMatter", "read_front_matter"]
