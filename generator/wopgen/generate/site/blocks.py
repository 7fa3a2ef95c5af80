"""Machine-written code blocks (the JSON examples of schema and API pages), highlighted once here.

A page does not carry such a block as a Markdown fence: it carries a comment naming the block
(`<!-- wopgen-block:KEY -->`), and the staging tree carries every block's HTML in `blocks.json`.
The page hook puts the HTML in place of the comment once the search plugin has indexed the page.
So mkdocs' Markdown and the search plugin's HTML parser never walk the thousands of highlighting
tags of a large example (they cost more than the rest of the site), and the search index is not
filled with example values: the field tables above each example already index every name.
The HTML is what the `pymdownx.highlight` fence of the base configuration writes for the same text
(Pygments, CSS classes, `<pre><span></span><code>`), so the page reads and copies as before.
"""

from __future__ import annotations

import re
from functools import cache

from pygments import highlight  # type: ignore[import-untyped]  # the package ships no annotations
from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
from pygments.lexers import get_lexer_by_name  # type: ignore[import-untyped]

from wopgen.generate.site.page_hook import BLOCK_COMMENT, BLOCKS
from wopgen.generate.site.staged import StagedHtml

# What a template writes where a block goes: not HTML, so escaping the page's raw HTML (see
# `wopgen.generate.site.html`) leaves it alone; only the marks of blocks added here are replaced.
_MARK = "\x00wopgen-block:{}\x00"
_MARKS = re.compile("\x00wopgen-block:([0-9a-f]+)\x00")
_FORMATTER = HtmlFormatter(wrapcode=True)
# One lexer per language for the whole process, not one per block: finding it by name walks Pygments'
# lexer table (about a sixth of highlighting the repository's examples); a lexer keeps no state
# between texts.
_lexer = cache(get_lexer_by_name)

__all__ = ["BLOCKS", "CodeBlocks"]


class CodeBlocks(StagedHtml):
    """The code blocks of one rendering of the site, by key (a digest of language and text)."""

    def add(self, text: str, language: str = "json") -> str:
        """Highlight `text` (once per distinct text) and return the mark a template writes in its place."""
        key = self.keep(f"{language}\n{text}", lambda: highlight(text, _lexer(language), _FORMATTER).rstrip("\n"))
        return _MARK.format(key)

    def place(self, markdown: str) -> str:
        """`markdown` with each mark made the comment the page hook replaces."""
        if "\x00" not in markdown:
            return markdown
        return _MARKS.sub(lambda m: BLOCK_COMMENT.format(m[1]) if m[1] in self.html else m[0], markdown)
