"""rfc-comment-window and rfc-number-reserved: what an RFC's record and number must respect."""

from __future__ import annotations

import datetime as dt

import pytest

from support.corpus_factory import PYPROJECT, rfc_text
from support.helpers import hits
from wopgen.checks.rfc_records import activation_date
from wopgen.corpus.settings import SettingsError, load_settings

RFC = "spec/rfcs/0001-things.md"
UPDATED_LINE = 10
WINDOW = "rfc-comment-window"


@pytest.mark.parametrize(
    ("status", "created", "updated", "compatibility", "expected"),
    [
        ("Active", "2026-05-01", "2026-05-02", "`additive`", [(RFC, UPDATED_LINE)]),  # one day of seven
        ("Active", "2026-05-01", "2026-05-08", "`additive`", []),  # the window held
        ("Active", "2026-05-01", "2026-05-20", "`breaking`", [(RFC, UPDATED_LINE)]),  # 19 of 30 days
        (
            "Active",
            "2026-05-01",
            "2026-05-01 (Draft -> Active; comment window waived by lazy consensus)",
            "`additive`",
            [],
        ),
        ("Accepted", "2026-05-01", "2026-05-02", "`additive`", [(RFC, UPDATED_LINE)]),  # Active on day 1 at the latest
        ("Accepted", "2026-05-01", "2026-05-20", "`additive`", []),  # accepted after the window: nothing proven
        (
            "Accepted",
            "2026-05-01",
            "2026-05-20 (Active -> Accepted). Earlier: 2026-05-02, Draft -> Active",
            "`additive`",
            [(RFC, UPDATED_LINE)],
        ),
        (
            "Accepted",
            "2026-05-01",
            "2026-05-20 (Active -> Accepted). Earlier: 2026-05-02, Draft -> Active, window waived by lazy consensus",
            "`additive`",
            [],
        ),
        (
            "Accepted",
            "2026-05-01",
            "2026-05-20 (Active -> Accepted). Earlier: 2026-05-09, Draft -> Active",
            "`additive`",
            [],
        ),
        ("Draft", "2026-05-01", "2026-05-01", "`additive`", []),
        ("Withdrawn", "2026-05-01", "2026-05-01", "`additive`", []),
    ],
)
def test_an_active_or_accepted_rfc_needs_its_window_or_a_waiver(
    findings, status, created, updated, compatibility, expected
):
    def edit(files):
        files[RFC] = rfc_text(status=status, created=created, updated=updated, compatibility=compatibility)

    assert hits(findings(edit), WINDOW) == expected


@pytest.mark.parametrize(
    ("status", "note", "expected"),
    [
        ("Active", "Draft -> Active; the window was waived by lazy consensus of the single maintainer", []),
        ("Accepted", "Draft -> Active, comment window waived per the bootstrap lazy consensus rule", []),
        ("Active", "Draft -> Active; the window was waived by the author", [(RFC, UPDATED_LINE)]),
        ("Active", "Draft -> Active in the filing PR. Comment window waived (additive, 7-day) by the steward", []),
        ("Accepted", "Draft -> Active; waived on the steward's say-so", []),
        ("Accepted", "Draft -> Active; waived by the implementer", [(RFC, UPDATED_LINE)]),
        ("Active", "Draft -> Active without the waiver lazy consensus would need", [(RFC, UPDATED_LINE)]),
        (
            "Active",
            "Draft -> Active; the window was not waived, lazy consensus was never sought",
            [(RFC, UPDATED_LINE)],
        ),
        ("Accepted", "Draft -> Active after the comment window", [(RFC, UPDATED_LINE)]),
    ],
)
def test_only_a_waiver_by_lazy_consensus_or_the_stewards_excuses_a_short_window(findings, status, note, expected):
    def edit(files):
        files[RFC] = rfc_text(status=status, created="2026-05-01", updated=f"2026-05-01 ({note})")

    assert hits(findings(edit), WINDOW) == expected


