"""RFC-aware classification: which RFC allows a breaking change, and which claims too little."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.compat_support import corpus_files, outcome, run_compat, thing
from support.corpus_factory import rfc_text, write
from support.helpers import count_markdown_parses
from wopgen.compat import compare
from wopgen.corpus import load
from wopgen.corpus.model import ParsedOnUse

BASE = {"thing": thing({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}})}
HEAD = {"thing": thing({"type": "object", "properties": {"a": {"type": "string"}}})}
AFFECTS = "`schemas/thing.schema.json`"


def rfc(number: str = "0002", **kwargs: Any) -> dict[str, str]:
    return {f"spec/rfcs/{number}-things.md": rfc_text(number, **kwargs)}


@pytest.mark.parametrize(("compatibility", "status"), [("breaking", "Accepted"), ("safety-fix", "Active")])
def test_breaking_change_allowed_by_rfc(tmp_path: Path, compatibility: str, status: str) -> None:
    head_rfc = rfc(status=status, compatibility=f"`{compatibility}`", affects=AFFECTS)
    changes = run_compat(tmp_path, BASE, HEAD, None, head_rfc)
    assert outcome(changes) == {("compat-property-removed", "info")}
    assert changes[0].rfc == "RFC 0002"
    assert "allowed by RFC 0002" in changes[0].message


@pytest.mark.parametrize(
    ("compatibility", "status", "affects"),
    [
        ("breaking", "Draft", AFFECTS),  # not yet agreed
        ("breaking", "Withdrawn", AFFECTS),
        ("breaking", "Accepted", "`schemas/other.schema.json`"),  # names another file
    ],
)
def test_breaking_change_not_allowed(tmp_path: Path, compatibility: str, status: str, affects: str) -> None:
    head_rfc = rfc(status=status, compatibility=f"`{compatibility}`", affects=affects)
    changes = run_compat(tmp_path, BASE, HEAD, None, head_rfc)
    assert outcome(changes) == {("compat-property-removed", "error")}


def test_new_rfc_claiming_additive_over_a_breaking_change(tmp_path: Path) -> None:
    head_rfc = rfc(compatibility="`additive`", affects=AFFECTS)
    changes = run_compat(tmp_path, BASE, HEAD, None, head_rfc)
    assert outcome(changes) == {("compat-property-removed", "error"), ("compat-rfc-claims-additive", "error")}
    claim = next(c for c in changes if c.rule == "compat-rfc-claims-additive")
    assert claim.path == "spec/rfcs/0002-things.md"
    text = (tmp_path / "head/spec/rfcs/0002-things.md").read_text().splitlines()
    assert claim.head is not None and "**Compatibility**" in text[claim.head.line - 1]


def test_unchanged_additive_rfc_is_not_blamed(tmp_path: Path) -> None:
    same = rfc(compatibility="`additive`", affects=AFFECTS)
    changes = run_compat(tmp_path, BASE, HEAD, same, same)
    assert outcome(changes) == {("compat-property-removed", "error")}


def test_additive_rfc_over_additive_change_is_clean(tmp_path: Path) -> None:
    head_rfc = rfc(compatibility="`additive`", affects=AFFECTS)
    changes = run_compat(tmp_path, HEAD, BASE, None, head_rfc)
    assert outcome(changes) == {("compat-property-added", "info")}


def test_rfcs_are_read_from_their_header_without_parsing_markdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Allowing a change and judging a claim need only the header table and the file's text: comparing
    two corpora parses no RFC as Markdown (at a thousand RFCs a side that was most of the time)."""
    parsed = count_markdown_parses(monkeypatch)
    allowing = rfc(status="Accepted", compatibility="`breaking`", affects=AFFECTS)
    claiming = rfc("0003", compatibility="`additive`", affects=AFFECTS)
    changes = run_compat(tmp_path, BASE, HEAD, None, {**allowing, **claiming})
    assert outcome(changes) == {("compat-property-removed", "info")}
    changes = run_compat(tmp_path / "again", BASE, HEAD, allowing, {**rfc(compatibility="`additive`", affects=AFFECTS)})
    assert outcome(changes) == {("compat-property-removed", "error"), ("compat-rfc-claims-additive", "error")}
    assert not [path for path in parsed if path.startswith("spec/rfcs/")]


def test_the_base_rfcs_are_compared_by_text_without_reading_their_headers(tmp_path: Path) -> None:
    """Which RFCs the head touched is told from the texts, and one whose text never says `breaking` or
    `safety-fix` allows nothing: no RFC of the base, and only the touched one of the head, is read."""
    unchanged = rfc("0003", compatibility="`additive`", affects=AFFECTS)
    claiming = rfc(compatibility="`additive`", affects=AFFECTS)
    base_root = write(tmp_path / "base", corpus_files(BASE, unchanged))
    head_root = write(tmp_path / "head", corpus_files(HEAD, {**unchanged, **claiming}))
    base, head = load(base_root), load(head_root)
    changes = compare(base, head)
    assert outcome(changes) == {("compat-property-removed", "error"), ("compat-rfc-claims-additive", "error")}
    assert [c.path for c in changes if c.rule == "compat-rfc-claims-additive"] == ["spec/rfcs/0002-things.md"]
    assert isinstance(base.rfcs, ParsedOnUse)
    assert all(base.rfcs.source(path) is not None for path in base.rfcs)  # none parsed
    assert isinstance(head.rfcs, ParsedOnUse)  # of the head, only the one it touched
    assert [path for path in head.rfcs if head.rfcs.source(path) is None] == ["spec/rfcs/0002-things.md"]
