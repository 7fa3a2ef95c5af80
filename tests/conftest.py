from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support.corpus_factory import good_files, write
from support.helpers import diagnose
from wopgen.diagnostics import Diagnostic


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
