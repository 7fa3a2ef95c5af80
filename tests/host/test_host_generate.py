"""`wopgen host generate`: a deterministic package from the corpus, and diagnostics when it cannot be made."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from host.host_helpers import REPO
from wopgen.checks import run_all
from wopgen.cli import cli
from wopgen.corpus import load
from wopgen.corpus.api import read_api
from wopgen.generate.host import HostGenerationError, generate
from wopgen.generate.host_profiles import DEFECTS, HONEST, MUTANTS


def _rules(root: Path) -> list[tuple[str, str, int]]:
    with pytest.raises(HostGenerationError) as caught:
        generate(load(root))
    return [(d.rule, d.path, d.line) for d in caught.value.diagnostics]


def test_output_is_byte_identical_run_to_run(repo_corpus):
    first, second = generate(repo_corpus), generate(load(repo_corpus.root))
    assert first == second
    assert "wop_host/corpus.json" in first and "wop_host/routes.py" in first


def test_routes_come_from_the_api_description(repo_corpus):
    routes = generate(repo_corpus)["wop_host/routes.py"]
    operations = repo_corpus.api["spec/api/operations.yaml"].data["operations"]
    for op in operations:
        assert f'"{op["method"].upper()}", "{op["path"]}", "{op["operationId"]}"' in routes
    assert routes.count("    Route(") == len(operations)  # one per operation, none hand-listed


def test_corpus_data_is_injected(repo_corpus):
    files = generate(repo_corpus)
    data = json.loads(files["wop_host/corpus.json"])
    index = repo_corpus.schemas_by_name["run-event-payloads"].data["$defs"]["_typeIndex"]["properties"]
    assert set(data["payloadDefs"]) == set(index)
    assert all(f'"{t}",' in files["wop_host/events.py"] for t in index)
    statuses = repo_corpus.schemas_by_name["error-envelope"].data["x-wop-http-status"]
    assert all(f'"{code}": {status},' in files["wop_host/errors.py"] for code, status in statuses.items())
    assert set(data["profiles"]) == {p.name for p in HONEST + MUTANTS}


def test_every_mutant_breaks_exactly_one_promise_of_the_full_profile(repo_corpus):
    profiles = json.loads(generate(repo_corpus)["wop_host/corpus.json"])["profiles"]
    for name, defect in ((f"mutant-{d}", d) for d in DEFECTS):
        assert profiles[name]["defects"] == [defect]
        assert profiles[name]["capabilities"] == profiles["full"]["capabilities"]  # it advertises the same
    assert all(not profiles[p.name]["defects"] for p in HONEST)


def test_cli_writes_an_importable_package_and_checks_drift(tmp_path, repo_corpus):
    runner = CliRunner()
    out = tmp_path / "host"
    root = ["--root", str(repo_corpus.root)]
    result = runner.invoke(cli, [*root, "host", "generate", "--out", str(out)])
    assert result.exit_code == 0, result.output
    probe = "import wop_host; print(wop_host.Host('full').handle('GET', '/.well-known/openwop', {}).status)"
    imported = subprocess.run([sys.executable, "-c", probe], cwd=out, capture_output=True, text=True, check=False)
    assert imported.stdout.strip() == "200", imported.stderr
    assert runner.invoke(cli, [*root, "host", "generate", "--out", str(out), "--check"]).exit_code == 0
    (out / "wop_host" / "loop.py").write_text("# edited by hand\n")
    stale = runner.invoke(cli, [*root, "host", "generate", "--out", str(out), "--check"])
    assert stale.exit_code == 1 and "changed: wop_host/loop.py" in stale.output


def test_an_operation_without_a_handler_is_reported_at_its_line(corpus_copy):
    root = corpus_copy()
    api = root / "spec/api/operations.yaml"
    api.write_text(
        api.read_text()
        + "\n  - operationId: pauseRun\n    method: post\n    path: /v1/runs/{runId}:pause\n    auth: bearer\n"
    )
    line = api.read_text().splitlines().index("  - operationId: pauseRun") + 1
    assert ("host-operation-unhandled", "spec/api/operations.yaml", line) in _rules(root)


def test_an_operation_without_a_method_is_reported_once_by_the_api_reader(corpus_copy):
    root = corpus_copy()
    api = root / "spec/api/operations.yaml"
    api.write_text(api.read_text() + "\n  - operationId: broken\n    path: /v1/broken\n")
    line = api.read_text().splitlines().index("  - operationId: broken") + 1
    assert ("api-shape", "spec/api/operations.yaml", line) in _rules(root)
    assert {r[0] for r in _rules(root)} == {"api-shape"}
    found = run_all(load(root))
    shape = sorted((d.line, d.message) for d in read_api(load(root)).diagnostics)
    assert sorted((d.line, d.message) for d in found if d.rule == "api-shape") == shape  # each once
    assert not [d for d in found if d.rule.startswith("host-")]


def test_the_host_reads_the_strict_dialect_only(corpus_copy):
    root = corpus_copy()
    api = root / "spec/api/operations.yaml"
    text = api.read_text().replace("auth: public", "auth: none", 1)
    api.write_text(text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.strip() == "auth: none")
    assert ("api-shape", "spec/api/operations.yaml", line) in _rules(root)


def test_a_corpus_without_operations_has_no_host(corpus_copy):
    root = corpus_copy()
    (root / "spec/api/operations.yaml").write_text("operations: []\n")
    assert _rules(root) == [("host-api-missing", "spec/api", 1)]


def test_an_envelope_without_statuses_is_reported(corpus_copy):
    root = corpus_copy()
    path = root / "schemas/error-envelope.schema.json"
    data = json.loads(path.read_text())
    del data["x-wop-http-status"]
    path.write_text(json.dumps(data))
    assert _rules(root) == [("host-schema-missing", "schemas/error-envelope.schema.json", 1)]


def test_a_profile_the_capabilities_schema_rejects_is_reported(corpus_copy):
    root = corpus_copy()
    path = root / "schemas/capabilities.schema.json"
    data = json.loads(path.read_text())
    data["$defs"]["executionModel"]["properties"]["version"]["maximum"] = 5
    path.write_text(json.dumps(data))
    found = _rules(root)
    assert found and {r[0] for r in found} == {"host-profile-invalid"}


def test_the_generated_package_is_lint_and_type_clean(tmp_path, repo_corpus):
    from wopgen.generate.writer import write_tree

    write_tree(generate(repo_corpus), tmp_path / "host")
    for command in (
        ["ruff", "check", "--no-cache", "--select", "E,F,W,I,B,UP,SIM,RUF", "--ignore", "E501", "host"],
        ["mypy", "--strict", "--no-incremental", "host/wop_host"],
    ):
        result = subprocess.run(
            [sys.executable, "-m", *command], cwd=tmp_path, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_cli_exits_1_with_the_findings_when_no_host_can_be_made(corpus_copy, tmp_path):
    root = corpus_copy()
    api = root / "spec/api/operations.yaml"
    api.write_text(
        api.read_text() + "\n  - operationId: cancelRun\n    method: post\n    path: /v1/runs/{runId}:cancel\n"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["--root", str(root), "host", "generate", "--out", str(out)])
    assert result.exit_code == 1 and "host-operation-unhandled" in result.output
    assert not out.exists()


def test_a_host_that_fails_to_import_is_a_finding_not_a_crash(monkeypatch):
    from pathlib import Path

    from wopgen.checks import conformance as check_module
    from wopgen.corpus import load

    def broken(corpus):
        raise AttributeError("'function' object has no attribute '__mro__'")

    monkeypatch.setattr(check_module, "host_module", broken)
    found = list(check_module.check(load(Path(__file__).resolve().parents[2])))
    assert [d.rule for d in found] == ["host-import-failed"]
    assert "__mro__" in found[0].message


def test_output_does_not_depend_on_the_folder_name(tmp_path):
    roots = []
    for name in ("checkout-one", "another-clone"):
        root = tmp_path / name
        for part in ("schemas", "spec"):
            shutil.copytree(REPO / part, root / part)
        for file in ("pyproject.toml", "CHANGELOG.md"):
            shutil.copy(REPO / file, root / file)
        roots.append(root)
    first, second = (generate(load(root)) for root in roots)
    assert first == second
    assert "checkout-one" not in first["wop_host/__init__.py"]
    assert "https://openwop.dev/spec/v1/" in first["wop_host/__init__.py"]
