"""The run surface every host serves: discovery, auth, errors, runs, snapshots, events."""

from __future__ import annotations

from wopgen.conformance.model import Context, Scenario, always, of_type


def run_surface(ctx: Context) -> None:
    reply = ctx.request("GET", "/.well-known/openwop", auth=False)
    ctx.equal(reply.status, 200, "discovery without a key")
    ctx.valid("capabilities", reply.body, "the discovery document")
    legacy = reply.body.get("capabilities")
    for family in legacy if isinstance(legacy, dict) else {}:
        ctx.check(family in reply.body, f"the family {family} sits only under the legacy capabilities wrapper")

    ctx.error(
        ctx.request("POST", "/v1/runs", {"workflowId": "w"}, auth=False), "unauthenticated", "a run without a key"
    )
    ctx.error(ctx.request("GET", "/v1/runs/no-such-run"), "not_found", "an unknown run")
    ctx.error(ctx.request("POST", "/v1/runs", raw=b"{not json"), "validation_error", "a malformed body")
    ctx.error(ctx.request("POST", "/v1/runs", raw=b"[1, 2]"), "validation_error", "a body that is not an object")
    ctx.error(
        ctx.request("POST", "/v1/runs", {"workflowId": "w", "undeclared": True}),
        "validation_error",
        "an undeclared member",
    )
    ctx.error(
        ctx.request("POST", "/v1/runs", {"workflowId": "w", "mode": "benchmark"}), "validation_error", "mode benchmark"
    )
    limit = reply.body.get("limits", {}).get("maxRequestBodyBytes")
    if isinstance(limit, int) and limit < 8_000_000:
        oversized = b'{"workflowId": "' + b"x" * limit + b'"}'
        ctx.error(ctx.request("POST", "/v1/runs", raw=oversized), "validation_error", "a body over maxRequestBodyBytes")

    run_id = ctx.create({"workflowId": "conformance.noop", "inputs": {"greeting": "hello"}, "tags": ["conformance"]})
    snap = ctx.settle(run_id)
    ctx.equal(snap["runId"], run_id, "snapshot runId")
    events = ctx.events(run_id)
    ctx.check(bool(events) and events[0]["type"] == "run.started", "the log starts with run.started")
    if snap["status"] in ("completed", "failed"):
        ctx.check(events[-1]["type"] in ("run.completed", "run.failed"), "a finished run's log ends with its end")
        poll = ctx.request("GET", f"/v1/runs/{run_id}/events/poll?lastSequence={events[-1]['sequence']}")
        ctx.equal(poll.body, {"events": [], "isComplete": True}, "polling past the end")
        streamed = ctx.transport.stream(f"/v1/runs/{run_id}/events")
        ctx.equal([e["sequence"] for e in streamed], [e["sequence"] for e in events], "SSE delivers the polled events")
        ctx.error(ctx.request("POST", f"/v1/runs/{run_id}/resume", {}), "conflict", "resuming a finished run")
    ctx.error(ctx.request("GET", f"/v1/runs/{run_id}/eval-summary"), "not_found", "the scorecard of a non-eval run")

    if not reply.body.get("agents", {}).get("evalSuite", {}).get("supported"):
        answer = ctx.request("POST", "/v1/runs", {"mode": "eval", "evalSuiteRef": "core.openwop.evals.sample"})
        ctx.error(answer, "capability_not_provided", "an eval run on a host without agents.evalSuite")
    ctx.check(not of_type(events, "eval.started"), "an ordinary run emits no eval events")


SCENARIOS = (
    Scenario(
        "core-run-surface",
        "shape",
        None,
        "Discovery is public and valid; runs need the key; errors are envelopes with their status; events poll and stream.",
        always,
        run_surface,
    ),
)
