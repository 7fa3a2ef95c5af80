"""The generated host's behaviour, driven directly: the log, the loop rungs, evaluation, errors."""

from __future__ import annotations

import copy
import dataclasses
import datetime
import json

import pytest

from host.host_helpers import AUTH, WORKER, call, loop_request, stop, work


def _types(run):
    return [e["type"] for e in run.log.events]


def test_every_event_is_validated_before_it_is_appended(make_host, module):
    host = make_host()
    run = host.start_run({"workflowId": "conformance-noop"})
    before = len(run.log.events)
    with pytest.raises(module.InvalidEvent, match=r"agent\.verified"):
        run.log.append("agent.verified", {"agentId": "core.sample.critic", "target": "e1", "verdict": "ok"})
    with pytest.raises(module.InvalidEvent):
        run.log.append("agent.loop.iterated", {})
    assert len(run.log.events) == before
    assert [e["sequence"] for e in run.log.events] == list(range(before))


def test_the_envelope_is_validated_with_the_payload(module):
    valid = {"workflowId": "w"}
    good = module.events.EventLog("run-1", clock=lambda: "2026-01-01T00:00:00.000Z")
    assert good.append("run.started", valid)["sequence"] == 0
    nameless = module.events.EventLog("", clock=lambda: "2026-01-01T00:00:00.000Z")  # runId breaks minLength
    with pytest.raises(module.InvalidEvent, match="runId"):
        nameless.append("run.started", valid)
    untimed = module.events.EventLog("run-1", clock=lambda: "yesterday")  # timestamp breaks date-time
    with pytest.raises(module.InvalidEvent, match="timestamp"):
        untimed.append("run.started", valid)
    assert nameless.events == [] and untimed.events == []
    with pytest.raises(module.InvalidEvent, match="workflowId"):
        good.append("run.started", {"workflowId": ""})  # the payload of the same event type breaks its schema
    assert len(good.events) == 1


def test_each_event_type_is_judged_by_its_own_envelope_and_agrees_with_jsonschema(make_host, module):
    schemas = module.schemas
    host = make_host()
    run = host.start_run(loop_request(work(), stop()))
    assert run.status == "completed"
    for event_type in schemas.corpus()["payloadDefs"]:  # every type has the typed one-pass form, none falls back
        payload = schemas.schema_uri("run-event-payloads", schemas._payload_pointer(event_type))
        typed = schemas._typed_envelope(event_type, payload)
        assert typed is not None and typed["properties"]["type"] == {"const": event_type}
    for event in run.log.events:  # the log builds each event with the type it judges it as
        judge = schemas.event_judge(event["type"])
        assert judge(event) and not schemas.event_errors(event["type"], event["payload"], event)
        for broken in (
            {**event, "sequence": -1},
            {**event, "eventId": ""},
            {**event, "timestamp": "later"},
            {**event, "payload": []},
        ):
            assert not judge(broken), broken
            assert schemas.event_errors(event["type"], broken["payload"], broken), broken


def test_the_clock_writes_an_rfc3339_utc_time_with_milliseconds(module):
    stamp = module.events.utc_now()
    parsed = datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.UTC)
    assert len(stamp) == len("2026-01-01T00:00:00.000Z")
    assert abs((datetime.datetime.now(datetime.UTC) - parsed).total_seconds()) < 5


def test_compiled_validators_annotate_only_the_formats_their_targets_meet(module):
    schemas = module.schemas
    payload = schemas.schema_uri("run-event-payloads", schemas._payload_pointer("run.started"))
    met = schemas._annotations((schemas.schema_uri("run-event"), payload))
    assert met.keys() == schemas._ANNOTATIONS.keys() & {"date-time"}  # the envelope's timestamp only
    request = schemas.schema_uri("run-create-request")
    assert schemas._annotations((request,)).keys() == schemas._ANNOTATIONS.keys() & {"uri"}
    unknown = schemas._annotations(("https://example.invalid/elsewhere.schema.json",))
    assert unknown == schemas._ANNOTATIONS  # a target the generator did not describe gets every annotation
    # Whatever the compiled validator is told, the verdict on a format jsonschema does not check is the same.
    odd = {"workflowId": "w", "callbackUrl": "not a uri at all"}
    assert (schemas.errors("run-create-request", odd) == []) == ("uri" in schemas._ANNOTATIONS)


