"""Rules of RFC 0090 that were stated but not executed: the agentId bounds and the confidence of
either side escalating. Each assertion names the rule it checks and asserts nothing stronger."""

from __future__ import annotations

from wopgen.conformance.model import (
    BEHAVIOUR,
    CORPUS,
    Context,
    Scenario,
    always,
    execution_model,
    flag,
    next_worker,
    of_type,
    terminate,
)
from wopgen.corpus.vocabulary import LOOP_FIXTURE

# RFC 0090 A: agent.verified.agentId is 3 to 256 characters.
_SHORTEST, _LONGEST = 3, 256
# RFC 0039 via multi-agent-execution.md, Version 2: absent confidenceEscalationFloor means 0.5.
DEFAULT_FLOOR = 0.5


def agent_id_bounds(ctx: Context) -> None:
    pointer = ctx.payload_pointer("agent.verified")
    base = {"target": "e42", "verdict": "pass"}
    ctx.valid("run-event-payloads", {**base, "agentId": "a" * _SHORTEST}, "RFC 0090 A: a 3-character agentId", pointer)
    ctx.valid("run-event-payloads", {**base, "agentId": "a" * _LONGEST}, "RFC 0090 A: a 256-character agentId", pointer)
    ctx.invalid("run-event-payloads", {**base, "agentId": "ab"}, "RFC 0090 A: a 2-character agentId", pointer)
    ctx.invalid("run-event-payloads", {**base, "agentId": "a" * 257}, "RFC 0090 A: a 257-character agentId", pointer)


def agent_id_refused(ctx: Context) -> None:
    ctx.need_fixture(LOOP_FIXTURE)
    for critic in ("ab", "c" * (_LONGEST + 1)):
        script = {"turns": [next_worker(verdict="pass", critic=critic), terminate()]}
        reply = ctx.request("POST", "/v1/runs", {"workflowId": LOOP_FIXTURE, "inputs": {"script": script}})
        ctx.check(
            reply.status < 500,
            f"a critic id of {len(critic)} characters is the client's error, not the host's: HTTP {reply.status}",
        )
        if reply.status in (200, 201):
            run_id = str(reply.body["runId"])
            ctx.settle(run_id)
            for event in of_type(ctx.events(run_id), "agent.verified"):  # events() validates each payload
                size = len(event["payload"]["agentId"])
                ctx.check(_SHORTEST <= size <= _LONGEST, f"RFC 0090 A: agent.verified agentId of {size} characters")


def either_confidence(ctx: Context) -> None:
    floor = float(execution_model(ctx.caps).get("confidenceEscalationFloor", DEFAULT_FLOOR))
    low = round(max(0.0, floor - 0.2), 2)
    cases = (
        ("the critic's confidence under the floor", 1.0, low, "waiting-input"),
        ("the worker's confidence under the floor", low, 1.0, "waiting-input"),
        ("both confidences at or above the floor", 1.0, 1.0, "completed"),
    )
    for what, worker, critic, status in cases:
        turn = next_worker(decision_confidence=1.0, confidence=worker, verdict="pass", verdictConfidence=critic)
        run_id, snap = ctx.loop([turn, terminate()])
        ctx.equal(snap["status"], status, f"RFC 0090 unresolved question 3 (either one escalates): {what}")
        if status == "waiting-input":
            suspended = of_type(ctx.events(run_id), "run.suspended")
            ctx.equal(suspended[-1]["payload"].get("reason") if suspended else None, "escalate", f"{what}: reason")


SCENARIOS = (
    Scenario(
        "agent-verified-agent-id-bounds",
        CORPUS,
        "0090",
        "agent.verified agentId is 3 to 256 characters in the payload schema.",
        always,
        agent_id_bounds,
    ),
    Scenario(
        "agent-verified-agent-id-refused",
        BEHAVIOUR,
        "0090",
        "A host never emits an agentId outside 3 to 256 characters, and a script naming such a critic is not a 5xx.",
        flag("multiAgent", "executionModel", "verifier", "supported"),
        agent_id_refused,
    ),
    Scenario(
        "verifier-confidence-either-escalates",
        BEHAVIOUR,
        "0090",
        "A worker's or a critic's confidence under the escalation floor (0.5 when not advertised) escalates the decision.",
        flag("multiAgent", "executionModel", "verifier", "supported"),
        either_confidence,
    ),
)
