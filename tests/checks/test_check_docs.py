from __future__ import annotations

import time

import pytest

from support.helpers import hits

DOC = "spec/v1/overview.md"
HEADER = "# Overview\n\n> **Status: Stable** · `Accepted` via [RFC 0001](../rfcs/0001-things.md)\n\n## Events\n\n"


def test_banner_missing(findings):
    def edit(files):
        files[DOC] = "# Overview\n\nJust text.\n"

    assert hits(findings(edit), "doc-banner") == [(DOC, 2)]


def test_banner_level_unknown(findings):
    def edit(files):
        files[DOC] = files[DOC].replace("Status: Stable", "Status: Solid")

    assert hits(findings(edit), "doc-banner") == [(DOC, 3)]


def test_a_banner_pattern_that_backtracks_without_end_is_stopped(findings):
    """A banner-pattern is the corpus author's regular expression: one that backtracks for ever on a
    block quote hung `check`; it is stopped at the budget and reported at that block quote."""

    def edit(files):
        files["pyproject.toml"] += "banner-pattern = '>\\s*(?P<level>(?=x?)(a|aa)+)$'\n"
        files[DOC] = "# Overview\n\n> " + "a" * 40 + "!\n"

    found = [d for d in findings(edit) if d.rule == "doc-banner" and d.path == DOC]
    assert [(d.line, d.message.split(" (")[0]) for d in found] == [
        (3, "banner-pattern ran past 1 s on this block quote")
    ]


def test_banner_disagrees_with_rfc_status(findings):
    def edit(files):
        files[DOC] = files[DOC].replace("`Accepted` via", "`Active` via")

    assert hits(findings(edit), "doc-banner-rfc-status") == [(DOC, 3)]


def test_stable_page_citing_a_draft_rfc(findings):
    from support.corpus_factory import rfc_text

    def edit(files):
        files["spec/rfcs/0001-things.md"] = rfc_text(status="Draft")
        files[DOC] = files[DOC].replace("`Accepted` via", "`Draft` via")

    found = [d for d in findings(edit) if d.rule == "doc-banner-rfc-status"]
    assert len(found) == 1 and "Stable page" in found[0].message


def test_broken_link_and_anchor(findings):
    def edit(files):
        files[DOC] = HEADER + (
            "[a](missing.md)\n"
            "[b](../rfcs/0001-things.md#no-such-heading)\n"
            "[c](#nowhere)\n"
            "[d](../../../etc/passwd)\n"
            "`[code](not-a-link.md)` and [web](https://example.com/x)\n"
        )

    found = findings(edit)
    assert hits(found, "doc-link-broken") == [(DOC, 7), (DOC, 10)]
    assert hits(found, "doc-anchor-broken") == [(DOC, 8), (DOC, 9)]


def test_links_inside_code_fences_are_ignored(findings):
    def edit(files):
        files[DOC] = HEADER + "```\n[a](missing.md)\n```\n"

    assert findings(edit) == []


def test_unknown_rfc_citation(findings):
    def edit(files):
        files[DOC] = HEADER + "As RFC 0042 says.\n"

    assert hits(findings(edit), "doc-rfc-unknown") == [(DOC, 7)]


def test_an_unknown_rfc_in_a_list_of_citations(findings):
    """RFC 0001 is the corpus's and 0037 is external (pyproject.toml); 0042 and 0043 are neither."""

    def edit(files):
        files[DOC] = HEADER + "As RFC 0001/0042 and RFCs 0037–0043 say.\n"

    found = [d for d in findings(edit) if d.rule == "doc-rfc-unknown"]
    assert [(d.line, d.col, d.message) for d in found] == [
        (7, 13, "cites RFC 0042, which is not in the corpus"),
        (7, 32, "cites RFC 0043, which is not in the corpus"),
    ]


def test_a_json_pointer_into_a_schema_must_name_a_member(findings):
    def edit(files):
        files[DOC] = HEADER + (
            "[a](../../schemas/thing.schema.json#/properties/nope)\n"
            "[b](../../schemas/decision.schema.json#/enum/0)\n"
            "[c](../../schemas/decision.schema.json#/enum/7)\n"
        )

    assert hits(findings(edit), "doc-anchor-broken") == [(DOC, 7), (DOC, 9)]


def test_undefined_reference_link_is_a_broken_link(findings):
    def edit(files):
        files[DOC] = HEADER + (
            "See [the RFC][rfc] and [events][Events].\n"
            "Then [x][missing], and [gone][] too.\n"
            "\n"
            "[rfc]: ../rfcs/0001-things.md\n"
            "[events]: #events\n"
        )

    found = [d for d in findings(edit) if d.rule == "doc-link-broken"]
    assert [(d.line, d.col) for d in found] == [(8, 6), (8, 24)]
    assert "[missing]" in found[0].message


def test_reference_link_definition_is_checked(findings):
    def edit(files):
        files[DOC] = HEADER + "See [the RFC][rfc].\n\n[rfc]: ../rfcs/0404-nothing.md\n"

    assert hits(findings(edit), "doc-link-broken") == [(DOC, 7)]


def test_setext_headings_have_anchors(findings):
    def edit(files):
        files[DOC] = (
            HEADER + "Setext Title\n============\n\nSub *part*\n---\n\n[a](#setext-title) [b](#sub-part) [c](#nope)\n"
        )

    assert hits(findings(edit), "doc-anchor-broken") == [(DOC, 13)]


def test_repeated_headings_take_the_sites_anchors(findings):
    def edit(files):
        files[DOC] = HEADER + "## Events\n\n[a](#events_1) [b](#events-1)\n"

    found = [d for d in findings(edit) if d.rule == "doc-anchor-broken"]
    assert [(d.line, d.col) for d in found] == [(9, 16)]


def test_links_in_indented_code_and_long_fences_are_not_links(findings):
    def edit(files):
        files[DOC] = HEADER + (
            "Indented code:\n\n    [a](missing.md)\n\n"
            "````markdown\n```\n[b](missing.md)\n```\n[c](missing.md)\n````\n\n"
            "~~~\n[d](missing.md)\n~~~\n\n"
            "[e](missing.md)\n"
        )

    assert hits(findings(edit), "doc-link-broken") == [(DOC, 22)]


@pytest.mark.parametrize("size", [24_000, 40_000])
@pytest.mark.parametrize("unit", ["[a](", "["])
def test_a_long_line_checks_quickly(findings, size, unit):
    def edit(files):
        files[DOC] = HEADER + unit * (size // len(unit)) + "\n"

    started = time.perf_counter()
    found = findings(edit)
    assert time.perf_counter() - started < 5
    assert [d for d in found if d.path == DOC] == []
