"""`wopgen check` cannot pass on nothing: a mistyped selection, an empty corpus, a silent summary."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from support.corpus_factory import PYPROJECT, write
from support.helpers import hits
from wopgen.cli import cli
from wopgen.corpus import load


def run(root: Path, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--root", str(root), "check", *args])


def test_an_unknown_select_or_ignore_is_a_usage_error_with_a_suggestion(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    result = run(root, "--select", "sheme-")
    assert result.exit_code == 2 and "did you mean" in result.output and "schema-" in result.output
    result = run(root, "--ignore", "schema-defs-unsed")
    assert result.exit_code == 2 and "schema-defs-unused" in result.output
    assert run(root, "--select", "zzzz-nothing").exit_code == 2
    for good in ("schema-", "schema", "rfc-status", "schema-,example-"):
        assert run(root, "--select", good).exit_code in (0, 1), good


def test_a_corpus_with_nothing_in_it_is_an_error(tmp_path: Path) -> None:
    empty = write(tmp_path / "empty", {"pyproject.toml": PYPROJECT, "schemas/.keep": "", "spec/v1/.keep": ""})
    (empty / "spec/rfcs").mkdir()
    assert hits(load(empty).load_diagnostics, "corpus-empty") == [("pyproject.toml", 5)]
    result = run(empty)
    assert result.exit_code == 1 and "corpus-empty" in result.output


def test_one_page_is_enough_to_not_be_empty(tmp_path: Path) -> None:
    root = write(tmp_path / "c", {"pyproject.toml": PYPROJECT, "schemas/.keep": "", "spec/v1/a.md": "# A\n"})
    (root / "spec/rfcs").mkdir()
    assert hits(load(root).load_diagnostics, "corpus-empty") == []


def test_the_summary_says_what_was_checked(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    corpus = load(root)
    counts = corpus.checked()
    assert counts["schemas"] == len(corpus.schemas) > 0 and counts["RFCs"] == len(corpus.rfcs) > 0
    text = run(root).output.strip().splitlines()[-1]
    assert f"{counts['schemas']} schemas" in text and f"{counts['pages']} page" in text
    doc = json.loads(run(root, "--format", "json").output)
    assert doc["checked"] == counts


def test_the_summary_counts_the_invariants_and_the_changelog_it_read(
    make_corpus: Callable[..., Path], tmp_path: Path
) -> None:
    """The two single-file parts are checked too, so the summary says so; a corpus without them does
    not mention them."""
    root = make_corpus()
    entries = len(load(root).invariants.data["invariants"])  # type: ignore[union-attr]
    counts = load(root).checked()
    assert counts["invariants"] == entries > 0 and counts["changelogs"] == 1
    assert f"{entries} invariant" in run(root).output and "1 changelog)" in run(root).output

    bare = write(tmp_path / "bare", {"pyproject.toml": PYPROJECT, "spec/v1/a.md": "# A\n"})
    assert not {"invariants", "changelogs"} & set(load(bare).checked())
