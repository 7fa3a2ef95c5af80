"""The corpus's Markdown, read with a CommonMark parser (markdown-it-py).

What the checks and generators need: headings with the anchors the site gives them, links and
images with their line and column, task items, RFC mentions, the lines that are code, and
reference-style links whose label has no definition. Code (fenced or indented) holds no links,
headings or mentions, nor does the front matter the site takes off a page (`front_matter`). Anchors
are made the way the site's table of contents makes them (`toc` with
`pymdownx.slugs.slugify(case="lower")`, `_1`, `_2`... for repeats, `{#id}` kept).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline, image, link
from markdown_it.token import Token

from wopgen.corpus.front_matter import FrontMatter, read_front_matter

_TASK = re.compile(r"\[([ xX])\][ \t]+([^\n]*)")
# OpenWOP RFCs are cited with four digits and a leading zero (RFC 0061); IETF ones (RFC 2119) are not.
# Several may follow one "RFC" or "RFCs": a list (RFC 0070/0072/0077, RFCs 0058, 0059 and 0061) or a
# range, whose two ends are cited (RFC 0030-0033, with a hyphen or an en dash; RFC 0037→0041).
_RFC = re.compile(
    r"\bRFCs?[ \u00a0-]?(0\d{3})\b((?:[ \u00a0]*(?:[/,\-\u2013\u2014\u2192]|and\b|or\b)[ \u00a0]*0\d{3}\b)*)"
)
_FOLLOWING = re.compile(r"0\d{3}")
_NEWLINE = re.compile(r"\r\n?|\n")
# A line that may open a list item: a bullet, or up to 9 digits and `.` or `)`, then a space, a tab or the
# line's end, after any spaces, tabs and `>` of the containers around it. Lines end at LF, CRLF or CR.
_ITEM_LINE = re.compile(r"(?:^|(?<=\r))[ \t>]*(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t\r]|$)", re.M)
# `[text][label]` or `[text][]` left as text: the label has no definition (a defined one is a link).
_UNDEFINED = re.compile(r"\[([^\[\]\n]+)\]\[([^\[\]\n]*)\]")
# attr_list on a heading: `## Title {#id}` or `## Title {: #id .class }`.
_ATTRS = re.compile(r"[ ]+\{:?([^}\n]*)\}[ ]*$")
_COUNTED = re.compile(r"^(.*)_([0-9]+)$")
_TAG = re.compile(r"</?[^>]*>")
_NOT_IN_SLUG = re.compile(r"[^\w\- ]")
_LINK_TYPES = ("link_open", "image")
# Block rules that look for a line interrupting what they read (markdown-it's terminator chains).
_INTERRUPTED = ("paragraph", "reference", "blockquote", "list")
# A character where a CommonMark inline rule can start (line break, escape, code, emphasis, link,
# image, autolink or HTML, entity): text without any of them is a single text token.
_INLINE_MARKUP = re.compile(r"[\n\\`*_\[\]!<&]")
_TEXT_TYPES = ("text", "text_special", "code_inline", "html_inline")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    slug: str
    line: int


@dataclass(frozen=True)
class Link:
    text: str
    target: str
    line: int
    col: int
    length: int = 0  # characters of source the link spans from `col` (`[text](target)` whole)


@dataclass(frozen=True)
class UndefinedReference:
    """`[text][label]` whose label no definition in the page names: rendered as text, not a link."""

    text: str
    label: str
    line: int
    col: int


@dataclass(frozen=True)
class TaskItem:
    checked: bool
    text: str
    line: int


@dataclass(frozen=True)
class RfcMention:
    number: int
    line: int
    col: int


@dataclass(frozen=True)
class ListItem:
    """An item of a list, as CommonMark reads it (lines 1-based, inclusive)."""

    line: int  # the line of its marker
    end: int  # its last line
    column: int  # where its marker starts on its line (0-based)
    parent: int  # the item (index in `MarkdownDoc.list_items`) whose content holds its list; -1 at the top
    list: int  # its list, named by the index of the list's first item
    delimiter: str  # `-`, `*`, `+` for a bullet; `.` or `)` after an ordered item's number
    blocks: tuple[tuple[int, int], ...] = ()  # (first, last) line of each block of its own after its first line
    interrupts: bool = False  # its list's first item, directly after a paragraph line (no blank line between)


@dataclass
class MarkdownDoc:
    path: str
    text: str
    headings: list[Heading] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    undefined_references: list[UndefinedReference] = field(default_factory=list)
    tasks: list[TaskItem] = field(default_factory=list)
    rfc_mentions: list[RfcMention] = field(default_factory=list)
    code_lines: set[int] = field(default_factory=set)

    @cached_property
    def lines(self) -> list[str]:
        """The page's lines (made once: the reader and several checks go through them)."""
        return source_lines(self.text)

    @cached_property
    def front_matter(self) -> FrontMatter | None:
        """The page's front matter, as the site reads it (None when there is none)."""
        return read_front_matter(self.text)

    @cached_property
    def list_items(self) -> list[ListItem]:
        """Every list item of the page, outer items before the items of their content, in page order.

        Read on first use, by parsing the page's blocks again (a list's items are blocks: the inline
        pass would change none of them): only the site asks for them, and a page with no line that
        could open an item (a marker after any indent or `>`) has none."""
        if not _ITEM_LINE.search(self.text):
            return []
        return _list_items(_tokens(_BLOCK_PARSER, self), self.lines)

    @property
    def front_matter_lines(self) -> int:
        """How many of the page's first lines the site takes off it as front matter."""
        front = self.front_matter
        return front.lines if front is not None else 0

    @property
    def anchors(self) -> set[str]:
        return {h.slug for h in self.headings}

    @property
    def title(self) -> Heading | None:
        return next((h for h in self.headings if h.level == 1), None)

    def section_lines(self, heading: Heading) -> tuple[int, int]:
        """1-based inclusive line range of a heading's body, up to the next heading of its level."""
        end = len(self.lines)
        for h in self.headings:
            if h.line > heading.line and h.level <= heading.level:
                end = h.line - 1
                break
        return heading.line + 1, end

    def first_blockquote(self) -> tuple[int, str] | None:
        """The first blockquote after the H1 and before any other heading or paragraph."""
        title = self.title
        start = title.line if title else 0
        for number, raw in enumerate(self.lines[start:], start=start + 1):
            stripped = raw.strip()
            if not stripped:
                continue
            if stripped.startswith(">"):
                return number, stripped
            return None
        return None


