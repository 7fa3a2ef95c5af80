"""Pipe tables of the site's pages, made HTML here instead of by mkdocs' Markdown.

Most of a page's Markdown conversion went into its tables (schema field tables, the rule catalogue,
the event catalogue, API operations, the traceability tables of the prose): Python-Markdown runs
every inline pattern of every extension over every cell. A table whose cells use only the inline
Markdown this module knows (code spans, links, `\\|`, entities, plain text) is written as the
HTML Python-Markdown writes for it, and the page carries a comment naming it
(`<!-- wopgen-table:KEY -->`); the staging tree carries every table's HTML in `tables.json`. A
table with anything else in a cell (emphasis, raw HTML, an image, an attribute list, a backslash
escape other than `\\|`, a tab) stays Markdown, as does a table with aligned columns, in a fence or
an indented block, and every table of a page with a raw HTML block or a reference definition: what
is made here reads exactly as what mkdocs would make (the tests compare the two on every table of
the repository's site and of the published corpus).

The page hook puts each table in place of its comment as soon as the page is converted and
resolves its links there with mkdocs' own link resolver: the same relative URLs, the same warnings
for a missing page, and its anchors checked with the page's other links, so `--strict` fails the
build on a broken link or anchor in a table as it does anywhere else. The search plugin reads the
table's text and code tags without its other markup (`page_hook.search_text`), which indexes the
same; the table is back in the page before the theme writes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from wopgen.generate.site.page_hook import AMP, TABLE_COMMENT, TABLES
from wopgen.generate.site.staged import StagedHtml

__all__ = ["TABLES", "NotPlain", "Tables", "table_html"]

_SEPARATOR = re.compile(r"\|(?: *-+ *\|)+")
# What starts inline Markdown other than what `_inline` writes: raw HTML (`<` before anything but a
# space), images, a link `_LINK` does not take (`](` left over), an attribute list (`{` right after
# a code span or a link, or `{...}` closing a cell), and control characters (Python-Markdown's own
# placeholders among them). Brackets are text otherwise: a page with reference definitions keeps
# its tables (see `Tables.place`). Emphasis is checked over the whole cell (see `_inline`).
_SPECIAL = re.compile(r"<(?!\s|$)|[`\x00\x02-\x08\x0b-\x1f]|!\[|\]\(|\x01[0-9]+\x01\{|\}$")
_EDGE_UNDERSCORE = re.compile(r"(?<!\w)_|_(?!\w)")
_SPAN = "\x01{}\x01"
_SPANS = re.compile("\x01([0-9]+)\x01")
_LINK = re.compile(r"\[([^\[\]]*)\]\(([^()\s<>\"'&\\\x01]+)\)")
_PLAIN = re.compile(r"[^`\[\]\\*_<>&!{}\x00-\x1f]*")
_ONE_CODE = re.compile(r"`([^`<>&\x00-\x1f]*[^`<>&\s][^`<>&\x00-\x1f]*)`")
_OTHER_SPACE = re.compile(r"[^\S ]")  # a tab (Python-Markdown expands it), a no-break space...
_CELL_MARK = re.compile(r"[\\`|]")  # what `_cells` stops at: an escape, a code span's backtick, a pipe
_FENCE = re.compile(r"^ *(`{3,}|~{3,})")
# A line that opens a raw HTML block (other than the comments naming wopgen's own blocks): what
# follows may be HTML up to its closing tag, or Markdown inside HTML; its page keeps its tables.
_RAW_HTML = re.compile(r"^ {0,3}<(?!!-- wopgen-(?:block|table):[0-9a-f]+ -->$)[A-Za-z/!?]", re.M)
# A reference definition anywhere, also inside a list item, a quote or an admonition (Python-Markdown
# reads those too, and they hold for the whole page): taken broadly, as a page that might define one.
_REFERENCE = re.compile(r"\[[^\[\]\n]*\]:")


class NotPlain(Exception):
    """A cell holds inline Markdown this module does not write: the table stays Markdown."""


def _escape(text: str) -> str:
    """Code as Python-Markdown escapes it."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _text(text: str, spans: list[str]) -> str:
    """Text between links (its code spans replaced by `_SPAN` marks) as Python-Markdown writes it."""
    if _SPECIAL.search(text):
        raise NotPlain(text)
    if "\\" in text:
        if text.replace("\\|", "").count("\\"):
            raise NotPlain(text)
        text = text.replace("\\|", "|")
    text = AMP.sub("&amp;", text).replace("<", "&lt;").replace(">", "&gt;")
    return _SPANS.sub(lambda m: spans[int(m[1])], text)


