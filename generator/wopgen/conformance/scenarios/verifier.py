"""The verifier turn and convergence criteria (version 6, RFC 0090)."""

from __future__ import annotations

from typing import Any

from wopgen.conformance.model import (
    BEHAVIOUR,
    CORPUS,
    WORKER,
    Context,
    Scenario,
    always,
    flag,
    next_worker,
    of_type,
    rung,
    terminate,
)

_VERIFIED_MEMBERS = frozenset({"agentId", "target", "verdict", "criteria", "confidence", "causationHostId"})
_MARKER = "CONFIDENTIAL-7f3a"


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)] + [k for k in value]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def verified_shape(ctx: Context) -> None:
    pointer = ctx.payload_pointer("agent.verified")
    good = {"agentId": "core.sample.critic", "target": "e42", "verdict": "pass"}
    ctx.valid("run-event-payloads", good, "a minimal agent.verified", pointer)
    full = {**good, "criteria": ["grounded", "schema-valid"], "confidence": 0.9, "causationHostId": "host-b"}
    ctx.valid("run-event-payloads", full, "a complete agent.verified", pointer)
    ctx.invalid("run-event-payloads", {**good, "verdict": "ok"}, "verdict ok", pointer)
    ctx.invalid("run-event-payloads", {**good, "content": "the checked text"}, "a content member", pointer)
    ctx.invalid("run-event-payloads", {**good, "criteria": ["a", "a"]}, "repeated criteria", pointer)
    ctx.invalid("run-event-payloads", {**good, "confidence": 1.5}, "confidence 1.5", pointer)
    ctx.invalid("run-event-payloads", {"agentId": "c1x", "verdict": "pass"}, "a verdict without target", pointer)
    criteria = [{"key": "goal-answered", "met": True}]
    ctx.valid("orchestrator-decision", {"kind": "terminate", "successCriteria": criteria}, "successCriteria")
    ctx.invalid(
        "orchestrator-decision", {"kind": "terminate", "successCriteria": [{"key": "k"}]}, "an entry without met"
    )
    evidence = [{"key": "k", "met": True, "evidence": "text"}]
    ctx.invalid("orchestrator-decision", {"kind": "terminate", "successCriteria": evidence}, "evidence text")


def gating(ctx: Context) -> None:
    seam = "/v1/host/sample/agents/verify-run"
    failed = ctx.seam(seam, {"simulateVerdict": "fail"}, "sample-verify-run-response")
    ctx.equal(failed["committed"], False, "a result that failed verification is committed")
    ctx.check(failed["status"] != "completed", "a fail verdict must not end the run as a success")
    passed = ctx.seam(seam, {"simulateVerdict": "pass"}, "sample-verify-run-response")
    ctx.equal(passed["committed"], True, "a result that passed verification is committed")
    ctx.equal(passed["status"], "completed", "a pass verdict lets the run complete")
    if not ctx.has_fixture():
        return

    run_id, snap = ctx.loop([next_worker(result="draft", verdict="revise", revisedResult="better"), terminate()])
    events = ctx.events(run_id)
    actors = [e for e in of_type(events, "agent.decided") if e["payload"]["agentId"] == WORKER]
    ctx.check(len(actors) == 2, f"revise routes to another actor turn: {len(actors)} worker turns")
    first_verdict = of_type(events, "agent.verified")[0]
    ctx.check(actors[1]["sequence"] > first_verdict["sequence"], "the second actor turn follows the revise verdict")
    ctx.equal(snap["status"], "completed", "the revised result passes and the run completes")

    run_id, snap = ctx.loop(
        [next_worker(result="wrong", verdict="fail"), terminate(successCriteria=[{"key": "k", "met": True}])]
    )
    ctx.check(snap["status"] != "completed", "a run whose result failed verification completed at once")
    if snap["status"] == "waiting-input":
        snap = ctx.resume(run_id)
    ctx.check(snap["status"] != "completed", "a success terminate after an uncleared fail completed the run")

    run_id, snap = ctx.loop([next_worker(result="x", verdict="fail", critic=WORKER)])
    verifications = snap.get("variables", {}).get("loop", {}).get("verifications", [])
    ctx.check(
        any(v.get("selfVerification") is True for v in verifications),
        "self-verification is surfaced (variables.loop.verifications[].selfVerification)",
    )


def no_content_leak(ctx: Context) -> None:
    secret = {"answer": f"{_MARKER} the refund is 30 days", "notes": [f"{_MARKER}-note"]}
    turns = [
        next_worker(result=secret, verdict="revise", revisedResult=f"{_MARKER} revised", verdictConfidence=0.9),
        next_worker(result=f"{_MARKER} text", verdict="pass"),
        next_worker(result=f"{_MARKER} text", verdict="fail"),
    ]
    run_id, _ = ctx.loop(turns)
    verified = [e["payload"] for e in of_type(ctx.events(run_id), "agent.verified")]
    answer = ctx.seam("/v1/host/sample/agents/verify-run", {"simulateVerdict": "fail"}, "sample-verify-run-response")
    if "verified" in answer:
        verified.append(answer["verified"])
    ctx.check(len(verified) >= 3, "the critic's verdicts are emitted as agent.verified")
    for payload in verified:
        ctx.check(set(payload) <= _VERIFIED_MEMBERS, f"agent.verified has undeclared members {sorted(payload)}")
        leaked = [s for s in _strings(payload) if _MARKER in s or "refund" in s]
        ctx.check(not leaked, f"agent.verified carries the checked content: {leaked[:1]}")


def convergence(ctx: Context) -> None:
    criteria = [{"key": "tests-green", "met": True}, {"key": "docs-updated", "met": False}]
    run_id, snap = ctx.loop([next_worker(), terminate(successCriteria=criteria)])
    ctx.equal(snap["status"], "completed", "a give-up still completes the run")
    done = of_type(ctx.events(run_id), "run.completed")[0]["payload"]
    ctx.equal(done.get("goalMet"), False, "run.completed goalMet after a met: false criterion")
    ctx.equal(snap.get("variables", {}).get("loop", {}).get("outcome"), "give-up", "the recorded outcome")
    run_id, snap = ctx.loop([terminate(successCriteria=[{"key": "tests-green", "met": True}])])
    ctx.equal(of_type(ctx.events(run_id), "run.completed")[0]["payload"].get("goalMet"), True, "goalMet when all met")


SCENARIOS = (
    Scenario(
        "agent-verified-shape",
        CORPUS,
        "0090",
        "agent.verified validates, its verdict and members are closed, successCriteria validates on terminate.",
        always,
        verified_shape,
        "verified-content-free",
    ),
    Scenario(
        "verifier-gating",
        BEHAVIOUR,
        "0090",
        "fail blocks the commit and a success terminate; pass commits; revise routes to another actor turn.",
        flag("multiAgent", "executionModel", "verifier", "gating"),
        gating,
        "fail-not-success",
    ),
    Scenario(
        "verifier-no-content-leak",
        BEHAVIOUR,
        "0090",
        "No agent.verified payload carries the content it checked.",
        flag("multiAgent", "executionModel", "verifier", "supported"),
        no_content_leak,
        "verified-content-free",
    ),
    Scenario(
        "verifier-convergence-give-up",
        BEHAVIOUR,
        "0090",
        "A terminate whose successCriteria has met: false is recorded as a give-up, not as the goal met.",
        rung(6),
        convergence,
        "give-up",
    ),
)
