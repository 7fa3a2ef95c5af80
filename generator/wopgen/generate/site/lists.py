"""Lists laid out for the site's Markdown, which reads them more strictly than CommonMark.

Pages are written for CommonMark (what `check` reads, and what a repository host shows). The site
converts them with Python-Markdown, which needs more of a list than CommonMark does:
- a blank line before a list that follows a paragraph line (`Headers:` then `- Authorization`), which
  it otherwise reads as part of the paragraph; inside an item, where that paragraph is not the item's
  first;
- four spaces more than its parent's marker before a nested item, and before each further block of an
  item (a paragraph or code after a blank line), which CommonMark takes at the item's content column
  (two spaces after `- `, three after `1. `); code keeps its distance past that column;
- a blank line before an item when a blank line came earlier in the item before it, where it would
  read the marker as the continuation of that item's last paragraph;
- `.` after an item's number: it does not know `1)`.

`for_the_site` rewrites the lines of a page, from the lists `check`'s reader found in it, so that
Python-Markdown reads the lists CommonMark reads. Lines keep their number (a blank line added before
one is a leading newline of that line), so a caller can still cut lines out by the reader's numbers.
Left as written: items inside a block quote or indented with a tab, an item opening with a list of
its own (`- - x`), and a `1)` list that meets a `1.` list (written alike, they would be one list).
Lists of two kinds that meet, and a list right after a block quote line, are still read otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

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
    last_of: dict[int, int] = {}  # each list's item seen last
    for index, item in enumerate(items):
        start = item.line - 1
        line = lines[start] if start < len(lines) else ""
        parent = items[item.parent] if item.parent >= 0 else None
        parent_at = column[item.parent] if parent is not None else 0
        if (
            parent_at is None
            or (parent is not None and parent.line == item.line)  # `- - x`: an item opening with a list
            or not (item.column < len(line) and line[item.column] in _MARKERS)  # in a block quote, after a tab
        ):
            column.append(None)
            continue
        at = item.column + shift[start]
        if parent is not None and at < parent_at + _INDENT:
            _move(shift, start, item.end, parent_at + _INDENT - at)
            at = parent_at + _INDENT
        if item.interrupts and (parent is None or any(first < item.line <= last + 1 for first, last in parent.blocks)):
            blank_before.add(start)  # a list right after a paragraph line, but not after its item's first one
        column.append(at)
        before = last_of.get(item.list)
        last_of[item.list] = index
        # After a blank line inside the item before it, the marker would go on that item's last block.
        if (
            before is not None
            and start
            and lines[start - 1].strip()
            and any(not lines[n].strip() for n in range(items[before].line, start))
        ):
            blank_before.add(start)
        content = at + _content_offset(line, item)
        for first, last in item.blocks:
            if first < 2 or lines[first - 2].strip():
                continue  # a continuation of the block before it, not a block of its own
            indent = len(lines[first - 1]) - len(lines[first - 1].lstrip(" ")) + shift[first - 1]
            wanted = at + _INDENT + max(0, indent - content)  # kept as far past the content column as written
            if indent < wanted:
                _move(shift, first - 1, last, wanted - indent)
    renumbered = _renumbered(items, lines)
    out = []
    for number, line in enumerate(lines):
        if number in renumbered:
            line = _numbered(line)
        if line.strip() and shift[number]:
            line = " " * shift[number] + line
        if number in blank_before:
            line = "\n" + line
        out.append(line)
    return out


def _content_offset(line: str, item: ListItem) -> int:
    """How far past its marker's column an item's content starts on its first line, as CommonMark reads it:
    the marker, then one to four spaces (one where more follow, or nothing does)."""
    rest = line[item.column :]
    marker = len(rest) - len(rest.lstrip("0123456789")) + 1 if item.delimiter in ".)" else 1
    after = rest[marker:]
    spaces = len(after) - len(after.lstrip(" "))
    return marker + (spaces if 1 <= spaces <= 4 and after.strip() else 1)


def _move(shift: list[int], first: int, last: int, by: int) -> None:
    """Shift lines `first` (0-based) to `last` (1-based: the last line itself) by `by` spaces."""
    for number in range(first, min(last, len(shift) - 1)):
        shift[number] += by


def _renumbered(items: Sequence[ListItem], lines: list[str]) -> set[int]:
    """The lines (0-based) whose `1)` is written `1.`: the items of every `)` list, but for a list that meets an
    ordered list of `.` items with only blank lines between, which the change would join."""
    spans: dict[int, tuple[int, int, int, str]] = {}  # list -> (holder, first line, last line, delimiter)
    for item in items:
        holder, first, last, delimiter = spans.get(item.list, (item.parent, item.line, item.end, item.delimiter))
        spans[item.list] = (holder, first, max(last, item.end), delimiter)
    kept: set[int] = set()
    ordered = sorted((span for span in spans.items() if span[1][3] in ".)"), key=lambda span: span[1][1])
    for (one, (holder, _, last, mark)), (other, (holder2, first2, _, mark2)) in pairwise(ordered):
        between = lines[last : first2 - 1]
        if holder == holder2 and mark != mark2 and not any(line.strip() for line in between):
            kept.add(one if mark == ")" else other)
    return {item.line - 1 for item in items if item.delimiter == ")" and item.list not in kept}


def _numbered(line: str) -> str:
    """`line`, an item's, with the `)` after its number written `.`."""
    body = line.lstrip(" ")
    digits = len(body) - len(body.lstrip("0123456789"))
    if not digits or body[digits : digits + 1] != ")":
        return line
    return line[: len(line) - len(body)] + body[:digits] + "." + body[digits + 1 :]
