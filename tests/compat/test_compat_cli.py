"""`wopgen compat` and `wopgen check --against` end to end, on git repositories made in tmp_path."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from support.corpus_factory import good_files, write
from wopgen.cli import cli


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True)
    return done.stdout


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def drop_decision(files: dict[str, Any]) -> None:
    del files["schemas/thing.schema.json"]["properties"]["decision"]
    del files["schemas/examples/thing/valid/named.json"]["decision"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository whose first commit (tag v1) is the good corpus; the work tree then drops a property."""
    root = tmp_path / "repo"
    write(root, good_files())
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "v1")
    git(root, "tag", "v1")
    files = copy.deepcopy(good_files())
    drop_decision(files)
    write(root, files)
    return root


def test_git_ref_is_read_without_touching_the_work_tree(repo: Path) -> None:
    status_before = git(repo, "status", "--porcelain")
    result = run("--root", str(repo), "compat", "--against", "v1")
    assert result.exit_code == 1, result.output
    assert "compat-property-removed" in result.output
    assert "schemas/thing.schema.json\n" in result.output
    assert git(repo, "status", "--porcelain") == status_before
    assert "decision" not in (repo / "schemas/thing.schema.json").read_text()


def test_both_sides_from_git(repo: Path) -> None:
    result = run("--root", str(repo), "compat", "--against", "v1", "--head", "main")
    assert result.exit_code == 0, result.output
    assert "no changes" in result.output


def test_folder_as_base(repo: Path, tmp_path: Path) -> None:
    old = write(tmp_path / "old", good_files())
    result = run("--root", str(repo), "compat", "--against", str(old), "--format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert doc["version"] == 1 and doc["summary"]["error"] == 1
    (change,) = doc["changes"]
    assert change["rule"] == "compat-property-removed"
    assert change["base"]["pointer"] == "/properties/decision" and change["base"]["line"] > 1
    assert change["head"]["pointer"] == "/properties"
    keys = {"rule", "severity", "path", "message", "hint", "direction", "events", "rfc", "accepted", "base", "head"}
    assert set(change) == keys


def test_bad_ref_is_a_usage_error(repo: Path) -> None:
    result = run("--root", str(repo), "compat", "--against", "no-such-ref")
    assert result.exit_code == 2
    assert "neither a folder nor a git ref" in result.output


def test_outside_git_is_a_usage_error(tmp_path: Path) -> None:
    root = write(tmp_path / "plain", good_files())
    result = run("--root", str(root), "compat", "--against", "main")
    assert result.exit_code == 2
    assert "not inside a git repository" in result.output


def test_corpus_in_a_subfolder_of_the_repository(tmp_path: Path) -> None:
    repo = tmp_path / "mono"
    write(repo / "spec-corpus", good_files())
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "v1")
    files = copy.deepcopy(good_files())
    drop_decision(files)
    write(repo / "spec-corpus", files)
    result = run("--root", str(repo / "spec-corpus"), "compat", "--against", "HEAD")
    assert result.exit_code == 1
    assert "compat-property-removed" in result.output


def test_markdown_and_fail_on_warning(repo: Path) -> None:
    files = copy.deepcopy(good_files())
    files["schemas/thing.schema.json"]["$defs"]["name"]["pattern"] = "^[a-z]+$"
    write(repo, files)
    result = run("--root", str(repo), "compat", "--against", "v1", "--format", "markdown")
    assert result.exit_code == 0
    assert result.output.startswith("## Compatibility: `v1` → `work tree`")
    assert "### To review" in result.output and "`compat-pattern-changed`" in result.output
    assert run("--root", str(repo), "compat", "--against", "v1", "--fail-on", "warning").exit_code == 1


def test_markdown_changelog_draft(repo: Path) -> None:
    files = copy.deepcopy(good_files())
    files["schemas/thing.schema.json"]["properties"]["note"] = {"type": "string"}
    write(repo, files)
    result = run("--root", str(repo), "compat", "--against", "v1", "--format", "markdown")
    assert result.exit_code == 0
    assert "**Additive.**" in result.output
    assert "### Changelog draft" in result.output
    assert "- **`schemas/thing.schema.json`.** property 'note' added." in result.output


