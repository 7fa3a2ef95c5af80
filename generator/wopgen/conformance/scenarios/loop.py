"""The orchestrator loop, versions 1 to 5, and the loop bound."""

from __future__ import annotations

import re
from typing import Any

from wopgen.conformance.model import (
    BEHAVIOUR,
    CORPUS,
    WORKER,
    Context,
    Failure,
    Scenario,
    always,
    ask_user,
    both,
    execution_model,
    flag,
    next_worker,
    of_type,
    rung,
    terminate,
    types,
)

_AGENT = "core.sample.supervisor"


def _turn_inputs(snapshot: dict[str, Any]) -> dict[int, dict[str, Any]]:
    turns = snapshot.get("variables", {}).get("loop", {}).get("turns")
    if not isinstance(turns, list):
        return {}
    return {t["iteration"]: t for t in turns if isinstance(t, dict) and "iteration" in t}


def handoff_state_machine(ctx: Context) -> None:
    run_id, snap = ctx.loop([next_worker(result="patched"), terminate(reason="tests green")])
    ctx.equal(snap["status"], "completed", "a terminate decision ends the run")
    events = ctx.events(run_id)
    ctx.equal(
        [e["payload"]["decision"]["kind"] for e in of_type(events, "runOrchestrator.decided")],
        ["next-worker", "terminate"],
        "one runOrchestrator.decided per turn",
    )
    first = types(events).index("runOrchestrator.decided")
    ctx.equal(events[first + 1]["type"], "agent.decided", "the named worker reports after the decision")
    ctx.equal(events[first + 1]["payload"]["agentId"], WORKER, "the worker that reports")
    ctx.equal(events[-1]["type"], "run.completed", "the last event")

    run_id, snap = ctx.loop([ask_user(), terminate()])
    ctx.equal(snap["status"], "waiting-input", "ask-user suspends the run")
    ctx.equal(types(ctx.events(run_id))[-1], "run.suspended", "the last event of a suspended run")
    snap = ctx.resume(run_id)
    ctx.equal(snap["status"], "completed", "the resumed run goes on to its terminate")
    after = types(ctx.events(run_id))
    ctx.check(after.index("run.resumed") < len(after) - 2, "run.resumed comes before the next turn")


def confidence_escalation(ctx: Context) -> None:
    floor = execution_model(ctx.caps).get("confidenceEscalationFloor", 0.5)
    low = round(max(0.0, floor - 0.2), 2)
    run_id, snap = ctx.loop([next_worker(decision_confidence=low), terminate()])
    ctx.equal(snap["status"], "waiting-input", f"a decision at confidence {low} under floor {floor} escalates")
    events = ctx.events(run_id)
    ctx.equal(events[-1]["payload"].get("reason"), "escalate", "the suspend reason")
    ctx.check(not of_type(events, "agent.decided"), "no worker runs before a human confirms")
    ctx.equal(ctx.resume(run_id)["status"], "completed", "the confirmed decision runs to completion")
    run_id, snap = ctx.loop([next_worker(decision_confidence=1.0, confidence=1.0), terminate()])
    ctx.equal(snap["status"], "completed", "a confident decision does not escalate")
    run_id, snap = ctx.loop([next_worker(confidence=low), terminate()])
    ctx.equal(snap["status"], "waiting-input", "a worker reporting confidence under the floor escalates")


def memory_lifecycle(ctx: Context) -> None:
    run_id, snap = ctx.loop([next_worker(memoryWrite="m-lifecycle"), next_worker(), terminate()])
    ctx.equal(snap["status"], "completed", "run status")
    ctx.check(bool(of_type(ctx.events(run_id), "memory.written")), "the write is recorded as memory.written")
    seen = _turn_inputs(snap)
    ctx.check(1 in seen and 2 in seen, "the fixture reports each turn's inputs under variables.loop.turns")
    ctx.check("m-lifecycle" not in seen[1]["memory"], "a memory write is invisible to the turn that made it")
    ctx.check("m-lifecycle" in seen[2]["memory"], "a memory write is visible to the next turn")


