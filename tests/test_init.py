"""`wopgen init [DIR]`: a minimal corpus that checks clean, with its settings from the options;
existing files are never replaced."""

from __future__ import annotations

import tomllib
from pathlib import Path

from click.testing import CliRunner

from wopgen.cli import cli
from wopgen.corpus import load


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_init_then_check_is_clean(tmp_path: Path) -> None:
    target = tmp_path / "spec"
    code, output = run(
        "init",
        str(target),
        "--title",
        "Acme Protocol",
        "--id-base",
        "https://acme.example/spec/v1/",
        "--repository-url",
        "https://example.com/acme",
        "--author",
        "A. Author",
    )
    assert code == 0, output
    assert run("--root", str(target), "check")[0] == 0
    settings = tomllib.loads((target / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["wopgen"]
    assert settings["site-title"] == "Acme Protocol"
    assert settings["repository-url"] == "https://example.com/acme"
    corpus = load(target)
    assert corpus.settings.conventions.site_title == "Acme Protocol"
    assert [doc.data["$id"] for doc in corpus.schemas.values()] == ["https://acme.example/spec/v1/greeting.schema.json"]
    assert {e.kind for e in corpus.examples} == {"valid", "invalid"}
    assert len(corpus.rfcs) == 1 and len(corpus.docs) == 1 and corpus.changelog is not None


def test_init_never_replaces_a_file(tmp_path: Path) -> None:
    (tmp_path / "CHANGELOG.md").write_text("mine\n", encoding="utf-8")
    code, output = run("init", str(tmp_path))
    assert code == 2
    assert "CHANGELOG.md" in output
    assert (tmp_path / "CHANGELOG.md").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["CHANGELOG.md"]


def test_init_rejects_a_bad_id_base(tmp_path: Path) -> None:
    code, _ = run("init", str(tmp_path / "x"), "--id-base", "https://acme.example/no-slash")
    assert code == 2
    assert not (tmp_path / "x").exists()
