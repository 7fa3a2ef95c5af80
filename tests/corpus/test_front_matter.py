"""A page's front matter as the loader reads it: what mkdocs reads, where each key is written, and
why a block written as front matter is not read; the Markdown reader skips what the site takes off."""

from __future__ import annotations

import pytest
from mkdocs.utils.meta import get_data

from wopgen.corpus.front_matter import MULTIMARKDOWN, YAML, read_front_matter
from wopgen.corpus.markdown import parse_markdown

BODY = "# Title\n\nSee [a](a.md) and RFC 0061.\n"


@pytest.mark.parametrize(
    "top",
    [
        "---\ntitle: Overview\nhide: [navigation]\n---\n",
        "---\ntitle: Overview\n...\n\n\n",
        "--- \r\ntitle: Windows\r\n---\r\n",
        "---\n{}\n---\n",
        "Title: Overview\nSubtitle: the first\n    and second line\n\n",
    ],
)
def test_what_the_site_reads_is_what_mkdocs_reads(top: str) -> None:
    """The data is mkdocs' own reading of the page, and the lines it counts are those mkdocs takes off."""
    text = top + BODY
    front = read_front_matter(text)
    assert front is not None and front.problem is None
    rest, data = get_data(text.replace("\r\n", "\n"))
    assert front.data == data
    assert "\n".join(text.replace("\r\n", "\n").split("\n")[front.lines :]).lstrip("\n") == rest
    assert front.form == (MULTIMARKDOWN if top.startswith("Title") else YAML)


def test_each_key_has_its_line_and_a_repeated_key_both() -> None:
    front = read_front_matter("---\ntitle: A\nhide:\n  - toc\ntitle: B\n---\n" + BODY)
    assert front is not None
    assert dict(front.keys) == {"title": 2, "hide": 3}
    assert [(d.key, d.line, d.first) for d in front.duplicates] == [("title", 5, 2)]
    assert front.data["title"] == "B"  # as the site keeps it


@pytest.mark.parametrize(
    ("top", "problem", "where"),
    [
        ("---\ntitle: [open\n---\n", "is not valid YAML", (3, 1)),
        ("---\nwhen: 2026-13-45\n---\n", "is not valid YAML: month must be in 1..12", (2, 1)),
        ("---\n- a\n- b\n---\n", "is a list, not a mapping", (2, 1)),
        ("---\njust words\n---\n", "is a line of text, not a mapping", (2, 1)),
        ("---\n\n---\n", "is empty", (2, 1)),
        # A page opening with a --- line opens front matter, for mkdocs as for GitHub: rules and a
        # paragraph there are taken for it, and shown as they are.
        ("---\n\nA paragraph between rules.\n\n---\n", "is a line of text, not a mapping", (2, 1)),
        ("---\n---\n", "is empty", (1, 1)),
        ("\n\n---\ntitle: Late\n---\n", "starts on line 3, not on the page's first line", (3, 1)),
    ],
)
def test_a_block_the_site_shows_as_text_says_why_and_where(top: str, problem: str, where: tuple[int, int]) -> None:
    front = read_front_matter(top + BODY)
    assert front is not None and front.lines == 0 and front.data == {}
    assert front.problem is not None and front.problem.startswith(problem)
    assert (front.line, front.col) == where


@pytest.mark.parametrize("text", [BODY, "\n\n" + BODY, BODY + "\n---\n\ntitle: a rule above, one below\n\n---\n"])
def test_a_page_without_front_matter_has_none(text: str) -> None:
    assert read_front_matter(text) is None
    assert get_data(text)[1] == {}  # nor does mkdocs find any


@pytest.mark.parametrize("first", ["# Title: with a colon", "#: odd", "#\n---\ntitle: x\n---"])
def test_a_page_opening_with_a_hash_has_none_for_mkdocs_either(first: str) -> None:
    """The reader answers a page that opens with `#` without asking mkdocs: mkdocs finds nothing there."""
    text = first + "\n\n" + BODY
    assert read_front_matter(text) is None and get_data(text) == (text, {})


def test_the_reader_skips_what_the_site_takes_off_the_page_and_keeps_its_lines() -> None:
    top = "---\ntitle: See [x](x.md) and RFC 0090\ndescription: |\n  # not a heading\n---\n"
    doc = parse_markdown("p.md", top + BODY)
    assert doc.front_matter_lines == 5
    assert [(h.text, h.line) for h in doc.headings] == [("Title", 6)]
    assert [(link.target, link.line) for link in doc.links] == [("a.md", 8)]
    assert [(m.number, m.line) for m in doc.rfc_mentions] == [(61, 8)]


def test_front_matter_the_site_shows_as_text_is_read_as_the_text_it_is() -> None:
    doc = parse_markdown("p.md", "---\ntitle: [open\n---\n" + BODY)
    assert doc.front_matter_lines == 0
    assert [h.text for h in doc.headings] == ["title: [open", "Title"]  # what the site shows