def test_the_host_asserts_the_formats_wopgen_asserts_and_no_other(module, monkeypatch):
    """Not every format jsonschema happens to have a checker for on the host's machine."""
    from jsonschema import Draft202012Validator

    from wopgen.corpus.validation import ASSERTED_FORMATS

    schemas = module.schemas
    assert schemas._asserted() == ASSERTED_FORMATS and "uri" in schemas._ANNOTATIONS
    checkers = {**Draft202012Validator.FORMAT_CHECKER.checkers, "uri": (lambda value: False, ())}
    monkeypatch.setattr(Draft202012Validator.FORMAT_CHECKER, "checkers", checkers)  # as if rfc3987 were installed
    assert "uri" not in schemas._format_checker().checkers and "date-time" in schemas._format_checker().checkers
    odd = {"workflowId": "w", "callbackUrl": "not a uri at all"}
    assert schemas.errors("run-create-request", odd) == []


def test_the_host_explains_a_pattern_as_ecma_262_reads_it(module):
    """As wopgen's own explaining engine does, so the host never accepts what its compiled judge refused
    because Python's `re` reads the pattern otherwise."""
    import re

    schemas = module.schemas
    for pattern, text in ((r"^\d+$", "\u0661\u0662"), (r"^a$", "a\n"), (r"^\S+$", "a\ufeffb")):
        assert re.search(pattern, text) and not schemas._matches(pattern, text), pattern
    assert schemas._matches(r"^(a|aa)+(?=!)!$", "aaaa!")  # look-ahead: still answered
    assert schemas._matches(r"(a)\1", "xaa") and not schemas._matches(r"(a)\1", "xa")  # Python's re, where refused


def test_terminate_completes_and_ask_user_suspends_until_resumed(make_host):
    host = make_host()
    run = host.start_run(loop_request(work(), {"decision": {"kind": "ask-user", "prompt": "ok?"}}, stop()))
    assert run.status == "waiting-input" and run.suspend_reason == "clarify"
    assert call(host, "POST", f"/v1/runs/{run.run_id}/resume", {"reason": "answered"}).status == 200
    assert run.status == "completed"
    assert _types(run)[-3:] == ["run.resumed", "runOrchestrator.decided", "run.completed"]
    again = call(host, "POST", f"/v1/runs/{run.run_id}/resume", {})
    assert (again.status, again.body["error"]) == (409, "conflict")


def test_the_loop_bound_breaches_at_turn_n_plus_one(make_host):
    host = make_host()
    run = host.start_run(
        {
            **loop_request(work()),
            "inputs": {"script": {"turns": [work()], "repeatLast": True}},
            "configurable": {"maxLoopIterations": 2},
        }
    )
    breach = [e["payload"] for e in run.log.events if e["type"] == "cap.breached"]
    assert breach == [{"kind": "loop-iterations", "limit": 2, "observed": 3}]
    assert run.status == "failed" and run.error["code"] == "loop_limit_exceeded"


def test_the_host_limit_wins_over_a_larger_requested_bound(make_host):
    host = make_host()
    script = {"turns": [work()], "repeatLast": True}
    run = host.start_run(
        {
            "workflowId": "conformance.scripted-loop",
            "inputs": {"script": script},
            "configurable": {"maxLoopIterations": 500},
        }
    )
    assert next(e["payload"] for e in run.log.events if e["type"] == "cap.breached")["limit"] == 20


def test_a_broken_bound_still_hits_the_backstop(make_host):
    host = make_host("mutant-loop-bound-ignored")
    run = host.start_run(
        {"workflowId": "conformance.scripted-loop", "inputs": {"script": {"turns": [work()], "repeatLast": True}}}
    )
    assert run.status == "failed" and run.error["code"] == "node_executions_exceeded"


def test_iterations_survive_a_stateful_resume(make_host):
    host = make_host()
    run = host.start_run(
        loop_request(work(memoryWrite="m1"), {"decision": {"kind": "ask-user", "prompt": "?"}}, stop())
    )
    run.resume(None)
    decided = [e["payload"]["iteration"] for e in run.log.events if e["type"] == "runOrchestrator.decided"]
    assert decided == [1, 2, 3]
    assert run.engine.resumed_iteration == 2
    turns = run.snapshot()["variables"]["loop"]["turns"]
    assert [t["memory"] for t in turns] == [[], ["m1"], ["m1"]]


def test_writes_show_from_the_next_turn(make_host):
    host = make_host()
    run = host.start_run(
        loop_request(work(workspaceWrite="a.md", memoryWrite="m"), work(workspaceWrite="a.md"), stop())
    )
    turns = run.snapshot()["variables"]["loop"]["turns"]
    assert [t["workspace"] for t in turns] == [[], ["a.md@1"], ["a.md@2"]]
    assert [t["memory"] for t in turns] == [[], ["m"], ["m"]]


