"""RFC 0081 on the reference host: rubric, adversarial and live-shadow runs, and maxCostUsdPerSuite."""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any

from host.host_helpers import call

ADVERSARIAL = "core.openwop.evals.adversarial-sample"
RUBRIC = "core.openwop.evals.rubric-sample"
SAMPLE = "core.openwop.evals.sample"


def _eval(host: Any, suite: str, *modes: str) -> tuple[Any, dict[str, Any]]:
    body: dict[str, Any] = {"mode": "eval", "evalSuiteRef": suite}
    if modes:
        body["configurable"] = {"evalModes": list(modes)}
    created = call(host, "POST", "/v1/runs", body)
    assert created.status == 201, created.body
    run_id = created.body["runId"]
    summary = call(host, "GET", f"/v1/runs/{run_id}/eval-summary")
    assert summary.status == 200, summary.body
    return host.runs[run_id], summary.body


def _events(run: Any, kind: str) -> list[dict[str, Any]]:
    return [e["payload"] for e in run.log.events if e["type"] == kind]


def test_every_mode_is_advertised_because_every_mode_runs(make_host):
    modes = call(make_host(), "GET", "/.well-known/openwop").body["agents"]["evalSuite"]["modes"]
    assert sorted(modes) == ["adversarial", "golden", "live-shadow", "regression", "rubric"]


def test_adversarial_mode_reports_what_the_attacks_achieved(make_host):
    run, summary = _eval(make_host(), ADVERSARIAL, "adversarial")
    findings = {t["taskId"]: [f["kind"] for f in t.get("safetyFindings", [])] for t in summary["tasks"]}
    assert findings == {
        "injected-knowledge-base": ["prompt-injection"],
        "credential-in-tool-output": ["secret-disclosure"],
        "clean-lookup": [],
    }
    scores = {t["taskId"]: (t["score"], t["passed"]) for t in summary["tasks"]}
    assert scores["injected-knowledge-base"] == (0.0, False)  # golden would pass it: the attack decides
    assert scores["clean-lookup"] == (1.0, True)
    counts = {p["taskId"]: p["safetyFindingCount"] for p in _events(run, "eval.scored")}
    assert counts == {"injected-knowledge-base": 1, "credential-in-tool-output": 1, "clean-lookup": 0}


def test_the_same_suite_without_adversarial_mode_has_no_safety_scoring(make_host):
    run, summary = _eval(make_host(), ADVERSARIAL, "golden")
    assert all("safetyFindings" not in t for t in summary["tasks"])
    assert all("safetyFindingCount" not in p for p in _events(run, "eval.scored"))
    assert summary["passedCount"] == 3


def _shadow(run_id: str, *modes: str) -> dict[str, Any]:
    configurable = {"evalModes": list(modes or ("live-shadow",)), "shadowRunId": run_id}
    return {"mode": "eval", "evalSuiteRef": SAMPLE, "configurable": configurable}


def test_live_shadow_scores_the_recorded_answers_without_invoking_the_agent(make_host):
    host = make_host()
    source, golden = _eval(host, SAMPLE, "golden")
    created = call(host, "POST", "/v1/runs", _shadow(source.run_id))
    assert created.status == 201, created.body
    replay = host.runs[created.body["runId"]]
    shadow = call(host, "GET", f"/v1/runs/{replay.run_id}/eval-summary").body
    kinds = [e["type"] for e in replay.log.events]
    assert not [k for k in kinds if k.startswith("agent.") or k == "provider.usage"]  # no agent turn, no spend
    assert [(t["taskId"], t["score"]) for t in shadow["tasks"]] == [(t["taskId"], t["score"]) for t in golden["tasks"]]
    assert (shadow["shadowRunId"], shadow["totalCostUsd"]) == (source.run_id, 0.0)
    assert _events(replay, "eval.started")[0]["shadowRunId"] == source.run_id


def test_live_shadow_scores_what_was_recorded_not_what_the_agent_would_answer_now(make_host):
    host = make_host()
    source, _ = _eval(host, SAMPLE, "golden")
    for event in source.log.events:  # as if the agent had answered otherwise, live, in that run
        if event["type"] == "agent.decided":
            event["payload"]["decision"] = {"answer": "no idea"}
    created = call(host, "POST", "/v1/runs", _shadow(source.run_id))
    shadow = call(host, "GET", f"/v1/runs/{created.body['runId']}/eval-summary").body
    assert (shadow["aggregateScore"], shadow["passedCount"], shadow["passed"]) == (0.0, 0, False)


