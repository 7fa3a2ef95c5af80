"""What a scenario is, the context it runs in, and how it passes, fails or skips."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wopgen.conformance.transport import Reply, Transport
from wopgen.corpus import Corpus
from wopgen.corpus.events import TYPE_INDEX, Payload, type_index
from wopgen.corpus.regexes import PatternTimeout

Capabilities = dict[str, Any]
Gate = Callable[[Capabilities], str | None]  # None when the scenario applies, else why it does not

LOOP_FIXTURE = "conformance.scripted-loop"
WORKER = "core.sample.worker"
TERMINAL = ("completed", "failed", "cancelled")
SETTLED = (*TERMINAL, "waiting-input", "waiting-approval", "waiting-external", "paused")


class Skip(Exception):
    """The scenario does not apply to this host (a soft-skip)."""


class Failure(AssertionError):
    """The host broke a promise the scenario checks."""


@dataclass(frozen=True)
class Scenario:
    name: str
    kind: str  # "shape" (always on) or "behaviour" (gated on the advertisement)
    rfc: str | None
    summary: str
    gate: Gate
    body: Callable[[Context], None]

    @property
    def rule(self) -> str:
        return f"conformance-{self.name}"


def always(_: Capabilities) -> str | None:
    return None


def execution_model(caps: Capabilities) -> dict[str, Any]:
    model = caps.get("multiAgent", {}).get("executionModel", {}) if isinstance(caps.get("multiAgent"), dict) else {}
    return model if isinstance(model, dict) and model.get("supported") is True else {}


def version(caps: Capabilities) -> int:
    value = execution_model(caps).get("version", 0)
    return value if isinstance(value, int) else 0


def rung(minimum: int) -> Gate:
    def gate(caps: Capabilities) -> str | None:
        if version(caps) >= minimum:
            return None
        return f"multiAgent.executionModel.version >= {minimum} is not advertised"

    return gate


def flag(*path: str) -> Gate:
    """Applies when the dotted `path` from the discovery root is `true`."""

    def gate(caps: Capabilities) -> str | None:
        node: Any = caps
        for part in path:
            node = node.get(part) if isinstance(node, dict) else None
        return None if node is True else f"{'.'.join(path)} is not advertised"

    return gate


def both(*gates: Gate) -> Gate:
    def gate(caps: Capabilities) -> str | None:
        for each in gates:
            reason = each(caps)
            if reason:
                return reason
        return None

    return gate


class Context:
    """What a scenario may use: the host, the corpus's schemas and the host's advertisement."""

    def __init__(self, transport: Transport, corpus: Corpus, caps: Capabilities, wait_seconds: float = 10.0) -> None:
        self.transport = transport
        self.corpus = corpus
        self.caps = caps
        self.wait_seconds = wait_seconds
        self.asserted = False

    # --- verdicts -----------------------------------------------------------------------------

    def check(self, condition: bool, message: str) -> None:
        if not condition:
            raise Failure(message)
        self.asserted = True

    def equal(self, actual: Any, expected: Any, what: str) -> None:
        self.check(actual == expected, f"{what}: expected {expected!r}, got {actual!r}")

    def schema_errors(self, name: str, instance: Any, pointer: str = "") -> list[str]:
        doc = self.corpus.schemas_by_name.get(name)
        if doc is None:
            raise Failure(f"the corpus has no schema {name}")
        validator = self.corpus.validator(doc.path, pointer)
        try:
            return [
                f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
                for e in validator.iter_errors(instance)
            ]
        except PatternTimeout as exc:
            return [str(exc)]

    def valid(self, name: str, instance: Any, what: str, pointer: str = "") -> None:
        problems = self.schema_errors(name, instance, pointer)
        self.check(not problems, f"{what} breaks {name}{pointer}: {'; '.join(problems[:3])}")

    def invalid(self, name: str, instance: Any, what: str, pointer: str = "") -> None:
        self.check(bool(self.schema_errors(name, instance, pointer)), f"{name}{pointer} accepts {what}")

    def payload(self, event_type: str) -> Payload:
        """The payload `$def` of `event_type`, found through the corpus's type index."""
        index = type_index(self.corpus)
        payload = index.payloads.get(event_type) if index is not None else None
        if payload is None:
            raise Failure(f"the corpus's {TYPE_INDEX} has no payload for {event_type!r}")
        return payload

    def payload_pointer(self, event_type: str) -> str:
        return self.payload(event_type).pointer

    def valid_event(self, event: dict[str, Any]) -> None:
        self.valid("run-event", event, f"event {event.get('sequence')}")
        self.valid(
            "run-event-payloads", event["payload"], f"{event['type']} payload", self.payload_pointer(event["type"])
        )

    # --- talking to the host ------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: bytes | None = None,
        auth: bool = True,
        key: str | None = None,
    ) -> Reply:
        return self.transport.request(method, path, body, raw=raw, auth=auth, key=key)

    def error(self, reply: Reply, code: str, what: str) -> None:
        """The reply is the error envelope for `code`, with the status the corpus assigns it."""
        statuses = self.corpus.schemas_by_name["error-envelope"].data.get("x-wop-http-status", {})
        self.equal(reply.status, statuses.get(code), f"{what}: HTTP status")
        self.valid("error-envelope", reply.body, f"{what}: error body")
        self.equal(reply.body.get("error"), code, f"{what}: error code")

    def seam(self, path: str, body: dict[str, Any], response_schema: str) -> dict[str, Any]:
        reply = self.request("POST", path, body)
        if reply.status in (404, 405):
            if self.asserted:
                raise Failure(f"{path} answered {reply.status} after the scenario had started asserting")
            raise Skip(f"the seam {path} is not wired (HTTP {reply.status})")
        self.equal(reply.status, 200, f"POST {path} status")
        self.valid(response_schema, reply.body, f"POST {path} answer")
        return dict(reply.body)

    def create(self, body: dict[str, Any]) -> str:
        reply = self.request("POST", "/v1/runs", body)
        self.check(reply.status in (200, 201), f"POST /v1/runs answered {reply.status}: {reply.body}")
        self.valid("run-create-response", reply.body, "the create answer")
        return str(reply.body["runId"])

    def snapshot(self, run_id: str) -> dict[str, Any]:
        reply = self.request("GET", f"/v1/runs/{run_id}")
        self.equal(reply.status, 200, f"GET /v1/runs/{run_id} status")
        self.valid("run-snapshot", reply.body, "the run snapshot")
        return dict(reply.body)

    def settle(self, run_id: str) -> dict[str, Any]:
        """The snapshot once the run has ended or paused (polling a host that runs in the background)."""
        deadline = time.monotonic() + self.wait_seconds
        while True:
            snap = self.snapshot(run_id)
            if snap["status"] in SETTLED or time.monotonic() > deadline:
                return snap
            self.request("GET", f"/v1/runs/{run_id}/events/poll?timeout=1")

    def events(self, run_id: str) -> list[dict[str, Any]]:
        """Every event of the run so far, read with the poll endpoint and checked against the schemas."""
        reply = self.request("GET", f"/v1/runs/{run_id}/events/poll?lastSequence=-1")
        self.equal(reply.status, 200, "events/poll status")
        self.valid("run-events-poll-response", reply.body, "the poll answer")
        events = list(reply.body["events"])
        for position, event in enumerate(events):
            self.equal(event["sequence"], position, "event sequence")
            self.valid_event(event)
        return events

    @property
    def has_fixture(self) -> bool:
        """Whether the host lists the scripted-loop fixture workflow in its discovery `fixtures`."""
        fixtures = self.caps.get("fixtures")
        return isinstance(fixtures, list) and LOOP_FIXTURE in fixtures

    def loop(
        self, turns: list[dict[str, Any]], *, repeat_last: bool = False, **request: Any
    ) -> tuple[str, dict[str, Any]]:
        """Start a run of the scripted-loop fixture and wait for it to end or pause.

        A host that does not list the fixture in its discovery `fixtures` cannot be driven this way:
        the scenario skips (like a seam answering 404) unless it has already asserted something.
        """
        if not self.has_fixture:
            if self.asserted:
                raise Failure(f"the host does not list the fixture workflow {LOOP_FIXTURE} in its discovery fixtures")
            raise Skip(f"the host does not list the fixture workflow {LOOP_FIXTURE} in its discovery fixtures")
        script: dict[str, Any] = {"turns": turns}
        if repeat_last:
            script["repeatLast"] = True
        run_id = self.create({"workflowId": LOOP_FIXTURE, "inputs": {"script": script}, **request})
        return run_id, self.settle(run_id)

    def resume(self, run_id: str) -> dict[str, Any]:
        reply = self.request("POST", f"/v1/runs/{run_id}/resume", {"reason": "conformance"})
        self.equal(reply.status, 200, "resume status")
        self.valid("run-resume-response", reply.body, "the resume answer")
        return self.settle(run_id)


def of_type(events: list[dict[str, Any]], event_type: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == event_type]


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def next_worker(**turn: Any) -> dict[str, Any]:
    confidence = turn.pop("decision_confidence", None)
    decision: dict[str, Any] = {"kind": "next-worker", "nextWorkerIds": [WORKER]}
    if confidence is not None:
        decision["confidence"] = confidence
    return {"decision": decision, **turn}


def terminate(**decision: Any) -> dict[str, Any]:
    return {"decision": {"kind": "terminate", **decision}}


def ask_user() -> dict[str, Any]:
    return {"decision": {"kind": "ask-user", "prompt": "Shall the loop go on?"}}
