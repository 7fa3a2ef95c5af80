"""Event assertions claim what run-surface.md's two event MUSTs say and nothing stronger.

Line 52: every event carries six envelope members (their presence). Line 53: the payload of an event
of a type the slice defines validates against its payload `$def`. No MUST makes the whole envelope
schema normative, so an optional member such as `nodeId: null` is no finding, whatever the type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from host.host_helpers import Rewritten, event
from wopgen.conformance.clauses import where
from wopgen.conformance.inprocess import in_process
from wopgen.conformance.model import Context
from wopgen.conformance.runner import run
from wopgen.conformance.scenarios import BY_NAME
from wopgen.conformance.transport import Reply

Events = Callable[[list[dict[str, Any]]], list[dict[str, Any]]]


@pytest.fixture
def ctx(module, repo_corpus) -> Context:
    return Context(in_process(module, "core"), repo_corpus, {})


@pytest.mark.parametrize("kind", ["memory.written", "node.started"])  # a slice type and one no reader knows
def test_a_null_node_id_is_no_finding_on_any_event_type(ctx, kind):
    payload = {"memoryRef": "m", "memoryId": "m1"} if kind == "memory.written" else {}
    assert ctx.valid_event(event(3, kind, payload=payload, nodeId=None, causationId=7, schemaVersion="x"))
    assert ctx.findings == []


def test_a_null_payload_of_a_slice_type_breaks_its_payload_def_in_json_spelling(ctx, repo_corpus):
    assert not ctx.valid_event(event(0, "run.started", payload=None), "streamed")
    (finding,) = ctx.findings
    assert (finding.clause, finding.where) == ("known-payloads", where(repo_corpus, "known-payloads"))
    assert finding.where.endswith("run-surface.md:53")
    assert finding.message.startswith("the payload of streamed event 0 (run.started) breaks run-event-payloads")
    assert "null is not of type 'object'" in finding.message and "None" not in finding.message


def test_a_null_payload_of_an_unknown_type_is_skipped_past_its_envelope(ctx):
    assert ctx.valid_event(event(0, "node.started", payload=None))
    assert ctx.findings == []


def test_a_missing_envelope_member_cites_the_envelope_must(ctx, repo_corpus):
    bare = event(2, "node.started")
    del bare["timestamp"], bare["payload"]
    assert not ctx.valid_event(bare)
    (finding,) = ctx.findings
    assert (finding.clause, finding.where) == ("event-envelope", where(repo_corpus, "event-envelope"))
    assert finding.where.endswith("run-surface.md:52") and finding.message == "event 2 lacks timestamp, payload"


def _rewrite_events(module, change: Events) -> Rewritten:
    """The core profile, with the events of every poll and stream answer passed through `change`."""

    def answer(method: str, path: str, reply: Reply) -> Reply:
        if method == "STREAM" and isinstance(reply.body, list):
            return Reply(reply.status, change(reply.body), reply.headers, reply.problem)
        if "/events/poll" in path and isinstance(reply.body, dict) and reply.body.get("events"):
            return Reply(reply.status, {**reply.body, "events": change(reply.body["events"])}, reply.headers)
        return reply

    return Rewritten(in_process(module, "core"), answer)


def test_a_host_sending_null_node_ids_passes_the_run_surface(module, repo_corpus):
    transport = _rewrite_events(module, lambda events: [{**e, "nodeId": None} for e in events])
    (result,) = run([BY_NAME["core-run-surface"]], transport, repo_corpus)
    assert result.status == "passed", result.message


def test_a_host_sending_null_lifecycle_payloads_fails_on_the_payload_must_only(module, repo_corpus):
    def nulled(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**e, "payload": None} if e["type"].startswith("run.") else e for e in events]

    (result,) = run([BY_NAME["core-run-surface"]], _rewrite_events(module, nulled), repo_corpus)
    assert result.status == "failed"
    assert {f.clause for f in result.findings} == {"known-payloads"}
    assert all("null is not of type 'object'" in f.message for f in result.findings)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda body: {k: v for k, v in body.items() if k != "isComplete"}, "the answer has no isComplete"),
        (lambda body: {**body, "isComplete": None}, "isComplete: expected true, got null"),
    ],
)
def test_polling_past_the_end_names_a_missing_or_null_is_complete_in_json_terms(module, repo_corpus, change, message):
    def answer(method: str, path: str, reply: Reply) -> Reply:
        past_the_end = "lastSequence=" in path and isinstance(reply.body, dict) and reply.body.get("events") == []
        return Reply(reply.status, change(reply.body), reply.headers) if past_the_end else reply

    transport = Rewritten(in_process(module, "core"), answer)
    (result,) = run([BY_NAME["core-run-surface"]], transport, repo_corpus)
    assert [(f.clause, message in f.message) for f in result.findings] == [("poll-complete", True)], result.findings


def _rewrite_stream(module, change: Events) -> Rewritten:
    def answer(method: str, path: str, reply: Reply) -> Reply:
        if method == "STREAM" and isinstance(reply.body, list):
            return Reply(reply.status, change(reply.body), reply.headers, reply.problem)
        return reply

    return Rewritten(in_process(module, "core"), answer)


def test_the_sse_order_is_compared_even_when_a_payload_is_bad(module, repo_corpus):
    """A bad payload used to turn the order comparison off, silently."""

    def nulled_and_swapped(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        changed = [{**e, "payload": None} if e["type"] == "run.started" else e for e in events]
        return [changed[1], changed[0], *changed[2:]]

    (result,) = run([BY_NAME["core-run-surface"]], _rewrite_stream(module, nulled_and_swapped), repo_corpus)
    assert {f.clause for f in result.findings} == {"known-payloads", "events-in-order"}
    (order,) = [f for f in result.findings if f.clause == "events-in-order"]
    assert order.message.startswith("SSE delivers the polled events in order: expected [0, 1")
    assert result.note == ""


def test_a_stream_whose_order_cannot_be_compared_says_so(module, repo_corpus):
    def unsequenced(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if k != "sequence"} if i == 1 else e for i, e in enumerate(events)]

    (result,) = run([BY_NAME["core-run-surface"]], _rewrite_stream(module, unsequenced), repo_corpus)
    assert [f.clause for f in result.findings] == ["event-envelope"]
    assert result.note == "the SSE order was not compared: streamed events at [1] carry no integer sequence"