def test_a_workspace_write_on_a_host_without_workspace_is_refused(make_host):
    response = call(make_host("v5-no-workspace"), "POST", "/v1/runs", loop_request(work(workspaceWrite="a.md"), stop()))
    assert (response.status, response.body["error"]) == (501, "capability_not_provided")


def test_version_4_hosts_omit_the_iteration(make_host):
    run = make_host("v4-only").start_run(loop_request(work(), stop()))
    assert all("iteration" not in e["payload"] for e in run.log.events if e["type"] == "runOrchestrator.decided")


def test_replay_reproduces_the_log(make_host):
    host = make_host()
    run = host.start_run(
        loop_request(
            work(verdict="revise", remoteHost="h2", memoryWrite="m"),
            {"decision": {"kind": "ask-user", "prompt": "?"}},
            stop(),
        )
    )
    run.resume("answer")
    assert host.replay(run.run_id) == run.log.events


def test_gating_blocks_a_failed_result_and_a_success_terminate(make_host):
    host = make_host()
    run = host.start_run(loop_request(work(verdict="fail"), stop(successCriteria=[{"key": "k", "met": True}])))
    assert run.status == "waiting-input" and run.engine.committed == []
    run.resume(None)
    assert run.status == "failed" and run.error["code"] == "verification_failed"


def test_an_observing_verifier_does_not_gate(make_host):
    run = make_host("verifier-observe").start_run(loop_request(work(verdict="fail"), stop()))
    assert run.status == "completed" and len(run.engine.committed) == 1


def test_self_verification_is_surfaced(make_host):
    run = make_host().start_run(loop_request(work(verdict="pass", critic=WORKER), stop()))
    (verification,) = run.snapshot()["variables"]["loop"]["verifications"]
    assert verification["selfVerification"] is True and verification["verifierId"] == WORKER


def test_a_critic_below_the_floor_escalates(make_host):
    run = make_host().start_run(loop_request(work(verdict="pass", verdictConfidence=0.2), stop()))
    assert run.status == "waiting-input" and run.suspend_reason == "escalate"


def test_give_up_is_not_recorded_as_success(make_host):
    run = make_host().start_run(
        loop_request(stop(successCriteria=[{"key": "a", "met": True}, {"key": "b", "met": False}]))
    )
    done = run.log.events[-1]["payload"]
    assert (run.status, done["outcome"], done["goalMet"]) == ("completed", "give-up", False)


def test_a_malformed_script_is_a_validation_error(make_host):
    host = make_host()
    for bad in (
        {"turns": []},
        {"turns": [{"decision": {"kind": "clarify"}}]},
        {"turns": [{**work(), "verdict": "ok"}]},
    ):
        response = call(
            host, "POST", "/v1/runs", {"workflowId": "conformance.scripted-loop", "inputs": {"script": bad}}
        )
        assert (response.status, response.body["error"]) == (400, "validation_error"), bad


def test_the_eval_summary_is_409_while_the_run_is_going(make_host):
    host = make_host(deferred=True)
    created = call(host, "POST", "/v1/runs", {"mode": "eval", "evalSuiteRef": "core.openwop.evals.sample"})
    path = f"/v1/runs/{created.body['runId']}/eval-summary"
    assert (call(host, "GET", path).status, call(host, "GET", path).body["error"]) == (409, "conflict")
    host.drain()
    assert call(host, "GET", path).status == 200


def test_eval_errors(make_host):
    host = make_host()
    post = lambda body: call(host, "POST", "/v1/runs", body)  # noqa: E731
    assert post({"mode": "eval", "evalSuiteRef": "core.none.evals.x"}).status == 400
    assert post({"mode": "eval", "evalSuiteRef": "core.openwop.evals.sample@9.9.9"}).status == 400
    golden_only = make_host()
    capabilities = copy.deepcopy(golden_only.profile.capabilities)
    capabilities["agents"]["evalSuite"]["modes"] = ["golden"]
    golden_only.profile = dataclasses.replace(golden_only.profile, capabilities=capabilities)
    unadvertised = call(
        golden_only,
        "POST",
        "/v1/runs",
        {"mode": "eval", "evalSuiteRef": "core.openwop.evals.sample", "configurable": {"evalModes": ["adversarial"]}},
    )
    assert (unadvertised.status, unadvertised.body["details"]["modes"]) == (400, ["adversarial"])
    rubric_only = post(
        {"mode": "eval", "evalSuiteRef": "core.openwop.evals.sample", "configurable": {"evalModes": ["rubric"]}}
    )
    assert rubric_only.status == 400  # no task of the sample suite is scored under rubric
    no_eval = call(
        make_host("no-eval"), "POST", "/v1/runs", {"mode": "eval", "evalSuiteRef": "core.openwop.evals.sample"}
    )
    assert (no_eval.status, no_eval.body["error"]) == (501, "capability_not_provided")
    assert call(host, "GET", "/v1/runs/nope/eval-summary").status == 404


