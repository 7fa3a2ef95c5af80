"""What the reference host records about a loop is stated in the schemas (RFC 0061, 0081, 0090).

`run.completed` `outcome`/`goalMet`, `variables.loop` with its verifier turns, the `verification_failed`
run error and `configurable.baselineRunId` are each validated against the schema that now states
them, and the schemas reject what the prose rules out.
"""

from __future__ import annotations

from typing import Any

import pytest

from host.host_helpers import WORKER, call, loop_request, stop, work

SNAPSHOT = "schemas/run-snapshot.schema.json"
PAYLOADS = "schemas/run-event-payloads.schema.json"


def _errors(corpus: Any, path: str, instance: Any, pointer: str = "") -> list[str]:
    return [e.message for e in corpus.validator(path, pointer).iter_errors(instance)]


def _completed(run: Any) -> dict[str, Any]:
    (event,) = [e for e in run.log.events if e["type"] == "run.completed"]
    payload: dict[str, Any] = event["payload"]
    return payload


@pytest.mark.parametrize(
    ("criteria", "outcome", "goal_met"),
    [
        ([{"key": "a", "met": True}], "goal-met", True),
        ([{"key": "a", "met": True}, {"key": "b", "met": False}], "give-up", False),
        (None, "terminated", None),
    ],
)
def test_the_loop_outcome_is_recorded_as_the_schemas_state(make_host, repo_corpus, criteria, outcome, goal_met):
    decision = {} if criteria is None else {"successCriteria": criteria}
    run = make_host().start_run(loop_request(work(verdict="pass", critic=WORKER), stop(**decision)))
    payload = _completed(run)
    assert _errors(repo_corpus, PAYLOADS, payload, "/$defs/runCompleted") == []
    assert (payload["outcome"], payload.get("goalMet")) == (outcome, goal_met)
    snapshot = run.snapshot()
    assert _errors(repo_corpus, SNAPSHOT, snapshot) == []
    loop = snapshot["variables"]["loop"]
    assert loop["outcome"] == outcome
    assert [v["selfVerification"] for v in loop["verifications"]] == [True]


def test_verification_failed_is_a_stated_run_error(make_host, repo_corpus):
    run = make_host().start_run(loop_request(work(verdict="fail"), stop(successCriteria=[{"key": "k", "met": True}])))
    run.resume(None)
    (event,) = [e for e in run.log.events if e["type"] == "run.failed"]
    assert event["payload"]["error"]["code"] == "verification_failed"
    assert _errors(repo_corpus, PAYLOADS, event["payload"], "/$defs/runFailed") == []


@pytest.mark.parametrize(
    ("instance", "valid"),
    [
        ({"outcome": "goal-met", "goalMet": True}, True),
        ({"outcome": "success"}, False),
        ({"goalMet": "yes"}, False),
    ],
)
def test_run_completed_outcome_members_are_typed(repo_corpus, instance, valid):
    assert (_errors(repo_corpus, PAYLOADS, instance, "/$defs/runCompleted") == []) is valid


@pytest.mark.parametrize(
    ("verification", "valid"),
    [
        ({"target": "e1", "verifierId": "v", "verdict": "pass", "selfVerification": False}, True),
        ({"target": "e1", "verifierId": "v", "verdict": "pass"}, False),
        ({"target": "e1", "verifierId": "v", "verdict": "ok", "selfVerification": False}, False),
    ],
)
def test_loop_verifications_state_self_verification(repo_corpus, verification, valid):
    snapshot = {
        "runId": "r",
        "workflowId": "w",
        "status": "completed",
        "variables": {"loop": {"verifications": [verification]}},
    }
    assert (_errors(repo_corpus, SNAPSHOT, snapshot) == []) is valid


def test_an_unknown_baseline_is_refused_and_the_member_is_declared(make_host, repo_corpus):
    configurable = repo_corpus.schemas["schemas/run-create-request.schema.json"].data["$defs"]["configurable"]
    assert "baselineRunId" in configurable["properties"]
    body = {
        "workflowId": "core.openwop.evals.sample",
        "mode": "eval",
        "evalSuiteRef": "core.openwop.evals.sample@1.0.0",
        "agentId": "core.sample.agent",
        "configurable": {"evalModes": ["regression"], "baselineRunId": "no-such-run"},
    }
    host = make_host()
    answer = call(host, "POST", "/v1/runs", body)
    assert (answer.status, answer.body["error"]) == (400, "validation_error")
    body["configurable"] = {"evalModes": ["regression"]}
    assert call(host, "POST", "/v1/runs", body).status in (200, 201, 202)


def test_each_turn_reads_at_most_the_advertised_transcript_window(make_host):
    host = make_host()
    window = host.profile.capabilities["multiAgent"]["executionModel"]["transcriptWindow"]
    run = host.start_run(loop_request(*[work() for _ in range(6)], stop()))
    turns = run.snapshot()["variables"]["loop"]["turns"]
    assert len(turns) == 7
    assert all(len(turn["transcript"]) <= window for turn in turns)
    assert max(len(turn["transcript"]) for turn in turns) == window  # a long run fills the window
