"""The Markdown reader's shortcuts read every page exactly as markdown-it does without them.

The reader's parser tries at each line only the block rules the line's first character can open,
and runs the inline parser only on headings and on text that can hold a link; a page's list items
are read only when some line could open one. Each is checked
here against markdown-it as it comes: the same block tokens (types, lines, content, nesting) and
the same reading (`MarkdownDoc`) on random pages built line by line from every kind of block
opener under every kind of container and indent, on random pages of links, and on every Markdown
file of the repository and of the published corpus.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from wopgen.corpus import markdown
from wopgen.corpus.markdown import _dispatch_block_rules, _list_items, _parser, _read, _tokens, parse_markdown

REPO = Path(__file__).resolve().parents[2]
EXTERNAL = REPO.parent / "shared" / "external"

# What can come before a line's content: indents (code at four), containers, list markers.
PREFIXES = (
    "",
    "",
    "",
    " ",
    "  ",
    "   ",
    "    ",
    "     ",
    "\t",
    " \t",
    "> ",
    ">",
    "> > ",
    "- ",
    "* ",
    "+ ",
    "1. ",
    "2) ",
    "  - ",
    "   > ",
)
# Openers of every block rule, near misses of each, and plain text.
BODIES = (
    "",
    "   ",
    "plain text",
    "Alpha *beta* `gamma`",
    "# Heading",
    "## Closed ##",
    "#NoSpace",
    "###### six",
    "####### seven",
    "#",
    "```",
    "```json",
    "``` a`b",
    "``",
    "~~~",
    "~~~ info `x`",
    "````",
    "---",
    "***",
    "___",
    "- - -",
    "* * *",
    "-- -x",
    "===",
    "=",
    "-",
    "*",
    "+",
    "- item",
    "* item",
    "+ item",
    "-item",
    "1. one",
    "1) one",
    "3. three",
    "0. zero",
    "2020. a year",
    "1234567890. too long",
    "12345678. long",
    "1.",
    "1.x",
    "[ref]: /url",
    '[ref]: /url "title"',
    "[ref]:",
    "[Other Ref]: <a b.md>",
    "[ref]",
    "[a](b.md) text",
    "[x] task",
    "![img](i.png)",
    "<div>",
    "</div>",
    "<div class='x'>text</div>",
    "<!-- comment -->",
    "<!--",
    "-->",
    "<pre>",
    "</pre>",
    "<script>",
    "<x-custom>",
    "<?php echo ?>",
    "<![CDATA[ x ]]>",
    "<!DOCTYPE html>",
    "<span>inline</span>",
    "<a href='x'>",
    "< not html",
    "|a|b|",
    "|---|---|",
    "> quoted",
    ">",
    "RFC 0042 and RFC 2119",
    "\\# escaped",
    "\\- escaped",
    "&amp; entity",
    "\u00a0nbsp first",
    "Über",
    "\t\ttabs",
)

lines = st.tuples(st.sampled_from(PREFIXES), st.sampled_from(BODIES)).map("".join)
block_pages = st.tuples(st.lists(lines, max_size=30), st.sampled_from(("\n", "\r\n")), st.booleans()).map(
    lambda parts: parts[1].join(parts[0]) + ("\n" if parts[2] else "")
)

# Pages of those lines with every line end the reader knows (CR alone too).
any_end_pages = st.tuples(st.lists(lines, max_size=30), st.sampled_from(("\n", "\r\n", "\r"))).map(
    lambda parts: parts[1].join(parts[0])
)

WORDS = ("see", "the *spec*", "`x`", "`[a](code.md)`", "Über", "a\\[b", "x]", "[", "]", "(", "<https://e.org>")
LINKS = (
    "[t](a.md)",
    "[t]( a.md )",
    "[t]\n(a.md)",
    "[t] (a.md)",
    "[t][ref]",
    "[t][]",
    "[ref][]",
    "[ref]",
    "[t][missing]",
    "![i](p.png)",
    "![i][ref]",
    "[a [b] c](d.md)",
    "[x] done",
    "[ ]",
)
inline_text = st.lists(st.sampled_from(WORDS + LINKS), min_size=1, max_size=8).map(" ".join)
inline_pages = st.tuples(
    st.lists(
        st.one_of(
            inline_text,
            inline_text.map(lambda t: "## " + t),
            inline_text.map(lambda t: "- " + t),
            inline_text.map(lambda t: "> " + t),
        ),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
).map(lambda parts: "\n\n".join(parts[0]) + ("\n\n[ref]: r.md\n" if parts[1] else "\n"))


def _dispatching() -> MarkdownIt:
    parser = MarkdownIt("commonmark")
    _dispatch_block_rules(parser)
    return parser


STOCK = MarkdownIt("commonmark")
DISPATCHING = _dispatching()
PLAIN = _parser(shortcuts=False)


def _same_tokens(text: str, stock: MarkdownIt = STOCK, dispatching: MarkdownIt = DISPATCHING) -> bool:
    stock_env: dict[str, object] = {}
    dispatching_env: dict[str, object] = {}
    expected: list[Token] = stock.parse(text, stock_env)
    found: list[Token] = dispatching.parse(text, dispatching_env)
    return found == expected and dispatching_env == stock_env


def test_the_reader_dispatches_block_rules() -> None:
    """The pinned markdown-it has the shape the dispatch expects (else it would silently not apply)."""
    active = markdown._PARSER.block.ruler.get_active_rules()
    assert active[:3] == ["code", "lheading", "paragraph"]
    assert [name for name in active if name.startswith("interrupts-")] == ["interrupts-0", "interrupts-1"]
    assert DISPATCHING.block.ruler.get_active_rules() == active


@settings(max_examples=400, deadline=None)
@given(text=block_pages)
def test_dispatching_block_rules_gives_the_same_tokens(text: str) -> None:
    assert _same_tokens(text), text


@settings(max_examples=200, deadline=None)
@given(text=block_pages)
def test_the_reader_reads_block_pages_as_without_shortcuts(text: str) -> None:
    assert parse_markdown("p.md", text) == _read(PLAIN, "p.md", text), text


@settings(max_examples=300, deadline=None)
@given(text=inline_pages)
def test_the_reader_reads_link_pages_as_without_shortcuts(text: str) -> None:
    assert parse_markdown("p.md", text) == _read(PLAIN, "p.md", text), text


def _all_items(text: str) -> list[markdown.ListItem]:
    """The page's list items read from markdown-it as it comes, whatever its lines look like."""
    doc = parse_markdown("p.md", text)
    return _list_items(_tokens(PLAIN, doc), doc.lines)


