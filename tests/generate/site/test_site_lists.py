"""Lists on the site: Python-Markdown, which converts the pages, reads every list as CommonMark does.

The oracle is the list structure itself (which items, nested in which): markdown-it-py's CommonMark
reading of the page as written against Python-Markdown's reading, with the site's extensions, of
the page as the site lays it out.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import markdown
import pytest
import yaml
from markdown_it import MarkdownIt

from wopgen.corpus.markdown import parse_markdown
from wopgen.generate.site.lists import for_the_site

REPO = Path(__file__).resolve().parents[3]
EXTERNAL = REPO.parent / "shared" / "external"
_TAG = re.compile(r"<(/?)(ul|ol|li)\b")


class _Loader(yaml.SafeLoader):
    """Reads mkdocs.yml, taking its Python-object tags (a slug function) as nothing."""


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def _extensions() -> list[str]:
    """The Markdown extensions the site is built with, by name."""
    found: list[Any] = yaml.load((REPO / "site/mkdocs.yml").read_text(), Loader=_Loader)["markdown_extensions"]
    return [entry if isinstance(entry, str) else next(iter(entry)) for entry in found]


EXTENSIONS = _extensions()


def commonmark(text: str) -> list[str]:
    shape = []
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        if token.type.endswith(("list_open", "list_close", "item_open", "item_close")):
            name = {"bullet": "ul", "ordered": "ol", "list": "li"}[token.type.split("_")[0]]
            shape.append(name + ("/" if token.nesting < 0 else ""))
    return shape


def site(text: str) -> list[str]:
    html = markdown.markdown(text, extensions=EXTENSIONS)
    return [m.group(2) + ("/" if m.group(1) else "") for m in _TAG.finditer(html)]


def laid_out(text: str) -> str:
    doc = parse_markdown("page.md", text)
    return "\n".join(for_the_site(list(doc.lines), doc.list_items)) + "\n"


CASES = {
    "a list right after a paragraph line": "# T\n\nHeaders:\n- `Authorization`\n- `Idempotency-Key`\n\nAfter.\n",
    "items nested two spaces deep": "# T\n\n- outer\n  - inner\n    - innermost\n  - inner again\n- outer again\n",
    "items nested under a numbered item": "# T\n\n1. first\n   - inside\n2. second\n",
    "an item of several blocks": (
        "# T\n\n- reads:\n\n  ```toml\n  [a]\n  ```\n\n  A paragraph of the item.\n- next item\n"
    ),
    "a list after a nested list and a paragraph of the item": (
        "# T\n\n- item\n  - nested\n  - nested\n\n  More of the item.\n- last\n"
    ),
    "numbers followed by a parenthesis": "# T\n\n1) first\n2) second\n",
    "an item after a nested item of several blocks": "# T\n\n- Added\n  - a flag\n\n    More on it.\n- Fixed\n",
    "a nested list after an item's second paragraph": (
        "# T\n\n- Headers\n\n  Sent on every call:\n  - Authorization\n  - Idempotency-Key\n- Body\n"
    ),
    "an item opening with a list": "# T\n\n- - x\n  - y\n",
    "indented code in an item": "# T\n\n- a\n\n      code\n- b\n",
    "a parenthesis list apart from a dot list": "# T\n\n1) a\n2) b\n\nText.\n\n1. c\n",
    "a list already laid out for both": "# T\n\nText.\n\n- a\n    - b\n- c\n",
}


@pytest.mark.parametrize("text", CASES.values(), ids=CASES.keys())
def test_the_site_reads_each_list_as_commonmark_does(text: str) -> None:
    assert commonmark(text) == site(laid_out(text))


def test_the_cases_are_read_otherwise_as_written() -> None:
    """Each case but the last is one Python-Markdown reads otherwise when given the page as written."""
    differing = [name for name, text in CASES.items() if commonmark(text) != site(text)]
    assert differing == list(CASES)[:-1]


def test_a_parenthesis_list_meeting_a_dot_list_is_left_as_written() -> None:
    """Written `1.` like its neighbour, the `1)` list would be one list with it (CommonMark reads two)."""
    text = "# T\n\n1) a\n2) b\n\n1. c\n"
    assert laid_out(text) == text


def test_lines_keep_their_numbers_and_quoted_lists_their_text() -> None:
    text = "# T\n\nIntro\n- a\n  - b\n\n> Quoted:\n> - c\n>   - d\n"
    doc = parse_markdown("page.md", text)
    out = for_the_site(list(doc.lines), doc.list_items)
    assert len(out) == len(doc.lines)
    assert out[3] == "\n- a" and out[4] == "    - b"  # the blank line rides on the line it comes before
    assert out[6:] == doc.lines[6:]


@pytest.mark.skipif(not EXTERNAL.is_dir(), reason="the external material is not on this machine")
def test_every_page_of_the_published_corpus_keeps_its_lists() -> None:
    """The published corpus's pages and RFCs: 4 of them had lists the site read otherwise."""
    pages = sorted((EXTERNAL / "openwop-v1").rglob("*.md"))
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        doc = parse_markdown(page.name, text)
        front = doc.front_matter_lines
        source = "\n".join(doc.lines[front:]) + "\n"
        shown = "\n".join(for_the_site(list(doc.lines), doc.list_items)[front:]) + "\n"
        assert commonmark(source) == site(shown), page.name