SUITE = {
    "suiteId": "local.test.evals.scoring",
    "version": "2.0.0",
    "modes": ["golden", "rubric"],
    "thresholds": {"passScore": 0.5},
    "tasks": [
        {
            "taskId": "exact-hit",
            "input": {},
            "expected": {"kind": "golden", "match": {"strategy": "exact", "value": "42"}},
            "fixtures": {"toolResponses": [{"tool": "calc", "response": "42"}]},
        },
        {
            "taskId": "exact-miss",
            "input": {},
            "expected": {"kind": "golden", "match": {"strategy": "exact", "value": 42}},
            "fixtures": {"toolResponses": [{"tool": "calc", "response": "42"}]},
        },
        {
            "taskId": "json-in-text",
            "input": {},
            "expected": {"kind": "golden", "match": {"strategy": "json-match", "value": {"a": [1, 2]}}},
            "fixtures": {"toolResponses": [{"tool": "t", "response": '{"a": [1, 2], "b": 0}'}]},
        },
        {
            "taskId": "rubric-half",
            "input": {},
            "expected": {
                "kind": "rubric",
                "rubric": [
                    {"criterion": "mentions the thirty day refund window", "weight": 1},
                    {"criterion": "apologises politely", "weight": 1},
                ],
            },
            "fixtures": {"toolResponses": [{"tool": "kb", "response": "The refund window is thirty days."}]},
        },
    ],
}


def test_suites_load_from_a_folder_and_score_deterministically(make_host):
    host = make_host(suites={"scoring.json": json.dumps(SUITE)})
    run = host.start_run({"mode": "eval", "evalSuiteRef": "local.test.evals.scoring@2.0.0"})
    scores = {t["taskId"]: t["score"] for t in run.output["tasks"]}
    assert scores == {"exact-hit": 1.0, "exact-miss": 0.0, "json-in-text": 1.0, "rubric-half": 0.5}
    assert run.output["passedCount"] == 3 and run.output["judgeCostUsd"] > 0
    assert host.replay(run.run_id) == run.log.events


def test_a_broken_suite_is_refused_with_its_origin(make_host):
    with pytest.raises(ValueError, match=r"bad\.json"):
        make_host(suites={"bad.json": json.dumps({**SUITE, "modes": ["benchmark"]})})


def test_regression_against_a_baseline(make_host):
    host = make_host()
    baseline = host.start_run({"mode": "eval", "evalSuiteRef": "core.openwop.evals.sample"})
    run = host.start_run(
        {
            "mode": "eval",
            "evalSuiteRef": "core.openwop.evals.sample",
            "configurable": {"evalModes": ["golden", "regression"], "baselineRunId": baseline.run_id},
        }
    )
    assert run.output["regression"] == {"baselineRunId": baseline.run_id, "scoreDelta": 0.0}
    bad = call(
        host,
        "POST",
        "/v1/runs",
        {"mode": "eval", "evalSuiteRef": "core.openwop.evals.sample", "configurable": {"baselineRunId": "run-999"}},
    )
    assert bad.status == 400


def test_no_traceback_reaches_the_client(make_host, monkeypatch, capsys):
    host = make_host()

    def explode(**_):
        raise RuntimeError("secret internals /home/x/y.py line 3")

    monkeypatch.setattr(host, "get_run", explode)
    response = host.handle("GET", "/v1/runs/run-1", AUTH, b"")
    assert response.status == 500 and response.body == {
        "error": "internal_error",
        "message": "the host failed to answer this request",
    }
    assert "secret internals" in capsys.readouterr().err  # loud on the host's side


def test_auth_and_body_errors_are_envelopes(make_host):
    host = make_host()
    assert host.handle("GET", "/v1/runs/x", {"Authorization": "Bearer wrong"}, b"").status == 401
    assert host.handle("GET", "/v1/runs/x", {"Authorization": "Basic test-key"}, b"").status == 401
    assert host.handle("GET", "/v1/runs/x", {"Authorization": "Bearer clé"}, b"").status == 401
    assert host.handle("POST", "/v1/runs", AUTH, b"\xff\xfe").body["error"] == "validation_error"
    assert host.handle("POST", "/v1/runs", AUTH, b"x" * 2_000_000).status == 400
    assert host.handle("DELETE", "/v1/runs", AUTH, b"").status == 404
    assert host.handle("GET", "/v1/runs/x/events/poll?lastSequence=abc", AUTH, b"").status in (400, 404)