def source_lines(text: str) -> list[str]:
    """The lines as the parser numbers them: split at LF, CRLF and CR only."""
    lines = _NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class _Parser(MarkdownIt):
    """CommonMark; destinations kept as written (no percent-encoding), none refused.

    GFM tables are read as the paragraphs they are without the extension: the reader wants only
    the links, references and mentions in their cells, which are the same either way (a code span
    holding `|` stays one span, as the site's table extension reads it), and the table rule is a
    third of the parser's time on a page that has one."""

    def validateLink(self, url: str) -> bool:
        return True

    def normalizeLink(self, url: str) -> str:
        return url


def _located(rule: Callable[[StateInline, bool], bool]) -> Callable[[StateInline, bool], bool]:
    """`rule` (link or image) recording where in the inline source the link starts and what it spans."""

    def located(state: StateInline, silent: bool) -> bool:
        # No `]` after this point: neither a link nor an image can start here. Answering at once
        # keeps a long run of `[` without a `]` from costing a label scan at every bracket.
        known = state.env.get("last-close")
        if known is None or known[0] is not state.src:
            known = state.env["last-close"] = (state.src, state.src.rfind("]"))
        if state.pos > known[1]:
            return False
        start = state.pos
        before = len(state.tokens)
        matched = rule(state, silent)
        if matched and not silent:
            for token in state.tokens[before:]:
                if token.type in _LINK_TYPES:
                    token.meta["start"] = start
                    token.meta["source"] = state.src[start : state.pos]
                    break
        return matched

    return located


