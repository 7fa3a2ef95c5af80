"""Agent evaluation (RFC 0081): the suite and scorecard shapes, eval runs, regression."""

from __future__ import annotations

from typing import Any

from wopgen.conformance.model import (
    BEHAVIOUR,
    CORE,
    CORPUS,
    Context,
    Scenario,
    always,
    both,
    flag,
    of_type,
    types,
)
from wopgen.corpus.vocabulary import NOOP_FIXTURE

SAMPLE = "core.openwop.evals.sample"
AGENT = "core.sample.worker"  # `agentId` is required when `mode` is `eval`
MODES = ("golden", "rubric", "adversarial", "regression", "live-shadow")
_EVAL_ORDER = ("agent.invocation.started", "agent.invocation.completed", "eval.scored")


def _offered(caps: dict[str, Any]) -> list[str]:
    return list(caps.get("agents", {}).get("evalSuite", {}).get("modes", []))


def _regression_offered(caps: dict[str, Any]) -> str | None:
    return None if "regression" in _offered(caps) else "agents.evalSuite.modes does not list regression"


def _unadvertised(caps: dict[str, Any]) -> str | None:
    if caps.get("agents", {}).get("evalSuite", {}).get("supported") is True:
        return "agents.evalSuite is advertised: the agent-eval-* scenarios hold the host to it"
    return None


def unadvertised(ctx: Context) -> None:
    """A host that does not offer evaluation refuses an eval run with 501. This is its own scenario, not a
    part of core-run-surface: a host older than RFC 0081 refuses the then-unknown `mode` with 400, and
    it keeps passing every scenario it passed before (spec/rfcs/0081-agent-evaluation.md#compatibility)."""
    body = {"mode": "eval", "evalSuiteRef": SAMPLE, "agentId": AGENT}
    ctx.error_code(ctx.request("POST", "/v1/runs", body), "capability_not_provided", "an eval run", "eval-501")


def suite_shape(ctx: Context) -> None:
    task = {"taskId": "t1", "input": {}, "expected": {"kind": "golden", "match": {"strategy": "exact", "value": 1}}}
    suite = {"suiteId": "core.acme.evals.sample", "version": "1.0.0", "modes": ["golden"], "tasks": [task]}
    ctx.valid("agent-eval-suite", suite, "a minimal suite")
    ctx.invalid("agent-eval-suite", {**suite, "thresholds": {"passScore": 1.5}}, "passScore 1.5")
    ctx.invalid("agent-eval-suite", {**suite, "modes": ["benchmark"]}, "an unknown mode")
    ctx.invalid("agent-eval-suite", {**suite, "suiteId": "core.acme.sample"}, "a suiteId without .evals.")
    for mode in MODES:
        ctx.valid("agent-eval-suite", {**suite, "modes": [mode]}, f"mode {mode}")
    pointer = ctx.payload_pointer("eval.scored")
    ctx.valid("run-event-payloads", {"taskId": "t1", "score": 0.5, "passed": False}, "an eval.scored", pointer)
    ctx.invalid(
        "run-event-payloads", {"taskId": "t1", "score": 1, "passed": True, "taskOutput": "x"}, "taskOutput", pointer
    )
    summary = {
        "suiteId": "core.acme.evals.sample",
        "suiteVersion": "1.0.0",
        "aggregateScore": 1,
        "passed": True,
        "taskCount": 1,
        "passedCount": 1,
        "tasks": [{"taskId": "t1", "score": 1, "passed": True}],
    }
    ctx.valid("eval-summary", summary, "a minimal scorecard")
    ctx.invalid(
        "eval-summary",
        {**summary, "tasks": [{"taskId": "t1", "score": 1, "passed": True, "output": "x"}]},
        "task output",
    )


def _eval(ctx: Context, **extra: Any) -> tuple[str, list[dict[str, Any]]]:
    run_id = ctx.create({"mode": "eval", "evalSuiteRef": SAMPLE, "agentId": AGENT, **extra})
    snap = ctx.settle(run_id)
    ctx.require(snap["status"] == "completed", f"the eval run ended {snap['status']}, not completed")
    return run_id, ctx.events(run_id)


def _order(ctx: Context, events: list[dict[str, Any]], *, invoked: bool = True) -> None:
    """The RFC 0081 C order; `invoked` is False for a live-shadow replay, which brackets no agent turn."""
    kinds = types(events)
    ctx.equal(kinds.count("eval.started"), 1, "eval.started count")
    ctx.equal(kinds.count("eval.completed"), 1, "eval.completed count")
    started, completed = kinds.index("eval.started"), kinds.index("eval.completed")
    count = events[started]["payload"]["taskCount"]
    scored = [i for i, k in enumerate(kinds) if k == "eval.scored"]
    ctx.equal(len(scored), count, "eval.scored events against eval.started.taskCount")
    ctx.check(all(started < i < completed for i in scored), "eval.scored falls between eval.started and eval.completed")
    ctx.check(completed < kinds.index("run.completed"), "eval.completed comes before run.completed")
    inside = [k for k in kinds[started + 1 : completed] if k in _EVAL_ORDER]
    if invoked:
        ctx.equal(inside, list(_EVAL_ORDER) * count, "each task's invocation bracket closes before it is scored")


