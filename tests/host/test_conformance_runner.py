"""The conformance runner: honest profiles pass, every mutant is killed, reports and the CLI."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from host.host_helpers import KEY, Rewritten
from wopgen.checks import conformance as conformance_check
from wopgen.checks import invariants as invariants_check
from wopgen.cli import cli
from wopgen.conformance.inprocess import SECOND_KEY, in_process
from wopgen.conformance.report import as_json, junit, text
from wopgen.conformance.runner import Result, run, summary
from wopgen.conformance.scenarios import SCENARIOS
from wopgen.conformance.transport import Http, Reply
from wopgen.corpus import load
from wopgen.generate.host_profiles import DEFECTS, HONEST

ALWAYS_ON = {s.name for s in SCENARIOS if s.kind in ("corpus", "core")}
HOST_SCENARIOS = [s for s in SCENARIOS if s.kind != "corpus"]


def test_the_full_profile_passes_every_scenario_even_in_strict_mode(module, repo_corpus):
    results = run(SCENARIOS, in_process(module, "full"), repo_corpus, strict=True)
    # Only a scenario about refusing what a host does not offer skips: the full profile offers it.
    assert [(r.scenario.name, r.status) for r in results if r.status != "passed"] == [
        (s.name, "skipped") for s in SCENARIOS if s.unoffered
    ]


@pytest.mark.parametrize("profile", [p.name for p in HONEST])
def test_honest_profiles_never_fail_and_skip_only_what_they_do_not_advertise(module, repo_corpus, profile):
    results = run(SCENARIOS, in_process(module, profile), repo_corpus)
    assert [r.message for r in results if r.status == "failed"] == []
    offered = [r for r in results if r.status == "skipped" and r.scenario.unoffered]
    assert all("is advertised" in r.message for r in offered)  # nothing to refuse: it offers the feature
    skipped = [r for r in results if r.status == "skipped" and not r.scenario.unoffered]
    assert all(r.scenario.name not in ALWAYS_ON for r in skipped)  # corpus and core scenarios always run
    assert all("not advertised" in r.message or "does not list" in r.message for r in skipped)
    strict = run(SCENARIOS, in_process(module, profile), repo_corpus, strict=True)
    assert summary(strict)["failed"] == len(skipped) and summary(strict)["skipped"] == len(offered)


def test_opting_out_keeps_a_skip_a_skip_in_strict_mode(module, repo_corpus):
    evals = frozenset(s.name for s in HOST_SCENARIOS if s.name.startswith("agent-eval-") and not s.unoffered)
    results = run(SCENARIOS, in_process(module, "no-eval"), repo_corpus, strict=True, opted_out=evals)
    corpus = len(SCENARIOS) - len(HOST_SCENARIOS)
    assert summary(results) == {
        "passed": len(HOST_SCENARIOS) - len(evals),
        "failed": 0,
        "skipped": len(evals),
        "corpus-passed": corpus,
        "corpus-failed": 0,
    }


def test_every_mutant_is_killed_by_at_least_one_scenario(module, repo_corpus, capsys):
    kills: dict[str, list[str]] = {}
    for defect in DEFECTS:
        results = run(SCENARIOS, in_process(module, f"mutant-{defect}"), repo_corpus)
        kills[defect] = [r.scenario.name for r in results if r.status == "failed"]
    survivors = [d for d, killers in kills.items() if not killers]
    with capsys.disabled():
        print(f"\nmutant kill ratio: {len(kills) - len(survivors)}/{len(kills)}")
    assert survivors == []
    assert kills["gating-ignored"] == ["verifier-gating"]
    assert kills["iteration-reset-on-resume"] == ["agent-loop-stateful-resume"]
    assert "verifier-no-content-leak" in kills["verified-leaks-content"]
    assert "agent-eval-run" in kills["eval-events-out-of-order"]
    assert kills["loop-bound-ignored"] == ["run-execution-bounds-shape"]
    assert kills["workspace-visible-same-turn"] == ["agent-loop-workspace-snapshot"]
    assert "agent-eval-run" in kills["eval-advertised-not-implemented"]
    assert kills["live-shadow-invokes-agent"] == ["agent-eval-live-shadow"]
    assert kills["verification-self-evaluation-allowed"] == ["verification-self-evaluation-rejected"]
    assert "verification-self-evaluation-rejected" in kills["verification-self-handoff-allowed"]
    assert kills["verification-definitions-unchecked"] == ["verification-definitions-rejected"]
    assert kills["verification-quorum-ignores-min-agree"] == ["verification-quorum"]
    assert "verification-reverify" in kills["verification-reverify-beyond-max"]
    assert kills["verification-on-fail-ignored"] == ["verification-on-fail"]
    assert kills["verification-findings-leak"] == ["verification-findings-no-content-leak"]
    assert "verification-verdicts" in kills["verification-blocking-finding-passed"]
    assert kills["verification-cost-not-counted"] == ["verification-cost-ceiling"]
    assert "verification-verdicts" in kills["verification-refer-never-emitted"]
    assert kills["verification-targeted-ignored"] == ["verification-reverify"]
    assert kills["verification-stale-context"] == ["verification-reverify"]
    gated = [s.name for s in SCENARIOS if s.rfc == "0901" and s.kind == "behaviour"]
    assert kills["verification-gates-advertised-not-implemented"] == gated
    assert kills["cancel-ignored"] == ["core-run-cancel"]
    assert kills["cancel-event-unknown"] == ["core-run-cancel"]
    assert "core-run-surface" in kills["create-answer-drops-events-url"]


def test_the_same_scenarios_run_over_http(served, repo_corpus):
    results = run(SCENARIOS, Http(served("full"), KEY, second_key=SECOND_KEY), repo_corpus, strict=True)
    assert [(r.scenario.name, r.status) for r in results if r.status != "passed"] == [
        (s.name, "skipped") for s in SCENARIOS if s.unoffered
    ]
    killed = run(SCENARIOS, Http(served("mutant-gating-ignored"), KEY), repo_corpus)
    assert [r.scenario.name for r in killed if r.status == "failed"] == ["verifier-gating"]


def test_reports(module, repo_corpus):
    results = run(SCENARIOS, in_process(module, "v4-only"), repo_corpus)
    document = json.loads(as_json(results, "target", strict=False))
    assert document["summary"] == summary(results)
    assert sum(document["summary"].values()) == len(document["scenarios"]) == len(SCENARIOS)
    assert {s["status"] for s in document["scenarios"]} == {"passed", "skipped"}
    assert all(s["rule"] == f"conformance-{s['name']}" for s in document["scenarios"])
    suite = ET.fromstring(junit(results, "target"))
    assert suite.get("tests") == str(len(SCENARIOS))
    assert suite.get("skipped") == str(document["summary"]["skipped"])
    assert len(suite.findall("testcase/skipped")) == document["summary"]["skipped"]
    assert "SKIP  agent-eval-run" in text(results, "target")


def test_cli_exit_codes_and_report_files(tmp_path, repo_corpus):
    runner = CliRunner()
    root = ["--root", str(repo_corpus.root)]
    clean = runner.invoke(cli, [*root, "conformance", "--report", str(tmp_path / "r.json")])
    assert clean.exit_code == 0, clean.output
    assert json.loads((tmp_path / "r.json").read_text())["summary"]["failed"] == 0
    killed = runner.invoke(
        cli, [*root, "conformance", "--profile", "mutant-gating-ignored", "--report", str(tmp_path / "r.xml")]
    )
    assert killed.exit_code == 1 and "FAIL  verifier-gating" in killed.output
    assert ET.parse(tmp_path / "r.xml").getroot().get("failures") == "1"
    strict = runner.invoke(cli, [*root, "conformance", "--profile", "core", "--strict", "--select", "agent-eval-run"])
    assert strict.exit_code == 1 and "strict mode" in strict.output
    for bad in (["--report", "r.txt"], ["--profile", "nope"], ["--select", "no-such-scenario"], ["--url", "ftp://x"]):
        assert runner.invoke(cli, [*root, "conformance", *bad]).exit_code == 2, bad
    unreachable = runner.invoke(cli, [*root, "conformance", "--url", "http://127.0.0.1:9", "--api-key", "k"])
    assert unreachable.exit_code == 2 and "cannot reach" in unreachable.output


def test_the_check_is_clean_on_the_repository(repo_corpus):
    assert list(conformance_check.check(repo_corpus)) == []


def test_the_check_reports_a_failing_scenario_where_the_spec_names_it(corpus_copy):
    root = corpus_copy()
    path = root / "schemas/error-envelope.schema.json"
    data = json.loads(path.read_text())
    del data["x-wop-http-status"]["unauthenticated"]  # the host can no longer refuse a missing key
    path.write_text(json.dumps(data))
    found = list(conformance_check.check(load(root)))
    assert "conformance-core-run-surface" in {d.rule for d in found}
    where = next(d for d in found if d.rule == "conformance-core-run-surface")
    line = (root / where.path).read_text().splitlines()[where.line - 1]
    assert "`core-run-surface`" in line
    assert "the host reported ValueError" in where.message and "unauthenticated" in where.message


def test_the_check_runs_a_refusal_scenario_against_the_profile_that_offers_nothing(repo_corpus, monkeypatch):
    from wopgen.conformance import inprocess

    real = inprocess.in_process

    def older_core(module, profile="full", api_key="conformance-key"):  # the core profile answers as a pre-0081 host
        transport = real(module, profile, api_key)
        if profile != "core":
            return transport
        return Rewritten(
            transport,
            lambda method, path, reply: (
                Reply(400, {"error": "validation_error", "message": "x"}) if reply.status == 501 else reply
            ),
        )

    monkeypatch.setattr(inprocess, "in_process", older_core)
    found = list(conformance_check.check(repo_corpus))
    assert [d.rule for d in found] == ["conformance-agent-eval-unadvertised"]
    assert found[0].message.startswith("generated host (core):")
    monkeypatch.setattr(inprocess, "in_process", real)
    assert list(conformance_check.check(repo_corpus)) == []


def test_the_check_skips_a_corpus_without_an_api(findings):
    assert findings() == []  # the small fixture corpus describes no operations, so there is no host


def test_an_invariant_naming_an_unknown_scenario_is_a_finding(corpus_copy):
    root = corpus_copy()
    path = root / "spec/security/invariants.yaml"
    path.write_text(path.read_text().replace("      - verifier-no-content-leak\n", "      - verifier-no-leaks\n", 1))
    found = [(d.rule, d.line) for d in invariants_check.check(load(root)) if d.rule == "invariant-scenario-unknown"]
    line = path.read_text().splitlines().index("      - verifier-no-leaks") + 1
    assert found == [("invariant-scenario-unknown", line)]


def test_invariants_name_real_scenarios(repo_corpus):
    assert [d.rule for d in invariants_check.check(repo_corpus)] == []


def test_a_host_without_the_fixture_workflow_skips_what_needs_it(module, repo_corpus):
    transport = in_process(module, "full")
    listed = transport.host.profile.capabilities.pop("fixtures")  # a host that advertises the rungs but not the fixture
    try:
        results = {r.scenario.name: r for r in run(SCENARIOS, transport, repo_corpus)}
    finally:
        transport.host.profile.capabilities["fixtures"] = listed
    assert results["multi-agent-handoff-state-machine"].status == "skipped"
    assert "fixture workflow" in results["multi-agent-handoff-state-machine"].message
    assert results["agent-loop-workspace-snapshot"].status == "passed"  # driven by the seam alone
    assert results["core-run-cancel"].status == "skipped"
    assert results["core-run-surface"].status == "passed" and "conformance-noop" in results["core-run-surface"].note
    assert not [r for r in results.values() if r.status == "failed"]


def test_reports_of_a_host_answering_lone_surrogates_and_controls_print_and_parse():
    """A host's JSON may hold `"\\ud800"` or a control character, and a finding may quote it (a path built
    from a run id it answered): the text report still prints as UTF-8 and the JUnit report is XML."""
    scenario = SCENARIOS[0]
    quoted = "GET /v1/runs/\ud800\x01 answered 0"
    results = [Result(scenario, "failed", quoted), Result(SCENARIOS[1], "passed")]
    shown = text(results, "target")
    assert "GET /v1/runs/\\ud800\\x01 answered 0" in shown and shown.encode("utf-8")
    suite = ET.fromstring(junit(results, "target").encode("utf-8"))
    assert suite.find("testcase/failure").get("message") == "GET /v1/runs/\\ud800\\x01 answered 0"
    assert json.loads(as_json(results, "target", strict=False))["scenarios"][0]["message"] == quoted