def _inline_where_read(state: StateCore) -> None:
    """The core `inline` rule, run only on the inline content this reader looks into.

    Only headings (for their text and anchor) and text that can hold a link, an image or an
    undefined reference are read below token by token; everything else is read from the block
    token's own content. Skipping the rest halves the cost of parsing a page. A heading of plain
    text gets the one text token the inline parser would have made of it.

    Text can hold a link only with a `[`, and then only with `](` (an inline link or image: no
    space may come between the two), `][` (a full or collapsed reference, also the mark of an
    undefined one) or a reference definition somewhere in the page (for a shortcut `[label]`).
    Autolinks are links too, but the reader takes only the link and image rules' links."""
    tokens = state.tokens
    defined = bool(state.env.get("references"))
    for index, token in enumerate(tokens):
        if token.type != "inline":
            continue
        token.children = []
        content = token.content
        if index and tokens[index - 1].type == "heading_open":
            if _INLINE_MARKUP.search(content):
                state.md.inline.parse(content, state.md, state.env, token.children)
            else:  # what the inline parser makes of plain text: one text token
                text = Token("text", "", 0)
                text.content = content
                token.children.append(text)
        elif "[" in content and (defined or "](" in content or "][" in content):
            state.md.inline.parse(content, state.md, state.env, token.children)


BlockRule = Callable[[StateBlock, int, int, bool], bool]

# The characters a line can begin with (after its indent) for each block rule but code, lheading
# and paragraph to match there: CommonMark opens every other block with one of them, and each of
# these rules reads that character (`src[bMarks + tShift]`) and declines any other at once.
_OPENERS = {
    "fence": "`~",
    "blockquote": ">",
    "hr": "*-_",
    "list": "*+-0123456789",
    "reference": "[",
    "html_block": "<",
    "heading": "#",
}


def _by_first_character(rules: Sequence[tuple[str, BlockRule]]) -> BlockRule:
    """One block rule trying, in their order, only those of `rules` that the line's first character
    can open: the others would decline without looking further, so the outcome is the same."""
    tried = {c: tuple(fn for name, fn in rules if c in _OPENERS[name]) for name, _ in rules for c in _OPENERS[name]}
    every = tuple(fn for _, fn in rules)

    def dispatch(state: StateBlock, line: int, end: int, silent: bool) -> bool:
        pos = state.bMarks[line] + state.tShift[line]
        for rule in tried.get(state.src[pos], ()) if pos < len(state.src) else every:
            if rule(state, line, end, silent):
                return True
        return False

    return dispatch