def _inline(text: str) -> str:
    """A cell's inline Markdown as Python-Markdown writes it; raises NotPlain for anything else.

    As in Python-Markdown, code spans are taken first (their text is literal), then links."""
    if _PLAIN.fullmatch(text):  # words alone, the most common cell
        return text
    alone = _ONE_CODE.fullmatch(text)
    if alone and not alone[1].startswith(("#!", ":::")):  # one code span alone, the next most common
        return f"<code>{alone[1].strip()}</code>"
    if "\x01" in text:
        raise NotPlain(text)
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick
        raise NotPlain(text)
    spans: list[str] = []
    for index in range(1, len(parts), 2):
        code = parts[index]
        if not code.strip() or code.startswith(("#!", ":::")):
            raise NotPlain(text)  # an empty span, or the inline highlighting of pymdownx.inlinehilite
        parts[index] = _SPAN.format(len(spans))
        spans.append(f"<code>{_escape(code.strip())}</code>")
    marked = "".join(parts)
    if "![" in marked:
        raise NotPlain(text)  # an image
    # Emphasis takes a pair of `*`, or of `_` at the edges of words: one alone is text (counted over
    # the cell's text and link labels, not the link targets, which are no text).
    bare = _LINK.sub(r"\1", _SPANS.sub(" ", marked))
    if bare.count("*") > 1 or (bare.count("_") > 1 and _EDGE_UNDERSCORE.search(bare)):
        raise NotPlain(text)
    out: list[str] = []
    position = 0
    for link in _LINK.finditer(marked):
        out.append(_text(marked[position : link.start()], spans))
        label, href = link.groups()
        if not label.strip():
            raise NotPlain(text)
        out.append(f'<a href="{href}">{_text(label, spans)}</a>')
        position = link.end()
        if marked.startswith("{", position):
            raise NotPlain(text)  # an attribute list of the link
    out.append(_text(marked[position:], spans))
    return "".join(out)


def _cells(row: str) -> list[str]:
    """The cells of a row that starts and ends with a pipe: split at the pipes outside code spans
    and not escaped, each stripped of spaces."""
    if not (row.startswith("|") and row.endswith("|")) or row.endswith("\\|"):
        raise NotPlain(row)
    body = row[1:-1]
    cells: list[str] = []
    start = 0
    found = _CELL_MARK.search(body)
    while found is not None:  # from one `\\`, backtick or pipe to the next, not character by character
        index = found.start()
        char = body[index]
        if char == "\\":
            index += 2
        elif char == "`":
            end = body.find("`", index + 1)
            if end < 0:
                raise NotPlain(row)
            index = end + 1
        else:
            cells.append(body[start:index])
            start = index = index + 1
        found = _CELL_MARK.search(body, index)
    cells.append(body[start:])
    if any("``" in cell or "\\`" in cell for cell in cells) or _OTHER_SPACE.search(body):
        raise NotPlain(row)  # longer backtick runs, escaped backticks, tabs and other spaces: left to Markdown
    return [cell.strip(" ") for cell in cells]


def table_html(lines: list[str]) -> str:
    """The HTML of the pipe table `lines` (header, separator, body rows) as Python-Markdown's
    `tables` extension writes it; raises NotPlain when a cell holds Markdown this module does not write."""
    header = _cells(lines[0])
    if len(lines) < 3 or not _SEPARATOR.fullmatch(lines[1]) or lines[1].count("|") != len(header) + 1:
        raise NotPlain(lines[0])
    out = ["<table>", "<thead>", "<tr>"]
    out += [f"<th>{_inline(cell)}</th>" for cell in header]
    out += ["</tr>", "</thead>", "<tbody>"]
    for line in lines[2:]:
        cells = _cells(line)
        if len(cells) != len(header):
            raise NotPlain(line)
        out.append("<tr>")
        out += [f"<td>{_inline(cell)}</td>" for cell in cells]
        out.append("</tr>")
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def _blocks(lines: list[str]) -> Iterator[tuple[int, int]]:
    """(start, end) of every run of lines that Python-Markdown takes for a pipe table: after a blank
    line (or the start), not indented, outside fences, every line a row, up to a blank line."""
    fence = ""
    index, count = 0, len(lines)
    while index < count:
        line = lines[index]
        opened = _FENCE.match(line)
        if fence:
            closing = opened is not None and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence)
            if closing and not line.strip().lstrip(fence[0]):  # a fence closes on a line of its own
                fence = ""
            index += 1
            continue
        if opened:
            fence = opened.group(1)
            index += 1
            continue
        if line.startswith("|") and (index == 0 or not lines[index - 1].strip()):
            end = index
            while end < count and lines[end].strip():
                end += 1
            if end - index >= 3 and all(row.startswith("|") for row in lines[index:end]):
                yield index, end
            index = end
            continue
        index += 1


class Tables(StagedHtml):
    """The HTML tables of one rendering of the site, by key (a digest of the table's Markdown)."""

    def place(self, markdown: str) -> str:
        """`markdown` with each table this module can write replaced by the comment naming its HTML."""
        if "\n|" not in markdown or _RAW_HTML.search(markdown) or _REFERENCE.search(markdown):
            return markdown
        lines = markdown.split("\n")
        for start, end in reversed(list(_blocks(lines))):  # from the end: earlier indexes hold
            table = [line.rstrip(" ") for line in lines[start:end]]
            try:
                key = self.keep("\n".join(table), lambda: table_html(table))  # noqa: B023 (called at once)
            except NotPlain:
                continue
            lines[start:end] = [TABLE_COMMENT.format(key)]
        return "\n".join(lines)