def eval_run(ctx: Context) -> None:
    offered = _offered(ctx.caps)
    ctx.check(
        set(offered) <= set(MODES), f"advertised eval modes outside the closed five: {offered}", "eval-modes-real"
    )
    run_id, events = _eval(ctx)
    _order(ctx, events)
    reply = ctx.request("GET", f"/v1/runs/{run_id}/eval-summary")
    ctx.equal(reply.status, 200, "eval-summary status")
    ctx.valid("eval-summary", reply.body, "the scorecard")
    ctx.equal(reply.body, of_type(events, "run.completed")[0]["payload"].get("output"), "the run's output")
    ctx.equal(reply.body["taskCount"], len(of_type(events, "eval.scored")), "scorecard taskCount")
    ctx.equal(reply.body["passedCount"], sum(t["passed"] for t in reply.body["tasks"]), "scorecard passedCount")
    completed = of_type(events, "eval.completed")[0]["payload"]
    ctx.equal(completed["aggregateScore"], reply.body["aggregateScore"], "eval.completed against the scorecard")

    if ctx.has_fixture(NOOP_FIXTURE):
        plain = ctx.create({"workflowId": NOOP_FIXTURE})
        ctx.settle(plain)
        reply = ctx.request("GET", f"/v1/runs/{plain}/eval-summary")
        ctx.error_code(reply, "not_found", "the scorecard of a run that is not an eval run", "eval-summary-read")
    missing = [m for m in MODES if m not in _offered(ctx.caps)]
    if missing:
        body = {"mode": "eval", "evalSuiteRef": SAMPLE, "agentId": AGENT, "configurable": {"evalModes": [missing[0]]}}
        reply = ctx.request("POST", "/v1/runs", body)
        ctx.error_code(reply, "validation_error", f"the unadvertised mode {missing[0]}", "eval-mode-refused")
    seam = ctx.request("POST", "/v1/host/sample/agents/eval-run", {"taskCount": 2})
    if seam.status not in (404, 405):
        ctx.equal(seam.status, 200, "eval-run seam status")
        ctx.valid("sample-eval-run-response", seam.body, "the eval-run seam answer")
        summary = ctx.request("GET", f"/v1/runs/{seam.body['runId']}/eval-summary").body
        ctx.equal(seam.body["aggregateScore"], summary["aggregateScore"], "the seam's headline against its scorecard")
        _order(ctx, ctx.events(seam.body["runId"]))


def regression(ctx: Context) -> None:
    baseline, _ = _eval(ctx)
    run_id, events = _eval(ctx, configurable={"evalModes": ["golden", "regression"], "baselineRunId": baseline})
    _order(ctx, events)
    ctx.equal(
        of_type(events, "eval.started")[0]["payload"].get("baselineRunId"), baseline, "eval.started baselineRunId"
    )
    summary = ctx.request("GET", f"/v1/runs/{run_id}/eval-summary").body
    before = ctx.request("GET", f"/v1/runs/{baseline}/eval-summary").body
    delta = summary.get("regression", {}).get("scoreDelta")
    ctx.equal(summary.get("regression", {}).get("baselineRunId"), baseline, "regression.baselineRunId")
    ctx.check(
        isinstance(delta, int | float) and abs(delta - (summary["aggregateScore"] - before["aggregateScore"])) < 1e-6,
        f"scoreDelta {delta} is the score change against the baseline",
    )
    ctx.equal(
        of_type(events, "eval.completed")[0]["payload"].get("regressionVsBaseline"), delta, "regressionVsBaseline"
    )


SCENARIOS = (
    Scenario(
        "agent-eval-suite-shape",
        CORPUS,
        "0081",
        "Suite, scorecard and eval.* payloads validate; five closed modes; out-of-range and content-bearing shapes fail.",
        always,
        suite_shape,
        "eval-content-free",
    ),
    Scenario(
        "agent-eval-unadvertised",
        CORE,
        "0081",
        "A host that does not advertise agents.evalSuite answers an eval run with 501 capability_not_provided.",
        _unadvertised,
        unadvertised,
        "eval-501",
        unoffered=True,
    ),
    Scenario(
        "agent-eval-run",
        BEHAVIOUR,
        "0081",
        "An eval run emits eval.started, a bracket and eval.scored per task, eval.completed, then run.completed.",
        flag("agents", "evalSuite", "supported"),
        eval_run,
        "eval-order",
    ),
    Scenario(
        "agent-eval-regression",
        BEHAVIOUR,
        "0081",
        "Regression mode compares with baselineRunId: scoreDelta and regressionVsBaseline agree with both scorecards.",
        both(flag("agents", "evalSuite", "supported"), _regression_offered),
        regression,
        "eval-order",
    ),
)
