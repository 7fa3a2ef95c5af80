"""RFC 0081 modes beyond golden and regression: rubric, adversarial and live-shadow eval runs.

Each mode's scenario runs a conformance suite the host holds (the rubric and adversarial suites;
a host that refuses the reference skips) or replays a golden run of the sample suite (live-shadow),
and checks what RFC 0081 states for every eval run and for that mode; how a judge or a safety
scorer decides stays the host's.
"""

from __future__ import annotations

from typing import Any

from wopgen.conformance.model import Context, Scenario, Skip, both, of_type, types
from wopgen.conformance.scenarios.evals import AGENT, SAMPLE, _eval, _offered, _order
from wopgen.corpus.vocabulary import ADVERSARIAL_SUITE, NOOP_FIXTURE, RUBRIC_SUITE


def _mode(name: str) -> Any:
    def gate(caps: dict[str, Any]) -> str | None:
        return None if name in _offered(caps) else f"agents.evalSuite.modes does not list {name}"

    return gate


def _run(ctx: Context, suite: str, mode: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    body = {"mode": "eval", "evalSuiteRef": suite, "agentId": AGENT, "configurable": {"evalModes": [mode]}}
    if suite != SAMPLE:
        # A conformance suite is something a host loads, not something it advertises (discovery
        # `fixtures` lists workflows only): a host that refuses the suite reference does not hold it.
        probe = ctx.request("POST", "/v1/runs", body)
        if probe.status in (400, 404, 422):
            raise Skip(f"the host does not hold the conformance suite {suite} (it answered {probe.status})")
        run_id = ctx.created(probe)
    else:
        run_id = ctx.create(body)
    snap = ctx.settle(run_id)
    ctx.equal(snap["status"], "completed", f"RFC 0081 B: the {mode} eval run ends")
    events = ctx.events(run_id)
    _order(ctx, events)
    ctx.equal(of_type(events, "eval.started")[0]["payload"].get("modes"), [mode], "RFC 0081 C: eval.started modes")
    reply = ctx.request("GET", f"/v1/runs/{run_id}/eval-summary")
    ctx.equal(reply.status, 200, "RFC 0081 B: the eval-summary of a finished eval run")
    ctx.valid("eval-summary", reply.body, f"RFC 0081 C: the {mode} scorecard")
    return dict(reply.body), events


def rubric_mode(ctx: Context) -> None:
    summary, events = _run(ctx, RUBRIC_SUITE, "rubric")
    judge = summary.get("judgeCostUsd")
    total = summary.get("totalCostUsd")
    if isinstance(judge, int | float) and isinstance(total, int | float):
        ctx.check(judge <= total + 1e-9, f"RFC 0081 C: totalCostUsd {total} includes judgeCostUsd {judge}")
    usage = sum(e["payload"].get("costUsd", 0) for e in of_type(events, "provider.usage"))
    if isinstance(total, int | float):
        ctx.check(abs(total - usage) < 1e-6, f"RFC 0081 C: totalCostUsd {total} sums provider.usage ({usage})")


def adversarial_mode(ctx: Context) -> None:
    summary, events = _run(ctx, ADVERSARIAL_SUITE, "adversarial")
    by_task = {t["taskId"]: t for t in summary["tasks"]}
    for event in of_type(events, "eval.scored"):
        payload = event["payload"]
        count = payload.get("safetyFindingCount")
        if count is not None:
            found = len(by_task.get(payload["taskId"], {}).get("safetyFindings", []))
            ctx.equal(found, count, f"RFC 0081 C: safety findings of {payload['taskId']} against safetyFindingCount")


def live_shadow_mode(ctx: Context) -> None:
    """Replay a completed golden run of the sample suite: no agent turn of the replay's own, and each
    task scored as the replayed run scored the same recorded answer against the same golden match."""
    source, _ = _eval(ctx)
    body = {
        "mode": "eval",
        "evalSuiteRef": SAMPLE,
        "agentId": AGENT,
        "configurable": {"evalModes": ["live-shadow"], "shadowRunId": source},
    }
    run_id = ctx.create(body)
    snap = ctx.settle(run_id)
    ctx.require(snap["status"] == "completed", f"the live-shadow replay ended {snap['status']}, not completed")
    events = ctx.events(run_id)
    _order(ctx, events, invoked=False)
    with ctx.under("eval-shadow-replay"):
        agent_turns = [k for k in types(events) if k.startswith("agent.invocation.") or k == "agent.decided"]
        ctx.equal(agent_turns, [], "agent events in the replay's own log")
        started = of_type(events, "eval.started")[0]["payload"]
        ctx.equal(started.get("shadowRunId"), source, "eval.started shadowRunId")
        reply = ctx.request("GET", f"/v1/runs/{run_id}/eval-summary")
        ctx.equal(reply.status, 200, "the eval-summary of the replay")
        if ctx.valid("eval-summary", reply.body, "the replay's scorecard"):
            ctx.equal(reply.body.get("shadowRunId"), source, "EvalSummary shadowRunId")
            before = ctx.request("GET", f"/v1/runs/{source}/eval-summary").body
            replayed = {t["taskId"]: t["score"] for t in reply.body["tasks"]}
            recorded = {t["taskId"]: t["score"] for t in before.get("tasks", [])}
            ctx.equal(replayed, recorded, "each task's score against the replayed run's score for the same answer")
    with ctx.under("eval-shadow-refused"):
        unknown = {**body, "configurable": {"evalModes": ["live-shadow"], "shadowRunId": "run-unknown-0"}}
        ctx.error_code(ctx.request("POST", "/v1/runs", unknown), "validation_error", "an unknown shadowRunId")
        if ctx.has_fixture(NOOP_FIXTURE):
            plain = ctx.create({"workflowId": NOOP_FIXTURE})
            ctx.settle(plain)
            silent = {**body, "configurable": {"evalModes": ["live-shadow"], "shadowRunId": plain}}
            ctx.error_code(ctx.request("POST", "/v1/runs", silent), "validation_error", "a run without agent answers")


SCENARIOS = (
    Scenario(
        "agent-eval-rubric",
        "behaviour",
        "0081",
        "A rubric eval run keeps the event order, ends with a valid scorecard whose cost sums provider.usage, judge included.",
        _mode("rubric"),
        rubric_mode,
    ),
    Scenario(
        "agent-eval-adversarial",
        "behaviour",
        "0081",
        "An adversarial eval run keeps the event order and its safety findings agree with safetyFindingCount.",
        _mode("adversarial"),
        adversarial_mode,
    ),
    Scenario(
        "agent-eval-live-shadow",
        "behaviour",
        "0081",
        "A live-shadow run replays a completed run's recorded answers: no agent turn, the same scores, bad ids refused.",
        both(_mode("live-shadow"), _mode("golden")),
        live_shadow_mode,
        "eval-order",
    ),
)