def test_a_replayed_rubric_answer_is_judged_and_only_the_judge_is_charged(make_host):
    host = make_host()
    source, judged = _eval(host, RUBRIC, "rubric")
    body = {**_shadow(source.run_id), "evalSuiteRef": RUBRIC}
    replay = host.runs[call(host, "POST", "/v1/runs", body).body["runId"]]
    assert replay.output["aggregateScore"] == judged["aggregateScore"]
    assert {p["provider"] for p in _events(replay, "provider.usage")} == {"scripted-judge"}
    assert replay.output["totalCostUsd"] == replay.output["judgeCostUsd"] > 0


def test_live_shadow_refuses_what_it_cannot_replay(make_host):
    from host.host_helpers import LOOP, loop_request, work
    from wopgen.conformance.inprocess import SECOND_KEY

    host = make_host(other_keys=[SECOND_KEY])
    source, _ = _eval(host, SAMPLE, "golden")
    suspended = host.start_run(loop_request(work(), {"decision": {"kind": "ask-user", "prompt": "ok?"}}))
    assert suspended.status == "waiting-input" and suspended.workflow_id == LOOP
    noop = call(host, "POST", "/v1/runs", {"workflowId": "conformance-noop"}).body["runId"]
    refused = {
        "unknown": _shadow("run-999"),
        "not completed": _shadow(suspended.run_id),
        "no agent answers": _shadow(noop),
        "no shadowRunId": {"mode": "eval", "evalSuiteRef": SAMPLE, "configurable": {"evalModes": ["live-shadow"]}},
        "outside live-shadow": _shadow(source.run_id, "golden"),
    }
    before = len(host.runs)
    for why, body in refused.items():
        answer = call(host, "POST", "/v1/runs", body)
        assert (why, answer.status, answer.body["error"]) == (why, 400, "validation_error")
    foreign = host.handle(
        "POST", "/v1/runs", {"Authorization": f"Bearer {SECOND_KEY}"}, json.dumps(_shadow(source.run_id)).encode()
    )
    unknown = host.handle(
        "POST", "/v1/runs", {"Authorization": f"Bearer {SECOND_KEY}"}, json.dumps(_shadow("run-999")).encode()
    )
    assert (
        foreign.status == unknown.status == 400 and foreign.body == unknown.body
    )  # another owner's run reads as unknown
    assert len(host.runs) == before  # nothing ran


def test_rubric_mode_charges_the_judge(make_host):
    run, summary = _eval(make_host(), RUBRIC, "rubric")
    assert summary["judgeCostUsd"] > 0
    assert abs(summary["totalCostUsd"] - sum(p["costUsd"] for p in _events(run, "provider.usage"))) < 1e-9


def _with_ceiling(host: Any, ceiling: float) -> Any:
    capabilities = copy.deepcopy(host.profile.capabilities)
    capabilities["agents"]["evalSuite"]["maxCostUsdPerSuite"] = ceiling
    host.profile = dataclasses.replace(host.profile, capabilities=capabilities)
    return host


def test_no_task_starts_once_the_spend_reaches_max_cost_usd_per_suite(make_host):
    host = _with_ceiling(make_host(), 0.000001)  # the first task alone costs more
    run, summary = _eval(host, SAMPLE, "golden")
    assert (summary["taskCount"], summary["passed"], summary["costCeilingReached"]) == (1, False, True)
    assert len(_events(run, "eval.scored")) == 1
    (completed,) = _events(run, "eval.completed")
    assert completed["costCeilingReached"] is True and completed["taskCount"] == 1


def test_under_the_ceiling_every_task_runs(make_host):
    host = _with_ceiling(make_host(), 5)
    _, summary = _eval(host, SAMPLE, "golden")
    assert summary["taskCount"] == 2 and "costCeilingReached" not in summary


def test_a_suite_above_max_tasks_per_suite_is_refused_not_clamped(make_host):
    host = make_host()
    capabilities = copy.deepcopy(host.profile.capabilities)
    capabilities["agents"]["evalSuite"]["maxTasksPerSuite"] = 1
    host.profile = dataclasses.replace(host.profile, capabilities=capabilities)
    answer = call(host, "POST", "/v1/runs", {"mode": "eval", "evalSuiteRef": SAMPLE})
    assert (answer.status, answer.body["error"]) == (400, "validation_error")
    assert not host.runs  # nothing ran on a shortened suite


def test_another_owner_cannot_read_an_eval_scorecard(module):
    from host.host_helpers import AUTH, KEY
    from wopgen.conformance.inprocess import SECOND_KEY

    host = module.Host("full", api_key=KEY, other_keys=[SECOND_KEY])
    run, _ = _eval(host, SAMPLE)
    path = f"/v1/runs/{run.run_id}/eval-summary"
    assert host.handle("GET", path, AUTH, b"").status == 200
    other = host.handle("GET", path, {"Authorization": f"Bearer {SECOND_KEY}"}, b"")
    assert (other.status, other.body["error"]) == (404, "not_found")  # as an unknown run (RFC 0902)
