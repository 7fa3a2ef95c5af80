"""doc-enum-value: a value the prose gives an enumerated member is one of the schema's enum values."""

from __future__ import annotations

from support.helpers import hits

DOC = "spec/v1/overview.md"
HEADER = "# Overview\n\n> **Status: Stable** · `Accepted` via [RFC 0001](../rfcs/0001-things.md)\n\n## Events\n\n"
RULE = "doc-enum-value"


def _columns(found, rule=RULE):
    return [(d.path, d.line, d.col) for d in found if d.rule == rule]


def test_a_listed_value_outside_the_enum_is_flagged(findings):
    def edit(files):
        files[DOC] = HEADER + "`decision`: `go` (carry on), `halt` (edge `x`) or `stop`.\n"

    assert _columns(findings(edit)) == [(DOC, 7, 31)]


def test_values_inside_the_enum_pass(findings):
    def edit(files):
        files[DOC] = (
            HEADER + "`decision`: `go` (carry on), `stop` (edge `x`).\nThe `decision` is one of `go` or `stop`.\n"
        )

    assert hits(findings(edit), RULE) == []


def test_a_name_value_code_span_is_checked(findings):
    def edit(files):
        files[DOC] = HEADER + 'A `decision: stop` ends it; a `verdict: maybe` is wrong; `decision: "go"` too.\n'

    assert _columns(findings(edit)) == [(DOC, 7, 41)]


def test_a_table_column_headed_by_the_member_is_checked(findings):
    def edit(files):
        files[DOC] = HEADER + "| Case | `decision` |\n|---|---|\n| a | `go` |\n| b | `pause` |\n| c | free text |\n"

    assert hits(findings(edit), RULE) == [(DOC, 10)]


def test_rejected_examples_and_code_fences_are_not_prose(findings):
    def edit(files):
        files[DOC] = HEADER + (
            "Rejected: [`verdict: ok`](../../schemas/examples/run-event-payloads/invalid/verdict-ok.json).\n"
            "```\n`decision`: `halt`\n```\n"
        )

    assert hits(findings(edit), RULE) == []


def test_front_matter_is_not_prose(findings):
    """The site takes the front matter off the page: a value written there is not the page's claim."""

    def edit(files):
        files[DOC] = '---\ndescription: "sets `decision: halt` for now"\n---\n' + HEADER + "A `decision: stop`.\n"

    assert hits(findings(edit), RULE) == []

    def later(files):
        files[DOC] = "---\ndescription: fine\n---\n" + HEADER + "A `decision: halt`.\n"

    assert _columns(findings(later)) == [(DOC, 10, 14)]


def test_a_member_with_two_meanings_is_not_checked(findings):
    from support.corpus_factory import schema

    def edit(files):
        files["schemas/other.schema.json"] = schema(
            "other", {"type": "object", "properties": {"decision": {"type": "string"}}}
        )
        files["schemas/examples/other/valid/any.json"] = {"decision": "anything"}
        files["schemas/examples/other/invalid/number.json"] = {"decision": 1}
        files[DOC] = HEADER + "`decision`: `halt`.\n"

    assert hits(findings(edit), RULE) == []


def test_rfcs_are_checked_too(findings):
    from support.corpus_factory import rfc_text

    def edit(files):
        files["spec/rfcs/0001-things.md"] = rfc_text(extra="The `verdict` is `pass` or `approved`.\n")

    found = [d for d in findings(edit) if d.rule == RULE]
    assert [(d.path, d.col) for d in found] == [("spec/rfcs/0001-things.md", 29)]


def test_a_broken_reference_is_not_an_enum_and_not_a_crash(findings):
    def edit(files):
        files["schemas/thing.schema.json"]["properties"]["size"] = {"$ref": "#/required/x"}
        files["schemas/thing.schema.json"]["properties"]["kind"] = {"$ref": "#/title/x"}
        files[DOC] = HEADER + "`size`: `big`; `kind`: `odd`.\n"

    found = findings(edit)
    assert hits(found, RULE) == []
    assert [d.rule for d in found].count("schema-ref-unresolved") == 2
