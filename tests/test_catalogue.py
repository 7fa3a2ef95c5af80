"""The rule catalogue read from `data/rules.json` is the one the rule modules declare, and the
commands that only list or explain rules start without importing the checks."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from wopgen.catalogue import catalogue, listing, rule_modules
from wopgen.cli import cli
from wopgen.diagnostics import Rule, defined

REPO = Path(__file__).resolve().parents[1]
RULES_FILE = REPO / "generator" / "wopgen" / "data" / "rules.json"


def _python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_rules_file_is_what_the_rule_modules_declare() -> None:
    printed = _python("from wopgen.catalogue import declared_text; print(declared_text(), end='')")
    assert RULES_FILE.read_text(encoding="utf-8") == printed, (
        "generator/wopgen/data/rules.json is stale: run `python -m wopgen.catalogue > generator/wopgen/data/rules.json`"
    )


def _explained_from_the_modules(rule: Rule, texts: dict[str, Any]) -> Rule:
    """How the catalogue explained a rule when it was built from the imported modules."""
    entry: dict[str, str] = dict(texts["rules"].get(rule.id, {}))
    if rule.id.startswith("compat-") and rule.example and "bad" not in entry:
        entry["bad"] = rule.example
    prefix = "Conformance scenario "
    if rule.summary.startswith(prefix) and ": " in rule.summary:
        name, promise = rule.summary.removeprefix(prefix).split(" fails: ", 1)
        entry.setdefault("bad", f"a host where this does not hold: {promise}")
        entry.setdefault("good", f"a host where it holds: {promise}")
        entry.setdefault(
            "fix",
            f"run `wopgen conformance --select {name}` (add --url for your host) and change the host at the failed step",
        )
    entry.setdefault("why", texts["families"].get(rule.id.split("-", 1)[0], ""))
    return replace(
        rule, why=entry.get("why", ""), bad=entry.get("bad", ""), good=entry.get("good", ""), fix=entry.get("fix", "")
    )


def _from_the_modules() -> list[Rule]:
    rule_modules()
    texts = yaml.safe_load((REPO / "generator/wopgen/data/explain.yaml").read_text(encoding="utf-8"))
    return [_explained_from_the_modules(rule, texts) for rule in sorted(defined(), key=lambda r: r.id)]


def test_the_catalogue_is_the_one_built_from_the_modules() -> None:
    built = _from_the_modules()
    assert len(built) > 100
    assert catalogue() == built
    assert listing() == [replace(rule, why="", bad="", good="", fix="") for rule in built]


def test_rules_json_prints_the_catalogue_built_from_the_modules() -> None:
    result = CliRunner().invoke(cli, ["rules", "--format", "json"])
    assert result.exit_code == 0
    expected = [
        {"id": r.id, "severity": r.severity.value, "summary": r.summary, "example": r.example}
        for r in _from_the_modules()
    ]
    assert json.loads(result.output) == expected
    assert result.output == json.dumps(expected, indent=2) + "\n"


def test_a_conformance_rule_is_explained_from_its_scenario() -> None:
    from wopgen.conformance.scenarios import SCENARIOS

    scenario = SCENARIOS[0]
    rule = next(r for r in catalogue() if r.id == scenario.rule)
    assert rule.bad == f"a host where this does not hold: {scenario.summary}"
    assert f"--select {scenario.name}`" in rule.fix


def test_the_compat_command_offers_the_directions_compat_knows() -> None:
    from wopgen.cli import compat as compat_command
    from wopgen.compat import rules

    assert compat_command.DIRECTIONS == rules.DIRECTIONS
    assert compat_command.DIRECTIONS[-1] == rules.ARTIFACT


# --- what a command imports -----------------------------------------------------------------------

_HEAVY = ("wopgen.checks", "wopgen.corpus", "wopgen.conformance", "wopgen.compat", "wopgen.generate", "jsonschema")


def _imported_by(*args: str) -> set[str]:
    code = (
        "import json, sys\n"
        "from wopgen.cli import cli\n"
        f"try:\n    cli.main({list(args)!r}, standalone_mode=False)\n"
        "except SystemExit:\n    pass\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in _HEAVY))


def test_help_rules_and_explain_import_no_check_and_no_corpus() -> None:
    for args in (
        ["--help"],
        ["rules"],
        ["rules", "--format", "json"],
        ["explain", "schema-title"],
        ["check", "--help"],
    ):
        modules = _imported_by(*args)
        assert "wopgen.catalogue" in modules or args == ["--help"]
        assert _heavy(modules) == [], args
    assert "importlib.metadata" not in _imported_by("--help")


def test_check_still_imports_what_it_runs() -> None:
    """The probe above can see an import: `check` loads the corpus and runs the checks."""
    modules = _imported_by("--root", str(REPO), "check", "--select", "schema-title")
    assert {"wopgen.checks", "wopgen.corpus"} <= modules


def test_version_is_read_when_asked_for() -> None:
    import wopgen

    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"wopgen, version {wopgen.__version__}\n"
