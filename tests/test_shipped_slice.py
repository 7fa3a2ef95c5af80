"""Outside any corpus, the commands that execute the spec read the OpenWOP v1 slice wopgen ships
with, and say so; every other command still asks for a corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from wopgen.cli import cli
from wopgen.reference import shipped_root

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with no corpus in or above it."""
    folder = tmp_path / "nowhere"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def test_an_editable_install_ships_the_repository_it_was_installed_from() -> None:
    assert shipped_root() == REPO


def test_conformance_outside_a_corpus_runs_the_shipped_slice(nowhere: Path) -> None:
    result = CliRunner().invoke(cli, ["conformance", "--select", "core-run-surface,agent-verified-shape"])
    assert result.exit_code == 0, result.output
    assert f"no corpus in or above {nowhere}; using the OpenWOP v1 slice shipped with wopgen ({REPO})" in result.output
    assert "host: 1 passed" in result.output and "corpus: 1 passed" in result.output


@pytest.mark.parametrize(
    "command", [["check"], ["models"], ["host", "generate"], ["site", "build"], ["rfc", "list"], ["api"]]
)
def test_other_commands_still_ask_for_a_corpus(nowhere: Path, command: list[str]) -> None:
    """They read or write a corpus of the user's own: the shipped one would hide a mistaken folder
    (and `host generate` would write into the installation)."""
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 2, result.output
    assert "no pyproject.toml with a [tool.wopgen] table" in result.output
    assert "shipped" not in result.output


def test_a_corpus_around_the_working_folder_comes_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "corpus"
    assert CliRunner().invoke(cli, ["init", str(root)]).exit_code == 0
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["conformance", "--select", "agent-verified-shape"])
    assert "shipped" not in result.output


def test_an_explicit_root_that_is_no_corpus_is_still_an_error(nowhere: Path) -> None:
    result = CliRunner().invoke(cli, ["--root", str(nowhere), "conformance", "--select", "agent-verified-shape"])
    assert result.exit_code == 2 and "shipped" not in result.output