def _dispatch_block_rules(parser: MarkdownIt) -> None:
    """Make the block parser try, at each line, only the rules its first character can open.

    markdown-it calls every block rule in turn at the start of each block, and every
    paragraph-interrupting rule at each further line of a paragraph (twice: setext heading, then
    paragraph), though all but one or two decline at the first character. Here the rules before
    `lheading` become one rule under the name `code` (an indented line is code or nothing, as
    `code` comes first; otherwise the rules the character opens), and each list of interrupting
    rules one rule placed after `paragraph` (which always matches, so the main chain never reaches
    it). Rules are still called in their order with the same arguments. A ruler of another shape
    (another markdown-it version) is left as it is."""
    ruler = parser.block.ruler
    names = ruler.get_active_rules()
    rules = ruler.getRules("")
    name_of = {id(fn): name for name, fn in zip(names, rules, strict=True)}
    chains = {chain: [name_of.get(id(fn), "") for fn in ruler.getRules(chain)] for chain in _INTERRUPTED}
    starting = names[1 : names.index("lheading")] if "lheading" in names else []
    if (
        names[:1] != ["code"]
        or names[-2:] != ["lheading", "paragraph"]
        or not set(starting) <= set(_OPENERS)
        or not all(set(members) <= set(_OPENERS) for members in chains.values())
    ):
        return
    fn_of = dict(zip(names, rules, strict=True))
    code, opened = fn_of["code"], _by_first_character([(name, fn_of[name]) for name in starting])

    def block_start(state: StateBlock, line: int, end: int, silent: bool) -> bool:
        if state.sCount[line] - state.blkIndent >= 4:
            return code(state, line, end, silent)
        return opened(state, line, end, silent)

    groups: dict[tuple[str, ...], list[str]] = {}  # rules interrupting -> the rules they interrupt
    for chain, members in chains.items():
        groups.setdefault(tuple(members), []).append(chain)
    ruler.at("code", block_start)
    ruler.disable(starting)
    after = "paragraph"
    for number, (interrupting, alt) in enumerate(groups.items()):
        name = f"interrupts-{number}"
        ruler.after(after, name, _by_first_character([(m, fn_of[m]) for m in interrupting]), {"alt": alt})
        after = name


def _parser(shortcuts: bool = True) -> MarkdownIt:
    """The reader's parser; without `shortcuts`, markdown-it as it comes (every block rule tried at
    every line, all inline content parsed), which must read every page the same."""
    parser = _Parser("commonmark")
    if shortcuts:
        _dispatch_block_rules(parser)
        parser.core.ruler.at("inline", _inline_where_read)
    parser.inline.ruler.at("link", _located(link))
    parser.inline.ruler.at("image", _located(image))
    # Keep escapes and entities as tokens of their own, so text tokens are verbatim source.
    parser.disable("text_join", True)
    return parser


_PARSER = _parser()
# The block pass alone, for the list items: on the site's pages, half the cost of a full parse.
_BLOCK_PARSER = _parser().disable("inline")


def _unique(anchor: str, used: set[str]) -> str:
    """The table of contents' rule for a repeated or empty anchor: `x`, `x_1`, `x_2`..."""
    if anchor in used or not anchor:
        counted = _COUNTED.match(anchor)
        base, count = (counted.group(1), int(counted.group(2))) if counted else (anchor, 0)
        count += 1
        while f"{base}_{count}" in used:
            count += 1
        anchor = f"{base}_{count}"
    used.add(anchor)
    return anchor


@lru_cache(maxsize=4096)  # the same section titles recur on every page of a kind
def slugify(text: str) -> str:
    """The site's anchor for a heading whose plain text is `text` (before repeats are numbered).

    The rule of `pymdownx.slugs.slugify(case="lower")`, which the site's `toc` is configured with:
    whitespace runs made one space, NFC, anything tag-like removed, trimmed, lower case, every
    character but word characters, `-` and space dropped, spaces to `-`."""
    text = _TAG.sub("", unicodedata.normalize("NFC", " ".join(text.split()))).strip().lower()
    return _NOT_IN_SLUG.sub("", text).replace(" ", "-")


def _attr_id(text: str) -> tuple[str, str | None]:
    """`text` without a trailing attribute list, and the `#id` that list sets (if any)."""
    if "{" not in text:  # no list (most headings): no search
        return text, None
    match = _ATTRS.search(text)
    if match is None:
        return text, None
    anchor = next((part[1:] for part in match.group(1).split() if part.startswith("#") and len(part) > 1), None)
    return text[: match.start()], anchor


