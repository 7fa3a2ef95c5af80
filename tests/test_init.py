"""`wopgen init [DIR]`: a minimal corpus that checks clean, with its settings from the options,
written by the one writer: only new files, all of them or nothing."""

from __future__ import annotations

import errno
import os
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from wopgen.cli import cli
from wopgen.corpus import load
from wopgen.generate.models import generate_models


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
    # the generated models speak of the corpus by its title, not of OpenWOP
    init = generate_models(corpus)["wop_models/__init__.py"]
    assert init.startswith('"""Typed models of the Acme Protocol schemas') and "OpenWOP" not in init


def test_init_never_replaces_a_file(tmp_path: Path) -> None:
    (tmp_path / "CHANGELOG.md").write_text("mine\n", encoding="utf-8")
    code, output = run("init", str(tmp_path))
    assert code == 2
    assert "CHANGELOG.md" in output
    assert (tmp_path / "CHANGELOG.md").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["CHANGELOG.md"]


def test_init_adds_to_a_git_work_tree_and_leaves_other_files(tmp_path: Path) -> None:
    """`git init && wopgen init`: the repository and a README stay as they were."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("mine\n", encoding="utf-8")
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "notes.md").write_text("notes\n", encoding="utf-8")
    code, output = run("init", str(tmp_path))
    assert code == 0, output
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == "mine\n"
    assert (tmp_path / ".git" / "HEAD").read_text(encoding="utf-8") == "ref: refs/heads/main\n"
    assert (tmp_path / "spec" / "notes.md").read_text(encoding="utf-8") == "notes\n"
    assert (tmp_path / "pyproject.toml").is_file() and not list(tmp_path.glob(".wopgen-staging*"))


def test_init_refuses_a_file_and_the_inside_of_a_git_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    code, output = run("init", str(tmp_path / "file"))
    assert code == 2 and "is a file" in output
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    code, output = run("init", str(tmp_path / "repo" / ".git"))
    assert code == 2 and "(.git)" in output
    assert list((tmp_path / "repo" / ".git").iterdir()) == []
    (tmp_path / "spec").write_text("a file where a folder must go\n", encoding="utf-8")
    code, output = run("init", str(tmp_path))
    assert code == 2 and "spec is a file, where a folder of new files goes" in output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "repo", "spec"]


def test_init_never_writes_through_a_symbolic_link(tmp_path: Path) -> None:
    """A folder of the corpus that is a link could lead anywhere: refused, nothing written on either side."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = tmp_path / "spec-repo"
    target.mkdir()
    (target / "schemas").symlink_to(elsewhere, target_is_directory=True)
    code, output = run("init", str(target))
    assert code == 2 and "schemas is a symbolic link" in output
    assert list(elsewhere.iterdir()) == [] and sorted(p.name for p in target.iterdir()) == ["schemas"]


def test_init_fills_an_empty_working_folder_and_keeps_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = tmp_path / "here"
    here.mkdir()
    before = here.stat().st_ino
    monkeypatch.chdir(here)
    code, output = run("init")
    assert code == 0, output
    assert here.stat().st_ino == before  # the same folder, not one renamed over it
    assert sorted(p.name for p in here.iterdir()) == ["CHANGELOG.md", "pyproject.toml", "schemas", "spec"]
    assert run("check")[0] == 0


def _failing_on(monkeypatch: pytest.MonkeyPatch, method: str, call: int) -> None:
    """Make `Path.<method>` fail with ENOSPC on its `call`-th use."""
    original = getattr(Path, method)
    calls = {"n": 0}

    def failing(self: Path, *args: object, **kwargs: object) -> object:
        calls["n"] += 1
        if calls["n"] == call:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Path, method, failing)


@pytest.mark.parametrize(("method", "call"), [("write_bytes", 4), ("rename", 3)])
@pytest.mark.parametrize("exists", [False, True])
def test_a_failure_part_way_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, method: str, call: int, exists: bool
) -> None:
    """A full disk after some files are written, or after some are moved into place: the new
    folder (and the parents init made for it) is gone again; an existing folder holds what it held."""
    target = tmp_path / "parent" / "spec"
    if exists:
        (target / "spec").mkdir(parents=True)  # a folder init writes into
        (target / "spec" / "notes.md").write_text("notes\n", encoding="utf-8")
    _failing_on(monkeypatch, method, call)
    code, output = run("init", str(target))
    monkeypatch.undo()
    assert code == 2, output
    assert "No space left on device" in output and "Traceback" not in output
    if exists:
        assert sorted(str(p.relative_to(target)) for p in target.rglob("*")) == ["spec", "spec/notes.md"]
    else:
        assert list(tmp_path.iterdir()) == []
    assert run("init", str(target))[0] == 0  # and the next run starts afresh


def test_an_interrupted_init_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = Path.write_bytes
    calls = {"n": 0}

    def interrupted(self: Path, data: bytes) -> int:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return original(self, data)

    monkeypatch.setattr(Path, "write_bytes", interrupted)
    code, output = run("init", str(tmp_path / "spec"))
    assert code == 1 and "Aborted" in output  # click's answer to Ctrl-C
    assert calls["n"] == 2
    assert list(tmp_path.iterdir()) == []


def test_the_staging_folder_of_a_killed_init_is_cleaned(tmp_path: Path) -> None:
    """A run killed before it could clean up leaves its staging folder, named after its process
    id; the next run removes it, and only it: a folder that merely looks like one stays."""
    dead = tmp_path / ".wopgen-staging.999999999.0123abcd"
    (dead / "schemas").mkdir(parents=True)
    keep = tmp_path / ".wopgen-staging.notes"
    keep.mkdir()
    code, output = run("init", str(tmp_path))
    assert code == 0, output
    assert not dead.exists() and keep.exists()


def test_init_rejects_a_bad_id_base(tmp_path: Path) -> None:
    code, _ = run("init", str(tmp_path / "x"), "--id-base", "https://acme.example/no-slash")
    assert code == 2
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--title", "Acme\nProtocol", "--title must be one line"),  # a heading and a TOML line broken in two
        ("--id-base", "https://acme.example/\udcff/", "--id-base must be one line"),  # bytes that are not UTF-8
        ("--author", "A.\tAuthor", "--author must be one line"),
        ("--repository-url", "javascript:alert(1)", "--repository-url must be an http(s) URL"),
    ],
)
def test_init_refuses_values_that_would_leave_a_broken_corpus(
    tmp_path: Path, option: str, value: str, said: str
) -> None:
    code, output = run("init", str(tmp_path / "x"), option, value)
    assert code == 2 and said in output
    assert not (tmp_path / "x").exists()


def test_a_repository_url_setting_must_be_http(tmp_path: Path) -> None:
    """The site links it from every page; mkdocs refused it only when the site was built."""
    assert run("init", str(tmp_path / "x"))[0] == 0
    settings = tmp_path / "x/pyproject.toml"
    settings.write_text(settings.read_text().replace('repository-url = ""', 'repository-url = "javascript:x"'))
    code, output = run("--root", str(tmp_path / "x"), "check")
    assert code == 2 and "repository-url must be an http(s) URL" in output
