"""`wopgen check --select/--ignore` skips the checks whose rules the selection excludes, instead of
running every check (the API rendering, the conformance run) and filtering afterwards."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import wopgen.checks
from wopgen.catalogue import Rule, catalogue
from wopgen.checks import CHECKS, run_all, wanted
from wopgen.cli import cli
from wopgen.corpus import Corpus, load
from wopgen.diagnostics import Diagnostic

# Each spy reports under a real rule of its family (defining test-only rules would leak into the
# catalogue that `wopgen rules` and the site print).
SPY: Rule = next(r for r in catalogue() if r.id == "schema-defs-unused")
API_SPY: Rule = next(r for r in catalogue() if r.id.startswith("api-") and r.severity.value == "error")


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace CHECKS by spies for two families and record which of them the CLI runs."""
    calls: list[str] = []

    def spy(name: str, rule_id: str) -> Callable[[Corpus], Iterator[Diagnostic]]:
        def check(corpus: Corpus) -> Iterator[Diagnostic]:
            calls.append(name)
            yield (SPY if rule_id == SPY.id else API_SPY).at("pyproject.toml", 1, f"{name} ran")

        return check

    monkeypatch.setattr(
        wopgen.checks, "CHECKS", ((("schema-",), spy("schemas", SPY.id)), (("api-",), spy("api", API_SPY.id)))
    )
    return calls


def _check(root: Path, *args: str):
    return CliRunner().invoke(cli, ["--root", str(root), "check", "--format", "json", *args], catch_exceptions=False)


@pytest.mark.parametrize(
    ("args", "expected", "reported"),
    [
        ((), ["schemas", "api"], ["schemas", "api"]),
        (("--select", "schema-"), ["schemas"], ["schemas"]),
        (("--select", "schema"), ["schemas"], ["schemas"]),
        (("--select", SPY.id), ["schemas"], ["schemas"]),
        (("--select", "rfc-"), [], []),
        (("--ignore", "api-"), ["schemas"], ["schemas"]),
        # the other api- rules are still selected, so the api check runs; its spy finding is filtered
        (("--ignore", f"{API_SPY.id},schema-"), ["api"], []),
        (("--select", "api-,schema-", "--ignore", "schema-"), ["api"], ["api"]),
    ],
)
def test_only_the_checks_the_selection_needs_run(make_corpus, ran, args, expected, reported):
    result = _check(make_corpus(), *args)
    assert result.exit_code == (1 if "api" in reported else 0), result.output  # the api spy's rule is an error
    assert ran == expected
    assert sorted(d["message"] for d in json.loads(result.output)["diagnostics"]) == sorted(
        f"{n} ran" for n in reported
    )


def test_a_family_is_wanted_while_any_of_its_rules_is_selected():
    assert wanted(("schema-",)) and wanted(("schema-",), (), ("schema-defs-unused",))
    assert not wanted(("schema-",), ("rfc-",), ())
    assert not wanted(("conformance-", "host-"), ("schema-",), ())
    assert wanted(("conformance-", "host-"), ("host-import-failed",), ())
    assert not wanted(("schema-",), (), ("schema",))
    assert wanted(("rfc-",), ("rfc-comment",), ())  # a prefix inside the family reaches into it
    assert not wanted(("rfc-",), ("rfcs-",), ()) and not wanted(("doc-",), ("do",), ())


def test_every_rule_of_check_belongs_to_one_declared_family():
    """The families cover every rule a check can report (corpus- come from the loader, compat- from
    the comparison, models- from `wopgen models` alone), and no two checks claim the same rule, so
    skipping a check never loses one."""
    families = [f for f, _ in CHECKS]
    for rule in catalogue():
        if rule.id.startswith(("corpus-", "compat-", "models-")):
            continue
        owners = [f for f in families if rule.id.startswith(f)]
        assert len(owners) == 1, (rule.id, owners)


def test_run_all_without_a_selection_runs_every_check(make_corpus):
    corpus = load(make_corpus())
    assert list(run_all(corpus)) == list(run_all(corpus, include=(), exclude=()))
    seen: list[str] = []
    checks = [((f"fam{i}-",), lambda c, i=i: seen.append(str(i)) or []) for i in range(3)]
    assert list(run_all(corpus, checks)) == list(corpus.load_diagnostics)
    assert seen == ["0", "1", "2"]


def test_select_schema_does_not_render_the_api_of_a_corpus_with_a_ref_cycle(tmp_path: Path):
    """The review's repro: a pure $ref cycle is a schema finding; `--select schema-` reports it without
    handing the cyclic schema to the OpenAPI rendering of the api check."""
    repo = Path(__file__).resolve().parents[2]
    root = tmp_path / "corpus"
    for part in ("schemas", "spec"):
        shutil.copytree(repo / part, root / part)
    for name in ("pyproject.toml", "CHANGELOG.md"):
        shutil.copy(repo / name, root / name)
    path = root / "schemas/verification-finding.schema.json"
    data = json.loads(path.read_text())
    data.setdefault("$defs", {}).update({"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}})
    data["properties"]["zz"] = {"$ref": "#/$defs/a"}
    path.write_text(json.dumps(data, indent=2))
    result = CliRunner().invoke(cli, ["--root", str(root), "check", "--select", "schema-"], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert "[schema-ref-cycle]" in result.output
    assert "api-" not in result.output and "conformance-" not in result.output