def _heading_text(children: Sequence[Token]) -> tuple[str, str]:
    """(the heading as the checks read it, its plain text as the site shows it).

    The first keeps reference-style links as written (`## [Unreleased]` stays `[Unreleased]` when
    the changelog defines that label) and drops inline-link targets, emphasis and code ticks."""
    shown: list[str] = []
    plain: list[str] = []
    verbatim = False
    for child in children:
        kind = child.type
        if kind in _TEXT_TYPES:
            plain.append(child.content)
            if not verbatim:
                shown.append(child.content)
        elif kind in ("softbreak", "hardbreak"):
            plain.append(" ")
            if not verbatim:
                shown.append(" ")
        elif kind == "link_open":
            source = str(child.meta.get("source", ""))
            if source.endswith("]"):  # [text][label], [text][] or [label]
                shown.append(source)
                verbatim = True
        elif kind == "link_close":
            verbatim = False
        elif kind == "image" and child.children:
            inner_shown, _ = _heading_text(child.children)
            shown.append(inner_shown)
    return " ".join("".join(shown).split()), "".join(plain)


class _Locator:
    """Turns an offset in an inline token's source into a (line, column) of the file."""

    def __init__(self, token: Token, first_line: int, lines: list[str]) -> None:
        self.content = token.content
        self.first_line = first_line
        self.lines = lines
        self.breaks = [m.start() for m in re.finditer("\n", self.content)]
        self.offsets: dict[int, int] = {}

    def at(self, start: int) -> tuple[int, int]:
        row = bisect_left(self.breaks, start)
        row_start = self.breaks[row - 1] + 1 if row else 0
        index = self.first_line + row
        if row not in self.offsets:
            end = self.breaks[row] if row < len(self.breaks) else len(self.content)
            piece = self.content[row_start:end]
            raw = self.lines[index] if index < len(self.lines) else ""
            found = raw.find(piece) if piece else -1
            self.offsets[row] = max(found, 0)
        return index + 1, self.offsets[row] + start - row_start + 1


def _inline(doc: MarkdownDoc, token: Token, first_line: int, lines: list[str]) -> None:
    children = token.children or []
    if "[" not in token.content:
        return
    locator = _Locator(token, first_line, lines)
    for index, child in enumerate(children):
        if child.type in _LINK_TYPES and "start" in child.meta:
            line, col = locator.at(int(child.meta["start"]))
            if child.type == "image":
                target, text = str(child.attrGet("src") or ""), child.content
            else:
                target, text = str(child.attrGet("href") or ""), _link_text(children, index)
            doc.links.append(Link(text, target, line, col, len(str(child.meta.get("source", "")))))
        elif child.type == "text" and "][" in child.content:
            _undefined(doc, child.content, token.content, locator)


_LIST_OPEN = ("bullet_list_open", "ordered_list_open")
_LIST_CLOSE = ("bullet_list_close", "ordered_list_close")


def _list_items(tokens: Sequence[Token], lines: list[str]) -> list[ListItem]:
    """Every list item of the page, outer items before the items of their content, in page order."""
    found: list[ListItem] = []
    blocks: dict[int, list[tuple[int, int]]] = {}  # each item's blocks after its first line
    holding: list[tuple[int, int]] = []  # (item index, the item's token level) for the items open here
    lists: list[int] = []  # the index of the first item of each list open here
    paragraph_end = -1  # the line after the last paragraph opened
    follows_paragraph = False
    for index, token in enumerate(tokens):
        kind = token.type
        if holding and token.map is not None and token.nesting >= 0 and token.level == holding[-1][1] + 1:
            holder = holding[-1][0]
            if token.map[0] + 1 > found[holder].line and kind not in _LIST_OPEN:
                blocks.setdefault(holder, []).append((token.map[0] + 1, token.map[1]))
        if kind in _LIST_OPEN:
            previous = tokens[index - 1] if index else None
            follows_paragraph = (
                previous is not None and previous.type == "paragraph_close" and token.map is not None
            ) and paragraph_end == token.map[0]
            lists.append(len(found))
        elif kind in _LIST_CLOSE:
            lists.pop()
        elif kind == "paragraph_open" and token.map is not None:
            paragraph_end = token.map[1]
        elif kind == "list_item_open" and token.map is not None:
            line = lines[token.map[0]] if token.map[0] < len(lines) else ""
            found.append(
                ListItem(
                    line=token.map[0] + 1,
                    end=token.map[1],
                    column=len(line) - len(line.lstrip(" ")),
                    parent=holding[-1][0] if holding else -1,
                    list=lists[-1],
                    delimiter=token.markup,
                    interrupts=lists[-1] == len(found) and follows_paragraph,
                )
            )
            holding.append((len(found) - 1, token.level))
        elif kind == "list_item_close" and holding:
            holding.pop()
    return [replace(item, blocks=tuple(blocks[n])) if n in blocks else item for n, item in enumerate(found)]


