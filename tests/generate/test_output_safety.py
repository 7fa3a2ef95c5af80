"""The writer only ever replaces what it wrote: refusals, foreign files, permissions, staging."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from support.api_corpus import api_files
from support.corpus_factory import write
from wopgen.cli import cli
from wopgen.generate.writer import MANIFEST, WriteError, clean_leftovers, drift, read_manifest, write_tree


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_a_folder_with_other_files_and_no_manifest_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "src"
    out.mkdir()
    (out / "mine.py").write_text("keep\n")
    with pytest.raises(WriteError, match=r"no \.wopgen-output"):
        write_tree({"a.py": "x\n"}, out)
    assert listing(out) == ["mine.py"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]  # no staging left behind


def test_an_empty_folder_is_fine_and_gets_a_manifest(tmp_path: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    write_tree({"a.py": "x\n", "pkg/b.py": "y\n"}, out)
    assert read_manifest(out) == {"a.py", "pkg/b.py"}
    assert listing(out) == [MANIFEST, "a.py", "pkg", "pkg/b.py"]


def test_force_adds_beside_foreign_files_and_regeneration_removes_only_its_own(tmp_path: Path) -> None:
    out = tmp_path / "src"
    (out / "notes").mkdir(parents=True)
    (out / "notes/todo.md").write_text("mine\n")
    (out / "CNAME").write_text("docs.example\n")
    write_tree({"wop/a.py": "1\n", "wop/b.py": "2\n"}, out, force=True)
    write_tree({"wop/a.py": "3\n"}, out)
    assert listing(out) == [MANIFEST, "CNAME", "notes", "notes/todo.md", "wop", "wop/a.py"]
    assert (out / "CNAME").read_text() == "docs.example\n"
    assert (out / "notes/todo.md").read_text() == "mine\n"
    # a file added by hand after generation survives the next run too
    (out / "wop/extra.py").write_text("hand\n")
    write_tree({"other.py": "4\n"}, out)
    assert listing(out) == [MANIFEST, "CNAME", "notes", "notes/todo.md", "other.py", "wop", "wop/extra.py"]
    assert drift({"other.py": "4\n"}, out).clean  # foreign files are not "stale"


def test_a_manifest_cannot_name_files_outside_the_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_tree({"a": "1"}, out)
    (tmp_path / "victim").write_text("keep")
    (out / MANIFEST).write_text("0  ../victim\n0  a\n")
    write_tree({"b": "2"}, out)
    assert (tmp_path / "victim").read_text() == "keep"
    assert listing(out) == [MANIFEST, "b"]


@pytest.mark.parametrize("where", ["root", "git", "protected", "ancestor"])
def test_force_is_no_escape_for_repositories_and_corpus_folders(tmp_path: Path, where: str) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "schemas").mkdir()
    (repo / "schemas/a.schema.json").write_text("{}")
    target = {"root": Path("/"), "git": repo, "protected": repo / "schemas", "ancestor": tmp_path}[where]
    with pytest.raises(WriteError, match="refusing"):
        write_tree({"x": "1"}, target, force=True, protected=[repo / "schemas"])
    assert listing(repo) == [".git", "schemas", "schemas/a.schema.json"]
    assert not [p for p in Path("/").iterdir() if p.name.startswith("..wopgen")]


def test_a_symlinked_out_replaces_the_folder_it_points_at_and_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real"
    write_tree({"a": "1"}, real)
    (real / "CNAME").write_text("x\n")
    link = tmp_path / "link"
    link.symlink_to(real)
    write_tree({"b": "2"}, link)
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert listing(real) == [MANIFEST, "CNAME", "b"]


def test_a_symlink_to_a_protected_folder_is_refused(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (tmp_path / "out").symlink_to(repo)
    with pytest.raises(WriteError, match=r"\.git"):
        write_tree({"x": "1"}, tmp_path / "out", force=True)


def test_ordinary_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_tree({"pkg/a.py": "1"}, tmp_path / "out")
    finally:
        os.umask(old)
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o755
    assert (tmp_path / "out/pkg").stat().st_mode & 0o777 == 0o755
    assert (tmp_path / "out/pkg/a.py").stat().st_mode & 0o777 == 0o644


def test_the_folder_keeps_its_permissions(tmp_path: Path) -> None:
    """A folder made private (`chmod 700`) stays private once regenerated, and so does one never written before."""
    for out in (tmp_path / "written", tmp_path / "new"):
        out.mkdir(mode=0o700)
        out.chmod(0o700)
        if out.name == "written":
            write_tree({"a.py": "1"}, out)
            out.chmod(0o700)
        write_tree({"a.py": "2"}, out)
        assert out.stat().st_mode & 0o777 == 0o700
        assert (out / "a.py").read_text() == "2"


def test_a_folder_another_command_wrote_is_refused_even_with_force(tmp_path: Path) -> None:
    """Its manifest does not list what this command would write: regenerating there dropped the other
    command's files (`wopgen api --out gen`, then `wopgen models --out gen`, left only wop_models)."""
    out = tmp_path / "gen"
    write_tree({"openapi.yaml": "a\n"}, out, command="api")
    for force in (False, True):
        with pytest.raises(WriteError, match=r"holds the output of `wopgen api`.*`wopgen models` would remove"):
            write_tree({"wop_models/a.py": "x\n"}, out, force=force, command="models")
    assert listing(out) == [MANIFEST, "openapi.yaml"]
    write_tree({"openapi.yaml": "b\n"}, out, command="api")  # the same command again
    assert (out / "openapi.yaml").read_text() == "b\n"


