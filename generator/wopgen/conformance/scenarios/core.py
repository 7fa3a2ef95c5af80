"""The run surface every host serves: discovery, auth, errors, runs, snapshots, events, cancel, workflows.

Runs are started only on fixture workflows of the catalogue (`conformance-noop`,
`conformance-cancellable`) that the host lists in its discovery `fixtures`.
"""

from __future__ import annotations

from typing import Any

from wopgen.conformance.model import CORE, SETTLED, Context, Scenario, always
from wopgen.conformance.transport import TERMINAL_EVENTS
from wopgen.corpus.vocabulary import CANCEL_FIXTURE, NOOP_FIXTURE

_GATED: dict[str, tuple[tuple[str, ...], ...]] = {  # event-type prefix -> discovery paths, any of which gates it
    "eval.": (("agents", "evalSuite", "supported"),),
    "verification.": (
        ("verificationGates", "supported"),
        ("multiAgent", "executionModel", "verifier", "gates", "supported"),
    ),
    "agent.verified": (("multiAgent", "executionModel", "verifier", "supported"),),
    "runOrchestrator.decided": (("multiAgent", "executionModel", "supported"),),
    "workspace.written": (("host", "workspace", "supported"),),
}


def _advertised(caps: dict[str, Any], path: tuple[str, ...]) -> bool:
    node: Any = caps
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    return node is True


def _gated_events(ctx: Context, events: list[dict[str, Any]]) -> None:
    for event in events:
        for prefix, paths in _GATED.items():
            if str(event.get("type", "")).startswith(prefix):
                ctx.check(
                    any(_advertised(ctx.caps, path) for path in paths),
                    f"{event['type']} emitted while {'.'.join(paths[0])} is not advertised",
                    "gated-events",
                )


def _discovery(ctx: Context) -> None:
    reply = ctx.request("GET", "/.well-known/openwop", auth=False)
    ctx.equal(reply.status, 200, "discovery without a key", "discovery-public")
    body: dict[str, Any] = reply.body if isinstance(reply.body, dict) else {}
    found = body.get("limits")
    limits: dict[str, Any] = found if isinstance(found, dict) else {}
    for name in ("clarificationRounds", "schemaRounds", "envelopesPerTurn"):
        ctx.check(isinstance(limits.get(name), int), f"limits.{name} is missing or not an integer", "limits-present")
    legacy = body.get("capabilities")
    for family in legacy if isinstance(legacy, dict) else {}:
        ctx.check(
            family in body, f"the family {family} sits only under the legacy capabilities wrapper", "families-at-root"
        )


def _refusals(ctx: Context) -> None:
    reply = ctx.request("POST", "/v1/runs", {"workflowId": NOOP_FIXTURE}, auth=False)
    ctx.error(reply, "unauthenticated", "a run without a key", "bearer-required")
    ctx.error(ctx.request("GET", "/v1/runs/conformance-no-such-run"), "not_found", "an unknown run", "unknown-run")
    for what, raw in (("a body that is not JSON", b"{not json"), ("a JSON array body", b"[1, 2]")):
        ctx.error(ctx.request("POST", "/v1/runs", raw=raw), "validation_error", what, "malformed-body")
    limit = ctx.caps.get("limits", {}).get("maxRequestBodyBytes")
    if isinstance(limit, int) and limit < 8_000_000:
        oversized = b'{"workflowId": "' + b"x" * limit + b'"}'
        ctx.failed_status(
            ctx.request("POST", "/v1/runs", raw=oversized), 400, 499, "a body over the limit", "body-limit"
        )


