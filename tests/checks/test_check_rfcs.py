from __future__ import annotations

import pytest

from support.corpus_factory import rfc_text
from support.helpers import hits

RFC = "spec/rfcs/0001-things.md"


def test_filename(findings):
    def edit(files):
        files["spec/rfcs/things.md"] = files.pop(RFC)
        files["spec/v1/overview.md"] = files["spec/v1/overview.md"].replace("0001-things.md", "things.md")

    assert hits(findings(edit), "rfc-filename") == [("spec/rfcs/things.md", 1)]


def test_header_missing(findings):
    def edit(files):
        files[RFC] = "# RFC 0001: Things\n\nNo table here.\n"

    assert hits(findings(edit), "rfc-header-missing") == [(RFC, 1)]


def test_header_field_missing(findings):
    def edit(files):
        files[RFC] = files[RFC].replace("| **Author(s)** | A. Author (@author) |\n", "")

    assert hits(findings(edit), "rfc-header-field") == [(RFC, 3)]  # the table


def test_number_must_match_file_name(findings):
    def edit(files):
        files[RFC] = rfc_text(number="0002")

    assert hits(findings(edit), "rfc-number") == [(RFC, 5)]


def test_number_duplicate(findings):
    def edit(files):
        files["spec/rfcs/0001-other-things.md"] = rfc_text()

    found = hits(findings(edit), "rfc-number-duplicate")
    assert len(found) == 1


def test_status_unknown(findings):
    def edit(files):
        files[RFC] = rfc_text(status="Approved")

    assert hits(findings(edit), "rfc-status") == [(RFC, 7)]


def test_compatibility_unknown(findings):
    def edit(files):
        files[RFC] = rfc_text(compatibility="`compatible`")

    assert hits(findings(edit), "rfc-compatibility") == [(RFC, 12)]


@pytest.mark.parametrize(
    ("created", "updated", "line"),
    [("May 1st", "2026-05-02", 9), ("2026-05-03", "2026-05-02", 10), ("2026-02-30", "2026-05-02", 9)],
)
def test_dates(findings, created, updated, line):
    def edit(files):
        files[RFC] = rfc_text(created=created, updated=updated)

    assert hits(findings(edit), "rfc-date") == [(RFC, line)]


def test_supersession_must_agree_both_ways(findings):
    def edit(files):
        files["spec/rfcs/0002-newer-things.md"] = rfc_text(number="0002", supersedes="0001")

    found = [d for d in findings(edit) if d.rule == "rfc-supersession"]
    # 0001 does not point back, and is not Superseded although 0002 is Accepted
    assert sorted((d.path, d.line) for d in found) == [(RFC, 7), (RFC, 14)]


def test_the_links_of_a_second_rfc_of_one_number_are_checked_too(findings):
    """0002-newer-things.md comes second of the two RFCs numbered 0002 (by path), and its Supersedes
    still needs 0001 to point back."""

    def edit(files):
        files["spec/rfcs/0002-a-first.md"] = rfc_text(number="0002")
        files["spec/rfcs/0002-newer-things.md"] = rfc_text(number="0002", supersedes="0001")

    found = findings(edit)
    assert len(hits(found, "rfc-number-duplicate")) == 1
    supersession = sorted((d for d in found if d.rule == "rfc-supersession"), key=lambda d: d.line)
    assert [(d.path, d.line) for d in supersession] == [(RFC, 7), (RFC, 14)]
    # the messages name which of the two files numbered 0002 they mean
    assert supersession[0].message.startswith("superseded by Accepted RFC 0002 (spec/rfcs/0002-newer-things.md) ")
    assert supersession[1].message.startswith("RFC 0002 (spec/rfcs/0002-newer-things.md) supersedes this RFC")


def test_a_message_names_no_file_where_the_number_is_the_rfcs_own(findings):
    def edit(files):
        files["spec/rfcs/0002-newer-things.md"] = rfc_text(number="0002", supersedes="0001")

    messages = sorted(d.message for d in findings(edit) if d.rule == "rfc-supersession")
    assert [m.split(" but ")[0].split(" this RFC,")[0] for m in messages] == [
        "RFC 0002 supersedes",
        "superseded by Accepted RFC 0002",
    ]


def test_supersession_agreeing_is_clean(findings):
    def edit(files):
        files[RFC] = rfc_text(status="Superseded", superseded_by="0002")
        files["spec/rfcs/0002-newer-things.md"] = rfc_text(number="0002", supersedes="0001")
        files["spec/v1/overview.md"] = files["spec/v1/overview.md"].replace(
            "`Accepted` via [RFC 0001](../rfcs/0001-things.md)",
            "`Accepted` via [RFC 0002](../rfcs/0002-newer-things.md)",
        )

    assert [d for d in findings(edit) if d.rule.startswith("rfc-")] == []


def test_affects_path_must_exist(findings):
    def edit(files):
        files[RFC] = rfc_text(affects="`schemas/thing.schema.json` · `schemas/gone.schema.json`")

    found = [d for d in findings(edit) if d.rule == "rfc-affects-missing"]
    assert [(d.path, d.line) for d in found] == [(RFC, 11)] and "gone.schema.json" in found[0].message


def test_required_section_missing(findings):
    def edit(files):
        files[RFC] = files[RFC].replace("## Alternatives considered\n", "## Other ideas\n")

    found = [d for d in findings(edit) if d.rule == "rfc-section-missing"]
    assert len(found) == 1 and "Alternatives considered" in found[0].message


def test_accepted_rfc_with_open_box(findings):
    def edit(files):
        files[RFC] = rfc_text(extra="- [ ] Conformance scenario.\n")

    text = rfc_text(extra="- [ ] Conformance scenario.\n")
    line = text.splitlines().index("- [ ] Conformance scenario.") + 1
    assert hits(findings(edit), "rfc-acceptance-open") == [(RFC, line)]


def test_open_box_is_fine_while_active(findings):
    def edit(files):
        files[RFC] = rfc_text(status="Active", updated="2026-05-08", extra="- [ ] Conformance scenario.\n")
        files["spec/v1/overview.md"] = files["spec/v1/overview.md"].replace(
            "**Status: Stable** · `Accepted`", "**Status: Stabilizing** · `Active`"
        )

    assert [d.rule for d in findings(edit)] == []