def _link_text(children: Sequence[Token], opening: int) -> str:
    parts: list[str] = []
    for child in children[opening + 1 :]:
        if child.type == "link_close":
            break
        if child.type in _TEXT_TYPES:
            parts.append(child.content)
    return "".join(parts)


def _undefined(doc: MarkdownDoc, text: str, source: str, locator: _Locator) -> None:
    cursor = 0
    for match in _UNDEFINED.finditer(text):
        found = source.find(match.group(0), cursor)
        if found < 0:
            continue
        cursor = found + len(match.group(0))
        line, col = locator.at(found)
        label = match.group(2) or match.group(1)
        doc.undefined_references.append(UndefinedReference(match.group(1), label, line, col))


def parse_markdown(path: str, text: str) -> MarkdownDoc:
    return _read(_PARSER, path, text)


def _tokens(parser: MarkdownIt, doc: MarkdownDoc) -> list[Token]:
    """The page's tokens. Front matter the site takes off the page is read as the blank lines it leaves:
    the page's Markdown keeps its line numbers."""
    front = doc.front_matter_lines
    return parser.parse("\n" * front + "\n".join(doc.lines[front:]) if front else doc.text, {})


def _read(parser: MarkdownIt, path: str, text: str) -> MarkdownDoc:
    doc = MarkdownDoc(path=path, text=text)
    lines = doc.lines
    front = doc.front_matter_lines
    tokens = _tokens(parser, doc)
    raw_headings: list[tuple[int, str, str, str | None, int]] = []
    block_line = 0
    for index, token in enumerate(tokens):
        if token.map is not None:
            block_line = token.map[0]
        if token.type in ("fence", "code_block") and token.map is not None:
            doc.code_lines.update(range(token.map[0] + 1, token.map[1] + 1))
        elif token.type == "inline":
            _inline(doc, token, block_line, lines)
            if index >= 2 and tokens[index - 2].type == "list_item_open":  # an item's first paragraph
                task = _TASK.match(token.content)
                if task:
                    doc.tasks.append(TaskItem(task.group(1) != " ", task.group(2).strip(), block_line + 1))
            previous = tokens[index - 1] if index else None
            if previous is not None and previous.type == "heading_open":
                shown, plain = _heading_text(token.children or [])
                shown, _ = _attr_id(shown)
                plain, anchor = _attr_id(plain)
                raw_headings.append((int(previous.tag[1]), shown, plain, anchor, block_line + 1))
    used = {anchor for *_, anchor, _ in raw_headings if anchor}
    for level, shown, plain, anchor, line in raw_headings:
        slug = anchor if anchor else _unique(slugify(plain), used)
        doc.headings.append(Heading(level, shown, slug, line))
    for number, raw in enumerate(lines, start=1):
        if number <= front or number in doc.code_lines or "RFC" not in raw:
            continue
        for mention in _RFC.finditer(raw):
            doc.rfc_mentions.append(RfcMention(int(mention.group(1)), number, mention.start() + 1))
            for more in _FOLLOWING.finditer(raw, mention.start(2), mention.end(2)):
                doc.rfc_mentions.append(RfcMention(int(more.group()), number, more.start() + 1))
    return doc