def test_the_move_to_active_is_dated_by_the_note_not_by_its_first_date(findings):
    def edit(files):
        files[RFC] = rfc_text(
            status="Active", created="2026-05-01", updated="2026-06-20 (notes). Earlier: 2026-05-03, Draft -> Active"
        )

    assert hits(findings(edit), WINDOW) == [(RFC, UPDATED_LINE)]


@pytest.mark.parametrize(
    ("note", "date"),
    [
        ("2026-05-02 (Draft -> Active: landed)", dt.date(2026, 5, 2)),
        ("2026-06-08 (Active → Accepted ...). 2026-06-07 (Draft → Active — waived)", dt.date(2026, 6, 7)),
        ("no date at all", None),
        ("2026-13-40 (Draft -> Active)", None),
    ],
)
def test_activation_date(note, date):
    assert activation_date(note) == date


def test_a_reserved_number_is_flagged(findings):
    def edit(files):
        files["pyproject.toml"] = PYPROJECT + "reserved-rfcs = [1, 91]\n"

    assert hits(findings(edit), "rfc-number-reserved") == [(RFC, 5)]


def test_a_number_outside_the_reserved_list_passes(findings):
    def edit(files):
        files["pyproject.toml"] = PYPROJECT + "reserved-rfcs = [2, 91]\n"

    assert hits(findings(edit), "rfc-number-reserved") == []


@pytest.mark.parametrize("value", ['"91"', "[true]", "[0.5]"])
def test_reserved_rfcs_must_be_a_list_of_numbers(tmp_path, value):
    (tmp_path / "pyproject.toml").write_text(PYPROJECT + f"reserved-rfcs = {value}\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="reserved-rfcs"):
        load_settings(tmp_path)


@pytest.mark.parametrize(
    ("reserved", "expected"),
    [
        ("[38, 39, 2]", 40),  # the number after the highest (external RFC 0037), reserved ones skipped
        ("[184, 2]", 38),  # a reserved number far above never raises the start past a free one
        ("[9999]", 38),
        ("[37, 38]", 2),  # an external RFC on a reserved number is another series's: RFC 0001 is the highest
    ],
)
def test_rfc_new_skips_reserved_numbers(tmp_path, reserved, expected):
    from support.corpus_factory import good
    from wopgen.corpus import load
    from wopgen.generate.rfc import next_number

    root = good(tmp_path)
    (root / "pyproject.toml").write_text(PYPROJECT + f"reserved-rfcs = {reserved}\n", encoding="utf-8")
    assert next_number(load(root)) == expected


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ("reserved-rfcs = [9998, 9999]\nexternal-rfcs = [9997]\n", "after RFC 9997 (reserved-rfcs takes the rest)"),
        ("external-rfcs = [9999]\n", "after RFC 9999;"),
    ],
)
def test_rfc_new_writes_nothing_when_no_four_digit_number_is_left(tmp_path, settings, says):
    from click.testing import CliRunner

    from support.corpus_factory import good
    from wopgen.cli import cli

    root = good(tmp_path)
    (root / "pyproject.toml").write_text(PYPROJECT.replace("external-rfcs = [37]\n", "") + settings, encoding="utf-8")
    before = sorted(p.name for p in (root / "spec/rfcs").iterdir())
    result = CliRunner().invoke(cli, ["--root", str(root), "rfc", "new", "Next idea"], catch_exceptions=False)
    assert result.exit_code == 2, result.output
    assert "no four-digit RFC number is left " + says in result.output
    assert sorted(p.name for p in (root / "spec/rfcs").iterdir()) == before


def test_rfc_0901_records_a_short_window_and_the_waiver_rfc_0001_allows():
    from support.generated_models import repo_corpus
    from wopgen.checks.rfc_records import waiver_problem

    (rfc,) = [r for r in repo_corpus().rfcs.values() if r.number == 901]
    note = rfc.get("Updated")
    assert activation_date(note) == dt.date.fromisoformat(rfc.date("Created") or "")  # Active the day it opened
    assert waiver_problem(note) is None
    assert waiver_problem(note.replace("lazy consensus", "decision of the author")) is not None