def cross_host_causation(ctx: Context) -> None:
    run_id, _ = ctx.loop([next_worker(remoteHost="host-b.example"), terminate()])
    events = ctx.events(run_id)
    decided = of_type(events, "agent.decided")
    ctx.check(bool(decided), "the remote worker's decision is in the log")
    ctx.equal(decided[0]["payload"].get("causationHostId"), "host-b.example", "agent.decided causationHostId")
    ctx.check(bool(decided[0].get("causationId")), "agent.decided names the remote event that caused it")
    follow = of_type(events, "runOrchestrator.decided")[1]
    ctx.equal(follow["payload"].get("causationHostId"), "host-b.example", "the next decision carries the host on")
    ctx.equal(follow.get("causationId"), decided[0]["eventId"], "the next decision's causationId")


def _normalised(ctx: Context, run_id: str) -> list[Any]:
    pattern = re.compile(re.escape(run_id) + r"(?![0-9])")

    def scrub(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub("<run>", value)
        if isinstance(value, dict):
            return {k: scrub(v) for k, v in value.items()}
        if isinstance(value, list):
            return [scrub(v) for v in value]
        return value

    return [scrub({k: v for k, v in e.items() if k not in ("timestamp", "runId")}) for e in ctx.events(run_id)]


def replay_determinism(ctx: Context) -> None:
    script = [
        next_worker(result={"patch": "a"}, confidence=0.9, memoryWrite="m1"),
        next_worker(result={"patch": "b"}, confidence=0.95),
        terminate(reason="done"),
    ]
    first, _ = ctx.loop(script)
    second, _ = ctx.loop(script)
    ctx.equal(_normalised(ctx, second), _normalised(ctx, first), "the same script and inputs reproduce the events")


def version5_shape(ctx: Context) -> None:
    pointer = ctx.payload_pointer("runOrchestrator.decided")
    decided = {"agentId": _AGENT, "decision": {"kind": "terminate"}}
    ctx.valid("run-event-payloads", {**decided, "iteration": 1}, "iteration 1", pointer)
    ctx.valid("run-event-payloads", decided, "a decision without iteration (version 4 and lower)", pointer)
    for bad in (0, -1, "1", 1.5):
        ctx.invalid("run-event-payloads", {**decided, "iteration": bad}, f"iteration {bad!r}", pointer)


def iteration_monotonic(ctx: Context) -> None:
    if ctx.has_fixture():
        run_id, _ = ctx.loop([next_worker(), next_worker(), next_worker(), terminate()])
        iterations = [e["payload"].get("iteration") for e in of_type(ctx.events(run_id), "runOrchestrator.decided")]
        ctx.equal(iterations, [1, 2, 3, 4], "iteration per runOrchestrator.decided")
    answer = ctx.seam("/v1/host/sample/agentloop/run", {"turns": 3}, "sample-agentloop-run-response")
    ctx.equal(
        [d.get("iteration") for d in answer["decisions"]],
        [1, 2, 3],
        "the seam's decisions[k].iteration",
        "seam-iteration",
    )


def workspace_snapshot(ctx: Context) -> None:
    answer = ctx.seam(
        "/v1/host/sample/agentloop/run", {"turns": 3, "workspaceWriteAtTurn": 1}, "sample-agentloop-run-response"
    )
    seen = answer.get("workspaceVisible")
    if not isinstance(seen, dict):
        raise Failure("the seam does not report workspaceVisible when asked for a write")
    ctx.equal(seen["writeTurn"], 1, "writeTurn")
    ctx.equal(seen["sameTurn"], False, "a workspace write seen by the turn that made it")
    ctx.equal(seen["nextTurn"], True, "a workspace write seen by the next turn")


def stateful_resume(ctx: Context) -> None:
    answer = ctx.seam(
        "/v1/host/sample/agentloop/run",
        {"turns": 3, "suspendAtTurn": 2, "resume": True},
        "sample-agentloop-run-response",
    )
    ctx.equal([d.get("iteration") for d in answer["decisions"]], [1, 2, 3], "iterations across the suspend")
    ctx.equal(answer.get("resumedIteration"), 2, "resumedIteration")
    if not ctx.has_fixture():
        return
    run_id, snap = ctx.loop([next_worker(memoryWrite="m-before"), ask_user(), terminate()])
    ctx.equal(snap["status"], "waiting-input", "ask-user suspends the loop")
    snap = ctx.resume(run_id)
    iterations = [e["payload"].get("iteration") for e in of_type(ctx.events(run_id), "runOrchestrator.decided")]
    ctx.equal(iterations, [1, 2, 3], "iterations of a resumed run")
    seen = _turn_inputs(snap)
    ctx.check(3 in seen and "m-before" in seen[3]["memory"], "the resumed turn keeps the memory snapshot lineage")


def loop_bound(ctx: Context) -> None:
    run_id, snap = ctx.loop([next_worker()], repeat_last=True, configurable={"maxLoopIterations": 3})
    ctx.equal(snap["status"], "failed", "a loop past its bound fails")
    ctx.equal(snap.get("error", {}).get("code"), "loop_limit_exceeded", "the run's error code")
    events = ctx.events(run_id)
    ctx.equal(len(of_type(events, "runOrchestrator.decided")), 3, "turns run under bound 3")
    breached = of_type(events, "cap.breached")
    ctx.equal(
        [b["payload"] for b in breached], [{"kind": "loop-iterations", "limit": 3, "observed": 4}], "cap.breached"
    )
    ctx.equal(events[-1]["type"], "run.failed", "the last event")
    ctx.equal(events[-1]["payload"]["error"]["code"], "loop_limit_exceeded", "run.failed error code")


SCENARIOS = (
    Scenario(
        "multi-agent-handoff-state-machine",
        BEHAVIOUR,
        "0037",
        "Version 1: one runOrchestrator.decided per turn; terminate completes; ask-user suspends and resumes.",
        rung(1),
        handoff_state_machine,
        "rungs-cumulative",
    ),
    Scenario(
        "multi-agent-confidence-escalation",
        BEHAVIOUR,
        "0039",
        "Version 2: a decision or a worker under the confidence floor escalates and suspends.",
        rung(2),
        confidence_escalation,
        "rungs-cumulative",
    ),
    Scenario(
        "multi-agent-memory-lifecycle",
        BEHAVIOUR,
        "0039",
        "Version 2: each turn reads memory as of its own start; a write shows from the next turn.",
        rung(2),
        memory_lifecycle,
        "writes-next-turn",
    ),
    Scenario(
        "multi-agent-cross-host-causation",
        BEHAVIOUR,
        "0040",
        "Version 3: work done on another host carries causationHostId, and so does the decision it causes.",
        rung(3),
        cross_host_causation,
        "rungs-cumulative",
    ),
    Scenario(
        "multi-agent-replay-determinism",
        BEHAVIOUR,
        "0041",
        "Version 4: re-executing the same script reproduces the same events.",
        rung(4),
        replay_determinism,
        "loop-rebuildable",
    ),
    Scenario(
        "agent-loop-version5-shape",
        CORPUS,
        "0061",
        "iteration is an integer >= 1 on every decision of a version-5 host; statefulResume is a boolean.",
        always,
        version5_shape,
        "iteration-set",
    ),
    Scenario(
        "agent-loop-iteration-monotonic",
        BEHAVIOUR,
        "0061",
        "iteration goes 1, 2, 3 with one step per runOrchestrator.decided.",
        rung(5),
        iteration_monotonic,
        "iteration-set",
    ),
    Scenario(
        "agent-loop-workspace-snapshot",
        BEHAVIOUR,
        "0061",
        "A workspace write in turn i is invisible to turn i and visible to turn i + 1.",
        both(rung(5), flag("host", "workspace", "supported")),
        workspace_snapshot,
        "writes-next-turn",
    ),
    Scenario(
        "agent-loop-stateful-resume",
        BEHAVIOUR,
        "0061",
        "A loop suspended on ask-user resumes at the same iteration with its snapshot lineage.",
        both(rung(5), flag("multiAgent", "executionModel", "statefulResume")),
        stateful_resume,
        "stateful-resume",
    ),
    Scenario(
        "run-execution-bounds-shape",
        BEHAVIOUR,
        "0061",
        "Turn N + 1 under bound N is refused with cap.breached {loop-iterations} and loop_limit_exceeded.",
        rung(1),
        loop_bound,
        "loop-bound",
    ),
)