def test_check_against(repo: Path) -> None:
    result = run("--root", str(repo), "check", "--against", "v1")
    assert result.exit_code == 1
    assert "[compat-property-removed]" in result.output
    assert run("--root", str(repo), "check", "--against", "v1", "--ignore", "compat-").exit_code == 0
    assert run("--root", str(repo), "check", "--against", "nope").exit_code == 2


def set_baseline(repo: Path, baseline: str) -> None:
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("[tool.wopgen]\n", f'[tool.wopgen]\nbaseline = "{baseline}"\n'))


def test_check_uses_the_configured_baseline(repo: Path) -> None:
    set_baseline(repo, "v1")
    result = run("--root", str(repo), "check")
    assert result.exit_code == 1
    assert "[compat-property-removed]" in result.output


def test_check_says_when_the_baseline_is_missing(repo: Path) -> None:
    set_baseline(repo, "v9")
    result = run("--root", str(repo), "check")
    assert result.exit_code == 0, result.output
    assert "[compat-baseline-unavailable]" in result.output
    assert "pyproject.toml\n  6:1  info" in result.output
    assert "compat skipped" in result.stderr


def test_rules_lists_every_compat_rule_with_an_example() -> None:
    result = run("rules", "--format", "json")
    compat = [r for r in json.loads(result.output) if r["id"].startswith("compat-")]
    assert len(compat) >= 40
    assert all(r["example"] for r in compat)


def test_readme_documents_every_compat_rule() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    rules = [r for r in json.loads(run("rules", "--format", "json").output) if r["id"].startswith("compat-")]
    missing = [r["id"] for r in rules if f"`{r['id']}`" not in readme]
    assert not missing


def test_unreadable_head_schema_is_named_not_a_traceback(repo: Path) -> None:
    (repo / "schemas/decision.schema.json").write_text('{"type": "string",\n  "enum": [}\n')
    result = run("--root", str(repo), "compat", "--against", "v1")
    assert result.exit_code == 1
    assert "schema schemas/decision.schema.json cannot be read in the head: invalid JSON" in result.output
    assert "schema-invalid-json" in result.output


def test_help_teaches() -> None:
    result = run("compat", "--help")
    assert result.exit_code == 0
    assert "wopgen compat --against main" in result.output and "--fail-on" in result.output


@pytest.mark.parametrize("side", ["--against", "--head"])
def test_a_folder_that_holds_no_corpus_is_a_usage_error(repo: Path, tmp_path: Path, side: str) -> None:
    empty = tmp_path / "not-a-corpus"
    (empty / "notes").mkdir(parents=True)
    args = ["--against", str(empty)] if side == "--against" else ["--against", "v1", "--head", str(empty)]
    result = run("--root", str(repo), "compat", *args)
    assert result.exit_code == 2, result.output
    assert f"{str(empty)!r} holds no corpus" in result.output and "[tool.wopgen]" in result.output
    assert "additive" not in result.output


def test_a_ref_whose_tree_holds_no_corpus_is_a_usage_error(repo: Path) -> None:
    git(repo, "checkout", "-q", "--orphan", "bare")
    git(repo, "rm", "-rfq", "--cached", ".")
    (repo / "NOTES.md").write_text("nothing here yet\n")
    git(repo, "add", "NOTES.md")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "bare")
    result = run("--root", str(repo), "compat", "--against", "bare")
    assert result.exit_code == 2, result.output
    assert "'bare' holds no corpus" in result.output


def test_a_folder_with_only_the_schemas_folder_is_read_with_the_head_settings(repo: Path, tmp_path: Path) -> None:
    old = write(tmp_path / "old", good_files())
    (old / "pyproject.toml").unlink()
    result = run("--root", str(repo), "compat", "--against", str(old))
    assert result.exit_code == 1, result.output
    assert "compat-property-removed" in result.output


def test_the_baseline_finding_points_at_the_key_in_the_wopgen_table(repo: Path) -> None:
    pyproject = repo / "pyproject.toml"
    decoy = '[tool.other]\nbaseline = "elsewhere"\n\n'
    pyproject.write_text(decoy + pyproject.read_text().replace("[tool.wopgen]\n", '[tool.wopgen]\nbaseline = "v9"\n'))
    line = pyproject.read_text().splitlines().index('baseline = "v9"') + 1
    assert line > 2  # the decoy key under [tool.other] comes first
    result = run("--root", str(repo), "check")
    assert result.exit_code == 0, result.output
    assert f"pyproject.toml\n  {line}:1  info" in result.output
