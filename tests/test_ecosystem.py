"""The habits of the tools spec stewards already use: pre-commit, a CI action, annotations that land,
`wopgen explain`, rule settings in pyproject.toml, NO_COLOR/--color, global options after the
command, shell completion, plurals, and test-only profiles kept out of sight."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from wopgen.catalogue import catalogue
from wopgen.cli import cli

REPO = Path(__file__).resolve().parents[1]
ESC = "\x1b["


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, env=env)


def _untitled(files: dict[str, Any]) -> None:
    del files["schemas/thing.schema.json"]["title"]


def _with_rules(table: str) -> Callable[[dict[str, Any]], None]:
    def edit(files: dict[str, Any]) -> None:
        _untitled(files)
        files["pyproject.toml"] += "\n[tool.wopgen.rules]\n" + table

    return edit


# --- pre-commit and the GitHub action -------------------------------------------------------------


def test_pre_commit_hooks_run_wopgen_on_the_whole_corpus(make_corpus: Callable[..., Path]) -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert set(hooks) == {"wopgen-check", "wopgen-compat"}
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["pass_filenames"] is False
        assert hook["entry"].startswith("wopgen ")
    assert hooks["wopgen-compat"]["args"][0] == "--against"
    # The check hook's command line, as pre-commit runs it in the corpus: clean passes, a finding fails.
    command = hooks["wopgen-check"]["entry"].split()[1:] + hooks["wopgen-check"].get("args", [])
    assert run("--root", str(make_corpus()), *command).exit_code == 0
    assert run("--root", str(make_corpus(_untitled)), *command).exit_code == 1


def test_the_action_annotates_uploads_sarif_and_is_documented() -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    scripts = "\n".join(step.get("run", "") for step in action["runs"]["steps"])
    assert "wopgen check --format github" in scripts and "wopgen check --format sarif" in scripts
    uses = [step.get("uses", "") for step in action["runs"]["steps"]]
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses)
    assert {"root", "args"} <= set(action["inputs"])
    assert "action.yml" in (REPO / "README.md").read_text(encoding="utf-8")


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True)


def test_annotations_name_paths_from_the_repository_root(tmp_path: Path, make_corpus: Callable[..., Path]) -> None:
    corpus = make_corpus(_untitled)
    repository = tmp_path / "repository"
    (repository / "specs").mkdir(parents=True)
    corpus.rename(repository / "specs" / "wop")
    _git(repository, "init", "-q")
    root = str(repository / "specs" / "wop")
    github = run("--root", root, "check", "--format", "github")
    assert github.exit_code == 1
    assert "file=specs/wop/schemas/thing.schema.json" in github.output
    sarif = json.loads(run("--root", root, "check", "--format", "sarif").output)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]]
    assert uris == ["specs/wop/schemas/thing.schema.json"]
    # Text and JSON keep the corpus-relative path people read.
    assert json.loads(run("--root", root, "check", "--format", "json").output)["diagnostics"][0]["path"] == (
        "schemas/thing.schema.json"
    )


def test_annotations_outside_git_keep_corpus_paths(make_corpus: Callable[..., Path]) -> None:
    github = run("--root", str(make_corpus(_untitled)), "check", "--format", "github")
    assert "file=schemas/thing.schema.json," in github.output


# --- wopgen explain -----------------------------------------------------------------------------


def test_every_rule_is_explained_and_every_explanation_is_a_rule() -> None:
    rules = catalogue()
    for rule in rules:
        assert all((rule.why, rule.bad, rule.good, rule.fix)), rule.id
    data = yaml.safe_load((REPO / "generator/wopgen/data/explain.yaml").read_text(encoding="utf-8"))
    ids = {r.id for r in rules}
    assert set(data["rules"]) <= ids, sorted(set(data["rules"]) - ids)
    assert {r.id.split("-", 1)[0] for r in rules} <= set(data["families"])


def test_explain_prints_meaning_why_examples_and_fix() -> None:
    result = run("explain", "schema-title")
    assert result.exit_code == 0
    for section in ("schema-title  (error)", "Why it matters", "Fails", "Passes", "How to fix"):
        assert section in result.output
    assert '{"type": "object"}' in result.output


def test_explain_refuses_an_unknown_rule_with_suggestions() -> None:
    result = run("explain", "schema-titel")
    assert result.exit_code == 2 and "schema-title" in result.output


# --- [tool.wopgen.rules] ------------------------------------------------------------------------


def test_rule_settings_ignore_select_and_severity(make_corpus: Callable[..., Path]) -> None:
    root = str(make_corpus(_with_rules('ignore = ["schema-title"]\n')))
    assert run("--root", root, "check").exit_code == 0
    root = str(make_corpus(_with_rules('select = ["rfc-"]\n')))
    assert run("--root", root, "check").exit_code == 0
    assert run("--root", root, "check", "--select", "schema-").exit_code == 1  # the command line wins
    root = str(make_corpus(_with_rules('severity = { "schema-title" = "warning" }\n')))
    result = run("--root", root, "check", "--format", "json")
    assert result.exit_code == 0
    (finding,) = json.loads(result.output)["diagnostics"]
    assert (finding["rule"], finding["severity"]) == ("schema-title", "warning")
    assert run("--root", root, "check", "--fail-on", "warning").exit_code == 1


def test_per_path_ignores_match_globs_against_corpus_paths(make_corpus: Callable[..., Path]) -> None:
    root = str(make_corpus(_with_rules('per-path-ignores = { "schemas/thing.*" = ["schema-title"] }\n')))
    assert run("--root", root, "check").exit_code == 0
    root = str(make_corpus(_with_rules('per-path-ignores = { "schemas/other.*" = ["schema-title"] }\n')))
    assert run("--root", root, "check").exit_code == 1
    root = str(make_corpus(_with_rules('per-path-ignores = { "schemas/*" = ["rfc-"] }\n')))
    assert run("--root", root, "check").exit_code == 1


@pytest.mark.parametrize(
    "table",
    [
        'ignore = ["schema-titel"]\n',
        'severity = { "schema-title" = "fatal" }\n',
        'per-path-ignores = { "schemas/*" = "schema-title" }\n',
        "colour = true\n",
    ],
)
def test_bad_rule_settings_are_usage_errors(make_corpus: Callable[..., Path], table: str) -> None:
    result = run("--root", str(make_corpus(_with_rules(table))), "check")
    assert result.exit_code == 2, result.output
    assert "tool.wopgen" in result.output


# --- colour, global options, completion, plurals ------------------------------------------------


def test_color_always_never_and_no_color(make_corpus: Callable[..., Path]) -> None:
    root = str(make_corpus(_untitled))
    assert ESC in run("--root", root, "--color", "always", "check").output
    assert ESC in run("--root", root, "check", "--color", "always", env={"NO_COLOR": "1"}).output
    assert ESC not in run("--root", root, "--color", "never", "check").output
    assert ESC not in run("--root", root, "check", env={"NO_COLOR": "1"}).output
    assert ESC in run("explain", "schema-title", "--color", "always").output
    assert ESC not in run("explain", "schema-title", "--color", "never").output


def test_global_options_are_accepted_after_the_command(make_corpus: Callable[..., Path]) -> None:
    good = str(make_corpus())
    assert run("check", "--root", good).exit_code == 0
    assert run("rfc", "list", "--root", good).exit_code == 0
    assert run("check", "--color", "never", "--format", "json", "--root", good).exit_code == 0
    bad = str(make_corpus(_untitled))  # the same folder, now with a finding
    assert run("check", "--root", bad).exit_code == 1
    assert run("check", f"--root={bad}", "--format", "json").exit_code == 1
    assert "--root" not in {p.opts[0] for c in cli.commands.values() for p in c.params if p.opts}


def test_shell_completion_is_documented_and_works(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "_WOPGEN_COMPLETE=bash_source wopgen" in (REPO / "README.md").read_text(encoding="utf-8")
    monkeypatch.setenv("_WOPGEN_COMPLETE", "bash_source")
    with pytest.raises(SystemExit):
        cli.main([], prog_name="wopgen")
    assert "_wopgen_completion" in capsys.readouterr().out


def test_the_summary_uses_the_singular_for_one(make_corpus: Callable[..., Path]) -> None:
    output = run("--root", str(make_corpus(_untitled)), "check").output
    summary = output.rstrip().splitlines()[-1]
    assert summary.startswith("1 error, 0 warnings, 0 infos (checked ")
    assert "1 RFC, 1 page" in summary  # what was checked takes the singular too


# --- test-only host profiles ----------------------------------------------------------------------


def test_mutant_profiles_stay_out_of_help_and_errors_unless_asked() -> None:
    for command in (["host", "serve"], ["conformance"]):
        text = run(*command, "--help").output
        assert "mutant-" not in text and "v4-only" in text
    refused = run("--root", str(REPO), "conformance", "--profile", "nope")
    assert refused.exit_code == 2
    assert "mutant-gating" not in refused.output and "full" in refused.output
    assert "mutant-" not in run("host", "profiles").output
    assert "mutant-gating-ignored" in run("host", "profiles", "--mutants").output