def test_a_manifest_that_names_no_command_is_taken_over(tmp_path: Path) -> None:
    """Output written before manifests named their command is regenerated as before, and named from then on."""
    out = tmp_path / "gen"
    write_tree({"a.py": "1\n"}, out)
    write_tree({"a.py": "2\n"}, out, command="models")
    assert "# written by: wopgen models\n" in (out / MANIFEST).read_text()
    with pytest.raises(WriteError, match="wopgen models"):
        write_tree({"b.py": "x\n"}, out, command="api")


def test_leftovers_of_a_killed_run_are_removed_and_a_lost_target_is_restored(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_tree({"a": "1"}, out)
    dead = 2**22 + 7  # above the default pid_max: no such process
    out.rename(tmp_path / f".out.wopgen-old.{dead}.abcd1234")  # killed between the two renames
    (tmp_path / f".out.wopgen-staging.{dead}.abcd1234").mkdir()
    clean_leftovers(out)
    assert listing(out) == [MANIFEST, "a"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


# --- end to end, as a user would run it ---------------------------------------------------------


def test_api_out_dot_in_a_git_repository_is_refused(tmp_path: Path) -> None:
    root = write(tmp_path / "clone", api_files())
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    before = listing(root)
    cwd = os.getcwd()
    os.chdir(root)
    try:
        for extra in ([], ["--force"]):
            result = CliRunner().invoke(cli, ["api", "--out", ".", *extra])
            assert result.exit_code == 2, result.output
            assert str(root) in result.output
    finally:
        os.chdir(cwd)
    assert listing(root) == before
    assert run("--root", str(root), "api", "--out", str(root / "build/api")).exit_code == 0  # the corpus is fine


def test_models_into_a_folder_with_other_files(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    root = make_corpus()
    out = tmp_path / "sdk" / "src"
    out.mkdir(parents=True)
    (out / "handwritten.py").write_text("keep = True\n")
    result = run("--root", str(root), "models", "--out", str(out))
    assert result.exit_code == 2 and str(out) in result.output
    assert listing(out) == ["handwritten.py"]
    result = run("--root", str(root), "models", "--out", str(out), "--force")
    assert result.exit_code == 0, result.output
    assert (out / "handwritten.py").read_text() == "keep = True\n"
    generated = read_manifest(out)
    assert generated and all(p.startswith("wop_models/") for p in generated)
    assert run("--root", str(root), "models", "--out", str(out)).exit_code == 0
    assert (out / "handwritten.py").read_text() == "keep = True\n"


def test_api_force_never_overwrites_an_openapi_yaml_it_did_not_write(tmp_path: Path) -> None:
    root, out = write(tmp_path / "corpus", api_files()), tmp_path / "api"
    out.mkdir()
    (out / "openapi.yaml").write_text("my own description\n")
    (out / "notes.txt").write_text("notes\n")
    result = CliRunner().invoke(cli, ["--root", str(root), "api", "--out", str(out), "--force"])
    assert result.exit_code == 2, result.output
    assert "would be overwritten by generated ones: openapi.yaml;" in result.output
    assert "Traceback" not in result.output
    assert listing(out) == ["notes.txt", "openapi.yaml"]
    assert (out / "openapi.yaml").read_text() == "my own description\n"
    (out / "openapi.yaml").rename(tmp_path / "kept.yaml")  # moved away: the run goes through
    assert run("--root", str(root), "api", "--out", str(out), "--force").exit_code == 0
    assert (out / "notes.txt").read_text() == "notes\n" and "notes.txt" not in (read_manifest(out) or set())
    assert run("--root", str(root), "api", "--out", str(out)).exit_code == 0  # its own files: replaced


def test_site_build_force_never_overwrites_a_page_it_did_not_write(
    make_corpus: Callable[..., Path], tmp_path: Path
) -> None:
    root, out = make_corpus(), tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("my hand-written page")
    (out / "notes.txt").write_text("notes")
    result = CliRunner().invoke(cli, ["--root", str(root), "site", "build", "--out", str(out), "--force"])
    assert result.exit_code == 2, result.output
    assert "1 file in it that wopgen did not write" in result.output and ": index.html;" in result.output
    assert "Traceback" not in result.output
    assert listing(out) == ["index.html", "notes.txt"]
    assert (out / "index.html").read_text() == "my hand-written page"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus", "site"]  # mkdocs' folder is gone too


def test_generators_sharing_an_out_folder_keep_each_others_files(tmp_path: Path) -> None:
    root, out = write(tmp_path / "corpus", api_files()), tmp_path / "gen"
    assert run("--root", str(root), "models", "--out", str(out)).exit_code == 0
    before = listing(out)
    result = CliRunner().invoke(cli, ["--root", str(root), "api", "--out", str(out)])
    assert result.exit_code == 2 and "holds the output of `wopgen models`" in result.output
    assert listing(out) == before
    assert run("--root", str(root), "api", "--out", str(tmp_path / "api")).exit_code == 0
    # --check says the same, instead of calling the other command's files stale and advising a
    # regeneration it would then refuse.
    checked = CliRunner().invoke(cli, ["--root", str(root), "api", "--out", str(out), "--check"])
    assert checked.exit_code == 2 and "holds the output of `wopgen models`" in checked.output
    assert "stale" not in checked.output
    assert run("--root", str(root), "models", "--out", str(out), "--check").exit_code == 0


def test_out_slash_is_refused_cleanly(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    result = run("--root", str(root), "models", "--out", "/", "--force")
    assert result.exit_code == 2 and "root of the file system" in result.output


@pytest.mark.parametrize("where", ["schemas/examples/gen", "spec/v1/gen", "spec/rfcs/0002-x"])
def test_an_output_inside_a_part_of_the_corpus_is_refused(make_corpus: Callable[..., Path], where: str) -> None:
    """Generated files there would be read back as corpus files: a models package in the examples
    folder made every later `check` report misplaced examples."""
    root = make_corpus()
    result = run("--root", str(root), "models", "--out", str(root / where), "--force")
    assert result.exit_code == 2 and "lies in a folder of the corpus" in result.output
    assert not (root / where).exists()
    assert run("--root", str(root), "check").exit_code == 0


def test_an_output_below_the_root_but_outside_its_parts_is_written(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    protected = [root, root / "schemas", root / "schemas/examples", root / "spec/v1"]
    for out in (root / "build/models", root / "spec/generated"):
        write_tree({"a.py": "1"}, out, protected=protected)
        assert read_manifest(out) == {"a.py"}
    with pytest.raises(WriteError, match=r"lies in a folder of the corpus \(.*examples\)"):
        write_tree({"a.py": "1"}, root / "schemas/examples/x", protected=protected)
    write_tree({"a.py": "1"}, root / "spec/v1/build/models", protected=protected)  # the walk never enters build/
    assert read_manifest(root / "spec/v1/build/models") == {"a.py"}


def test_a_link_on_the_way_to_an_output_that_does_not_exist_yet_is_followed(
    make_corpus: Callable[..., Path], tmp_path: Path
) -> None:
    """`--out /tmp/x/gen` with /tmp/x a link to the RFC folder is `--out spec/rfcs/gen`."""
    root = make_corpus()
    link = tmp_path / "x"
    link.symlink_to(root / "spec/rfcs")
    result = run("--root", str(root), "models", "--out", str(link / "gen"))
    assert result.exit_code == 2 and "lies in a folder of the corpus" in result.output
    assert not (root / "spec/rfcs/gen").exists()


def test_site_build_keeps_a_cname(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    root = make_corpus()
    out = tmp_path / "public"
    assert run("--root", str(root), "site", "build", "--out", str(out)).exit_code == 0
    (out / "CNAME").write_text("docs.example.org\n")
    link = tmp_path / "public-link"
    link.symlink_to(out)
    result = run("--root", str(root), "site", "build", "--out", str(link))
    assert result.exit_code == 0, result.output
    assert (out / "CNAME").read_text() == "docs.example.org\n"
    assert (out / "index.html").is_file() and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus", "public", "public-link"]


def test_check_names_a_file_it_did_not_write_where_a_generated_one_goes(tmp_path: Path) -> None:
    """`--check` predicts the write: a hand-added file at a generated path is the clash writing refuses,
    not a "changed" file that regenerating would fix."""
    root, out = write(tmp_path / "corpus", api_files()), tmp_path / "api"
    assert run("--root", str(root), "api", "--out", str(out)).exit_code == 0
    assert run("--root", str(root), "api", "--out", str(out), "--check").exit_code == 0
    generated = sorted(read_manifest(out) or set())
    added = next(p for p in generated if p != "openapi.yaml")  # one generated file, replaced by a hand-written one
    manifest = (out / MANIFEST).read_text()
    (out / MANIFEST).write_text("".join(line for line in manifest.splitlines(True) if added not in line))
    assert drift({added: (out / added).read_text()}, out).foreign == [added]  # the same content: still not ours
    (out / added).write_text("my own notes\n")
    result = CliRunner().invoke(cli, ["--root", str(root), "api", "--out", str(out), "--check"])
    assert result.exit_code == 1, result.output
    assert f"not written by wopgen (writing refuses to overwrite it): {added}" in result.output
    assert f"changed: {added}" not in result.output and "my own notes" not in result.output
    assert "would refuse to write it" in result.output
    assert CliRunner().invoke(cli, ["--root", str(root), "api", "--out", str(out)]).exit_code == 2
