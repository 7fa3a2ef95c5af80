from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from corpus_factory import good_files, write
from wopgen.checks import CHECKS
from wopgen.corpus import load
from wopgen.diagnostics import Diagnostic


def diagnose(root: Path) -> list[Diagnostic]:
    """What `run_all` finds, check by check, holding each check to the rule families it declares in
    CHECKS (what `--select`/`--ignore` rely on to skip it), on every corpus the tests build."""
    corpus = load(root)
    found = list(corpus.load_diagnostics)
    for families, check in CHECKS:
        emitted = list(check(corpus))
        strays = sorted({d.rule for d in emitted if not d.rule.startswith(families)})
        assert not strays, f"{check.__module__} emits {strays}, outside the families {families} it declares in CHECKS"
        found.extend(emitted)
    return sorted(found, key=Diagnostic.sort_key)


@pytest.fixture
def make_corpus(tmp_path: Path) -> Callable[..., Path]:
    """make_corpus(edit) writes the good corpus after `edit(files)` mutates the file table."""

    def build(edit: Callable[[dict[str, Any]], None] | None = None) -> Path:
        files = copy.deepcopy(good_files())
        if edit is not None:
            edit(files)
        return write(tmp_path / "corpus", files)

    return build


@pytest.fixture
def findings(make_corpus: Callable[..., Path]) -> Callable[..., list[Diagnostic]]:
    def run(edit: Callable[[dict[str, Any]], None] | None = None) -> list[Diagnostic]:
        return diagnose(make_corpus(edit))

    return run
