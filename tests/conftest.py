from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import click.testing
import pytest

from support.corpus_factory import good_files, write
from support.helpers import diagnose
from wopgen.diagnostics import Diagnostic

if int(version("click").split(".")[0]) == 8 and int(version("click").split(".")[1]) < 2:
    # click 8.1 (the lowest version pyproject.toml allows) mixes stderr into stdout unless asked
    # not to, and then leaves it out of `output`; click 8.2+ keeps both apart and puts both in
    # `output`. The tests are written for the latter, so give them that under 8.1 too.
    class _Result(click.testing.Result):
        @property
        def output(self) -> str:
            return self.stdout + (self.stderr if self.stderr_bytes is not None else "")

    class _CliRunner(click.testing.CliRunner):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("mix_stderr", False)
            super().__init__(*args, **kwargs)

        def invoke(self, *args: Any, **kwargs: Any) -> click.testing.Result:
            result = super().invoke(*args, **kwargs)
            result.__class__ = _Result
            return result

    click.testing.CliRunner = _CliRunner  # type: ignore[misc]


@pytest.fixture(autouse=True, scope="session")
def _user_cache_of_the_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """What commands keep in the user's cache folder (the site's compiled theme templates) is kept
    in a folder of the test session, not in the home of whoever runs the tests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
        yield


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