@settings(max_examples=400, deadline=None)
@given(text=any_end_pages)
def test_list_items_are_skipped_only_on_pages_without_any(text: str) -> None:
    assert parse_markdown("p.md", text).list_items == _all_items(text), text


def test_a_filter_blind_to_cr_line_ends_would_be_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison has teeth: a filter that starts lines only after LF skips a list after a CR."""
    text = "Intro\r\r- item\r"
    assert len(parse_markdown("p.md", text).list_items) == 1 == len(_all_items(text))
    monkeypatch.setattr(markdown, "_ITEM_LINE", re.compile(r"^[ \t>]*(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)", re.M))
    assert parse_markdown("p.md", text).list_items == []
    assert parse_markdown("p.md", "Intro\n\n- item\n").list_items != []


def test_a_wrong_opener_would_be_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison has teeth: a dispatch that forgot `+` opens a list misreads `+ item`."""
    monkeypatch.setitem(markdown._OPENERS, "list", "*-0123456789")
    wrong = MarkdownIt("commonmark")
    _dispatch_block_rules(wrong)
    assert _same_tokens("- a\n- b\n")
    assert not _same_tokens("+ item\n", dispatching=wrong)
    assert not _same_tokens("para\n+ item\n", dispatching=wrong)


def test_a_wrong_inline_shortcut_would_be_caught() -> None:
    """The reading compared is sensitive to the inline shortcut: one that forgets reference
    definitions (parsing only text with `](`) loses a shortcut link."""

    def inline_links_only(state: StateCore) -> None:
        for token in state.tokens:
            if token.type == "inline":
                token.children = []
                if "](" in token.content:
                    state.md.inline.parse(token.content, state.md, state.env, token.children)

    wrong = _parser()
    wrong.core.ruler.at("inline", inline_links_only)
    text = "Only [b] here.\n\n[b]: b.md\n"
    assert [link.target for link in parse_markdown("p.md", text).links] == ["b.md"]
    assert parse_markdown("p.md", text) == _read(PLAIN, "p.md", text)
    assert _read(wrong, "p.md", text) != _read(PLAIN, "p.md", text)


def _markdown_files() -> list[Path]:
    """The repository's Markdown files (git's list; outside a checkout, those of the source folders)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "*.md"], cwd=REPO, capture_output=True, text=True, check=False
        ).stdout.split()
    except OSError:
        listed = []
    found = [REPO / name for name in listed] or [
        path
        for path in sorted(REPO.glob("**/*.md"))
        if not any(part.startswith(".") or part in ("build", "node_modules") for part in path.relative_to(REPO).parts)
    ]
    if EXTERNAL.is_dir():
        found += sorted(EXTERNAL.rglob("*.md"))
    return [path for path in found if path.is_file()]


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda path: str(path.relative_to(REPO.parent)))
def test_every_markdown_file_reads_as_without_shortcuts(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert _same_tokens(text)
    doc = parse_markdown(str(path), text)
    assert doc == _read(PLAIN, str(path), text)
    assert doc.list_items == _list_items(_tokens(PLAIN, doc), doc.lines)