def _lifecycle(ctx: Context) -> None:
    run_id = ctx.create({"workflowId": NOOP_FIXTURE, "inputs": {"greeting": "hello"}, "tags": ["conformance"]})
    snap = ctx.settle(run_id)
    ctx.equal(snap.get("runId"), run_id, "snapshot runId", "snapshot-shape")
    if ctx.transport.second_key:  # 403 and 404 both keep the MUST; 404 is only recommended (RFC 0902)
        for path in (f"/v1/runs/{run_id}", f"/v1/runs/{run_id}/events/poll?lastSequence=-1"):
            other = ctx.request("GET", path, key=ctx.transport.second_key)
            ctx.failed_status(other, 403, 404, f"GET {path} with a key of another owner scope", "owner-scope")
    events = ctx.events(run_id)
    _gated_events(ctx, events)
    with ctx.under("log-bounds"):
        ctx.check(bool(events) and events[0].get("type") == "run.started", "the log starts with run.started")
        if snap["status"] not in ("completed", "failed", "cancelled"):
            return
        last = events[-1].get("type") if events else None
        ctx.check(last in TERMINAL_EVENTS, f"a finished run's log ends with its terminal event, not {last}")
    if not events:
        return
    poll = ctx.request("GET", f"/v1/runs/{run_id}/events/poll?lastSequence={events[-1]['sequence']}")
    body = poll.body if isinstance(poll.body, dict) else {}
    with ctx.under("poll-complete"):
        ctx.equal(poll.status, 200, "polling past the end: status")
        ctx.equal(body.get("events"), [], "polling past the end: events")
        if "isComplete" in body:
            ctx.equal(body["isComplete"], True, "polling past the end: isComplete")
        else:
            ctx.check(False, "polling past the end: the answer has no isComplete (expected true)")
    streamed = ctx.stream(f"/v1/runs/{run_id}/events")
    with ctx.under("sse-closes"):
        ctx.equal(streamed.status, 200, "the event stream: status")
        ctx.check(not streamed.problem, f"the event stream of a finished run: {streamed.problem}")
    if isinstance(streamed.body, list):
        # Each streamed event carries the envelope and, for a slice type, a valid payload; the stream
        # delivers the run's events in order, as the poll did (events-in-order). The order is compared
        # whatever the payloads; only an event without an integer sequence leaves nothing to compare,
        # and the report says so (the missing member is already a finding of event-envelope).
        for event in streamed.body:
            ctx.valid_event(event, "streamed")
        got = [e.get("sequence") for e in streamed.body]
        unsequenced = [i for i, n in enumerate(got) if not isinstance(n, int) or isinstance(n, bool)]
        if unsequenced:
            ctx.note(f"the SSE order was not compared: streamed events at {unsequenced[:5]} carry no integer sequence")
        else:
            polled = [e.get("sequence") for e in events]
            ctx.equal(got, polled, "SSE delivers the polled events in order", "events-in-order")
    if _offers_resume(ctx.caps):
        reply = ctx.request("POST", f"/v1/runs/{run_id}:resume", {"reason": "conformance"})
        ctx.error(reply, "conflict", "resuming a finished run", "resume-conflict")


# Where a host says it resumes runs: the published family of `:pause` and `:resume`, or suspended loops.
_RESUMES = (("runs", "pauseResume", "supported"), ("multiAgent", "executionModel", "statefulResume"))


def _offers_resume(caps: dict[str, Any]) -> bool:
    """Whether the host says it resumes runs (one of `_RESUMES` is advertised)."""
    return any(_advertised(caps, path) for path in _RESUMES)


def run_surface(ctx: Context) -> None:
    _discovery(ctx)
    _refusals(ctx)
    ctx.need_fixture(NOOP_FIXTURE)
    _lifecycle(ctx)


def cancel(ctx: Context) -> None:
    ctx.need_fixture(CANCEL_FIXTURE)
    run_id = ctx.create({"workflowId": CANCEL_FIXTURE, "inputs": {"delayMs": 30000}})
    reply = ctx.request("POST", f"/v1/runs/{run_id}/cancel", {"reason": "conformance"})
    with ctx.under("cancel"):
        ctx.require(200 <= reply.status < 300, f"cancelling a running run answered {reply.status}")
        snap = ctx.settle(run_id)
        ctx.equal(snap["status"], "cancelled", "the status after a cancel")
        events = ctx.events(run_id)
        ctx.equal(events[-1].get("type") if events else None, "run.cancelled", "the last event after a cancel")
    ctx.check(snap["status"] in SETTLED, "the cancelled run settled", "cancel")


def workflows(ctx: Context) -> None:
    reply = ctx.request("GET", "/v1/openapi.json", auth=False)
    with ctx.under("openapi-served"):
        ctx.equal(reply.status, 200, "GET /v1/openapi.json without a key")
        ctx.check(isinstance(reply.body, dict), "the OpenAPI document is a JSON object")
    listed = ctx.caps.get("fixtures")
    for fixture in sorted(listed)[:20] if isinstance(listed, list) else []:
        answer = ctx.request("GET", f"/v1/workflows/{fixture}")
        with ctx.under("workflow-definition"):
            if ctx.equal(answer.status, 200, f"GET /v1/workflows/{fixture}"):
                found = answer.body.get("id") if isinstance(answer.body, dict) else None
                ctx.equal(found, fixture, f"the id of workflow {fixture}")


SCENARIOS = (
    Scenario(
        "core-run-surface",
        CORE,
        None,
        "Discovery is public; runs need the key; refusals are envelopes; a fixture run's events poll and stream.",
        always,
        run_surface,
        "error-envelope",
    ),
    Scenario(
        "core-run-cancel",
        CORE,
        None,
        "Cancelling a running run of conformance-cancellable ends it cancelled, run.cancelled last in its log.",
        always,
        cancel,
        "cancel",
    ),
    Scenario(
        "core-workflows",
        CORE,
        None,
        "The OpenAPI document is served without a key; every listed fixture's definition is served by id.",
        always,
        workflows,
        "workflow-definition",
    ),
)
