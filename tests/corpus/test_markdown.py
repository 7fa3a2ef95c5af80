"""The corpus Markdown reader: what the checks read from a page, with lines and columns."""

from __future__ import annotations

import time

import pytest

from wopgen.corpus.markdown import parse_markdown


def _links(text: str) -> list[tuple[str, int, int]]:
    return [(link.target, link.line, link.col) for link in parse_markdown("p.md", text).links]


def test_links_carry_the_line_and_column_they_are_written_at() -> None:
    text = (
        "# Title\n"
        "\n"
        "First line [a](a.md) and\n"
        "  a second [b](b.md#x) line.\n"
        "\n"
        "- item [c](c.md)\n"
        "  > quoted [d](d.md)\n"
        "\n"
        "| name | link |\n"
        "| --- | --- |\n"
        "| x | see [e](e.md) |\n"
        "\n"
        "![f](f.png) `[g](code-span.md)`\n"
    )
    assert _links(text) == [
        ("a.md", 3, 12),
        ("b.md#x", 4, 12),
        ("c.md", 6, 8),
        ("d.md", 7, 12),
        ("e.md", 11, 11),
        ("f.png", 13, 1),
    ]


def test_reference_links_resolve_to_their_definition_and_undefined_ones_are_listed() -> None:
    doc = parse_markdown("p.md", "See [one][Def] and [def] and [two][nope], [three][].\n\n[def]: target.md\n")
    assert [(link.target, link.line, link.col) for link in doc.links] == [("target.md", 1, 5), ("target.md", 1, 20)]
    assert [(r.text, r.label, r.line, r.col) for r in doc.undefined_references] == [
        ("two", "nope", 1, 30),
        ("three", "three", 1, 43),
    ]


def test_escaped_brackets_and_code_are_not_undefined_references() -> None:
    doc = parse_markdown("p.md", "Text \\[a\\][b] and `x[i][j]`.\n\n    m[i][j]\n")
    assert doc.undefined_references == []


def test_code_holds_no_links_headings_tasks_or_rfc_mentions() -> None:
    text = (
        "Intro.\n"
        "\n"
        "    [a](indented.md) RFC 0042\n"
        "    # not a heading\n"
        "\n"
        "````\n"
        "```\n"
        "[b](inner.md)\n"
        "- [ ] not a task\n"
        "```\n"
        "````\n"
        "\n"
        "RFC 0061 outside.\n"
    )
    doc = parse_markdown("p.md", text)
    assert doc.links == [] and doc.headings == [] and doc.tasks == []
    assert [(m.number, m.line) for m in doc.rfc_mentions] == [(61, 13)]
    assert doc.code_lines == {3, 4, 6, 7, 8, 9, 10, 11}


@pytest.mark.parametrize(
    ("line", "cited"),
    [
        ("RFC 0070/0072/0077 run agents.", [(70, 1), (72, 10), (77, 15)]),
        ("RFCs 0058, 0059 and 0061 bound runs.", [(58, 1), (59, 12), (61, 21)]),
        ("The RFC 0030–0033 track and RFC 0037→0041.", [(30, 5), (33, 14), (37, 29), (41, 38)]),
        ("RFC-0061 or 0062.", [(61, 1), (62, 13)]),
        # IETF numbers, a slug, a date and a bare number after the citation are not RFCs of the corpus.
        ("RFC 2119; RFC 0090-agent-verifier; RFC 0001 2026-05-22; RFC 0081 §D, 0082.", [(90, 11), (1, 36), (81, 57)]),
    ],
)
def test_every_rfc_a_citation_lists_is_a_mention(line: str, cited: list[tuple[int, int]]) -> None:
    doc = parse_markdown("p.md", line + "\n")
    assert [(m.number, m.col) for m in doc.rfc_mentions] == cited


def test_headings_of_both_styles_with_the_sites_anchors() -> None:
    text = (
        "Setext One\n"
        "==========\n"
        "\n"
        "Setext *Two*\n"
        "---\n"
        "\n"
        "## `code` and [a link](x.md) & more\n"
        "## Repeat\n"
        "## Repeat\n"
        "## Repeat {#chosen}\n"
        "### Ünïcode — dash\n"
    )
    doc = parse_markdown("p.md", text)
    assert [(h.level, h.text, h.slug, h.line) for h in doc.headings] == [
        (1, "Setext One", "setext-one", 1),
        (2, "Setext Two", "setext-two", 4),
        (2, "code and a link & more", "code-and-a-link--more", 7),
        (2, "Repeat", "repeat", 8),
        (2, "Repeat", "repeat_1", 9),
        (2, "Repeat", "chosen", 10),
        (3, "Ünïcode — dash", "ünïcode--dash", 11),
    ]


def test_a_defined_reference_in_a_heading_keeps_its_brackets_for_the_checks() -> None:
    doc = parse_markdown(
        "CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n## [1.0.0] - 2026-01-02\n\n[Unreleased]: https://x\n"
    )
    assert [(h.text, h.slug) for h in doc.headings if h.level == 2] == [
        ("[Unreleased]", "unreleased"),
        ("[1.0.0] - 2026-01-02", "100---2026-01-02"),
    ]


def test_tasks_are_list_items_opening_with_a_box() -> None:
    text = "- [ ] open one\n- [x] done\n* [X] also done\n1. [ ] numbered\n- not a task [ ] here\n\nA [ ] paragraph.\n"
    doc = parse_markdown("p.md", text)
    assert [(t.checked, t.text, t.line) for t in doc.tasks] == [
        (False, "open one", 1),
        (True, "done", 2),
        (True, "also done", 3),
        (False, "numbered", 4),
    ]


def test_line_numbers_follow_crlf_and_cr_line_ends() -> None:
    doc = parse_markdown("p.md", "# T\r\n\r\n[a](a.md)\r\r[b](b.md)\n")
    assert [(link.target, link.line) for link in doc.links] == [("a.md", 3), ("b.md", 5)]
    assert len(doc.lines) == 5


def test_section_and_banner_helpers() -> None:
    doc = parse_markdown("p.md", "# Title\n\n> **Status: Draft**\n\n## A\n\ntext\n\n## B\n")
    assert doc.first_blockquote() == (3, "> **Status: Draft**")
    assert doc.section_lines(doc.headings[1]) == (6, 8)


@pytest.mark.parametrize("unit", ["[a](", "[", "![a", "*a", "[a][b]"])
def test_a_24kb_line_is_read_in_linear_time(unit: str) -> None:
    line = unit * (24_000 // len(unit))
    started = time.perf_counter()
    parse_markdown("p.md", "# T\n\n" + line + "\n")
    assert time.perf_counter() - started < 5
