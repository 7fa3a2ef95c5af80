"""Lists laid out for the site's Markdown, which reads them more strictly than CommonMark.

Pages are written for CommonMark (what `check` reads, and what a repository host shows). The site
converts them with Python-Markdown, which needs more of a list than CommonMark does:
- a blank line before a list that follows a paragraph line, which it otherwise reads as part of the
  paragraph (`Headers:` then `- Authorization`);
- four spaces more than its parent's marker before a nested item, and before each further block of an
  item (a paragraph or code after a blank line), which CommonMark takes at the item's content column
  (two spaces after `- `, three after `1. `);
- a blank line before the item that follows an item of several blocks, where it would read the marker
  as the last paragraph's continuation;
- `.` after an item's number: it does not know `1)`.

`for_the_site` rewrites the lines of a page, from the lists `check`'s reader found in it, so that
Python-Markdown reads the lists CommonMark reads. Lines keep their number (a blank line added before
one is a leading newline of that line), so a caller can still cut lines out by the reader's numbers.
Items inside a block quote, or indented with a tab, are left as written.
"""

from __future__ import annotations

from collections.abc import Sequence

from wopgen.corpus.markdown import ListItem

# Where the site's Markdown wants a nested item, or a further block of an item: this much further in
# than the item's marker (its tab length).
_INDENT = 4
_MARKERS = frozenset("-*+0123456789")


def for_the_site(lines: list[str], items: Sequence[ListItem]) -> list[str]:
    """`lines` (the page's, 0-based for the reader's 1-based numbers) with its lists laid out for the site."""
    if not items:
        return lines
    shift = [0] * (len(lines) + 1)  # spaces added before each line
    blank_before: set[int] = set()  # lines to put a blank line before (0-based)
    column: list[int | None] = []  # each item's marker column once shifted; None where it is left as written
    several: set[int] = set()  # items with a block of their own after their first line
    last_of: dict[int, int] = {}  # each list's item seen last
    for index, item in enumerate(items):
        start = item.line - 1
        line = lines[start] if start < len(lines) else ""
        parent_at = column[item.parent] if item.parent >= 0 else 0
        if not (item.column < len(line) and line[item.column] in _MARKERS) or parent_at is None:
            column.append(None)  # in a block quote, after a tab, or in an item left as written
            continue
        at = item.column + shift[start]
        if item.parent >= 0:
            wanted = parent_at + _INDENT
            if at < wanted:
                _move(lines, shift, start, item.end, wanted - at)
                at = wanted
        elif item.interrupts:
            blank_before.add(start)
        column.append(at)
        before = last_of.get(item.list)
        if before is not None and before in several and start and lines[start - 1].strip():
            blank_before.add(start)
        last_of[item.list] = index
        for first, last in item.blocks:
            if first < 2 or lines[first - 2].strip():
                continue  # a continuation of the block before it, not a block of its own
            several.add(index)
            indent = len(lines[first - 1]) - len(lines[first - 1].lstrip(" ")) + shift[first - 1]
            if indent < at + _INDENT:
                _move(lines, shift, first - 1, last, at + _INDENT - indent)
    out = []
    for number, line in enumerate(lines):
        if line.strip() and shift[number]:
            line = " " * shift[number] + line
        if number in blank_before:
            line = "\n" + line
        out.append(line)
    return [_numbered(line, item) for line, item in zip(out, _delimiters(items, len(out)), strict=True)]


def _move(lines: list[str], shift: list[int], first: int, last: int, by: int) -> None:
    """Shift lines `first` (0-based) to `last` (1-based: the last line itself) by `by` spaces."""
    for number in range(first, min(last, len(lines))):
        shift[number] += by


def _delimiters(items: Sequence[ListItem], count: int) -> list[ListItem | None]:
    """The item whose marker is `1)` on each line, else None."""
    found: list[ListItem | None] = [None] * count
    for item in items:
        if item.delimiter == ")" and item.line - 1 < count:
            found[item.line - 1] = item
    return found


def _numbered(line: str, item: ListItem | None) -> str:
    """`line` with the `)` after its item's number written `.`."""
    if item is None:
        return line
    body = line.lstrip("\n ")
    lead = line[: len(line) - len(body)]
    digits = len(body) - len(body.lstrip("0123456789"))
    if not digits or body[digits : digits + 1] != ")":
        return line
    return lead + body[:digits] + "." + body[digits + 1 :]
