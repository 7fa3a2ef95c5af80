"""Keep corpus text from publishing raw HTML on the site.

Prose pages, RFC bodies and the changelog are Markdown written by contributors; Markdown passes raw
HTML through, so a `<script>` in an RFC would run in every reader's browser. Unless
`[tool.wopgen.site] raw-html = true`, the raw HTML that markdown-it (CommonMark) finds in a body is
shown as text: its `<` becomes `&lt;`. Code spans and fences are left as they are (they already show
their text). Titles and metadata cells are plain text and always escaped with `cell`.
"""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt

_PARSER = MarkdownIt("commonmark")
# The block pass alone: the inline pass then runs only over the blocks that may hold a tag.
_BLOCKS = MarkdownIt("commonmark").disable("inline")
# Every raw HTML block or inline tag CommonMark knows opens with one of these (a tag, a closing tag,
# a comment, a declaration, a processing instruction); text without one holds no raw HTML.
_TAG_START = re.compile(r"<[A-Za-z/!?]")


def cell(text: str) -> str:
    """A plain-text value (a title, a metadata cell) made safe to put into Markdown."""
    return html.escape(text, quote=False)


def _neutralise(fragment: str) -> str:
    return fragment.replace("<", "&lt;")


def escape_raw_html(markdown: str) -> str:
    """`markdown` with every raw HTML block and inline tag shown as text instead of run."""
    if _TAG_START.search(markdown) is None:  # no tag to neutralise: spare the parse
        return markdown
    return _escape_parsed(markdown)


def _escape_parsed(markdown: str) -> str:
    lines = markdown.splitlines(keepends=True)
    env: dict[str, object] = {}  # what the block pass found (link reference definitions) for the inline pass
    tokens = _BLOCKS.parse(markdown, env)
    for token in tokens:  # as the full parse would, for the inline content that holds a tag's start
        if token.type == "inline" and _TAG_START.search(token.content):
            token.children = []
            _PARSER.inline.parse(token.content, _PARSER, env, token.children)
    for token in tokens:
        if token.map is None:
            continue
        start, end = token.map
        if token.type == "html_block":
            for number in range(start, end):
                lines[number] = _neutralise(lines[number])
        elif token.type == "inline" and token.children:
            tags = [child.content for child in token.children if child.type == "html_inline"]
            if not tags:
                continue
            block = "".join(lines[start:end])
            position = 0
            for tag in tags:  # in order, so a tag written twice is found at each place
                found = block.find(tag, position)
                if found < 0:
                    continue
                block = block[:found] + _neutralise(tag) + block[found + len(tag) :]
                position = found + len(tag) + 3
            lines[start:end] = [block] + [""] * (end - start - 1)  # same count: later maps stay right
    return "".join(lines)
