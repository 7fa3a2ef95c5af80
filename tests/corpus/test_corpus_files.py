"""The repository's file list is taken once by `corpus.load`; `exists` and `glob` ask it, not the disk."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from wopgen.checks import run_all
from wopgen.corpus import load

INVARIANTS = "spec/security/invariants.yaml"
WITNESS = "tests/test_things.py"


def invariants_naming(*tests: str) -> str:
    listed = "".join(f"      - {t}\n" for t in tests)
    return (
        "invariants:\n  - id: verifier-no-content-leak\n    tier: protocol\n    severity: critical\n"
        f"    tests:\n{listed}"
    )


def rules(root: Path) -> list[tuple[str, str]]:
    return sorted((d.rule, d.path) for d in run_all(load(root)))


def test_checks_see_the_files_listed_at_load_time(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    corpus = load(root)
    (root / WITNESS).unlink()
    # The loaded corpus still has its witness: the checks are a function of what was loaded.
    assert [d.rule for d in run_all(corpus)] == []
    # Loading again sees the file gone.
    assert rules(root) == [("invariant-untested", INVARIANTS)]


@pytest.mark.parametrize(
    ("pattern", "untested"),
    [
        ("tests/test_*.py", False),
        ("tests/**/test_things.py", False),
        ("**/test_things.py", False),
        ("tests/*/test_things.py", False),  # the nested copy below
        ("test?/test_things.py", False),
        ("tests/test_[!t]*.py", True),
        ("tests/*.txt", True),
        ("../tests/test_things.py", True),
        ("/tests/test_things.py", True),
    ],
)
def test_witness_globs(make_corpus: Callable[..., Path], pattern: str, untested: bool) -> None:
    def edit(files: dict[str, Any]) -> None:
        files[INVARIANTS] = invariants_naming(pattern)
        files["tests/sub/test_things.py"] = files[WITNESS]

    found = rules(make_corpus(edit))
    assert (("invariant-untested", INVARIANTS) in found) is untested


@pytest.mark.parametrize("folder", ["build", "node_modules", ".venv", "__pycache__", ".git"])
def test_ignored_folders_are_not_listed(make_corpus: Callable[..., Path], folder: str) -> None:
    def edit(files: dict[str, Any]) -> None:
        files[INVARIANTS] = invariants_naming(f"{folder}/test_things.py")
        files[f"{folder}/test_things.py"] = files[WITNESS]

    root = make_corpus(edit)
    assert not any(path.startswith(folder + "/") for path in load(root).files)
    assert rules(root) == [("invariant-untested", INVARIANTS)]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_links_leaving_the_root_are_not_listed(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "test_far.py").write_text("def test_far():\n    assert 1\n")

    def edit(files: dict[str, Any]) -> None:
        files[INVARIANTS] = invariants_naming("tests/far/test_far.py", "tests/test_link.py")

    root = make_corpus(edit)
    (root / "tests" / "far").symlink_to(outside)
    (root / "tests" / "test_link.py").symlink_to(outside / "test_far.py")
    (root / "tests" / "inner.py").symlink_to(root / WITNESS)
    corpus = load(root)
    assert not corpus.exists("tests/far") and not corpus.exists("tests/test_link.py")
    assert corpus.exists("tests/inner.py")
    assert rules(root) == [("invariant-untested", INVARIANTS)]


def test_exists_reads_paths_as_written(make_corpus: Callable[..., Path]) -> None:
    corpus = load(make_corpus())
    assert corpus.exists("schemas/examples/thing/")
    assert corpus.exists("spec/v1/../rfcs/0001-things.md")
    assert not corpus.exists("spec/../../corpus/schemas")
    assert not corpus.exists("schemas/nope.schema.json")
    assert corpus.glob("schemas/*.schema.json") == sorted(corpus.schemas)


def test_listing_stops_at_its_limit(make_corpus: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    import wopgen.corpus.files

    root = make_corpus()
    assert [d.rule for d in load(root).load_diagnostics] == []
    monkeypatch.setattr(wopgen.corpus.files, "MAX_LISTED", 5)
    corpus = load(root)
    assert [(d.rule, d.severity.value) for d in corpus.load_diagnostics] == [("corpus-file-limit", "warning")]
    assert len(corpus.files | corpus.folders) == 5
