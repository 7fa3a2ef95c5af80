"""What a scenario is, the context it runs in, and how it passes, fails or skips."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from wopgen.conformance.clauses import CLAUSES, where
from wopgen.conformance.transport import Exchange, Reply, Transport, TransportError
from wopgen.corpus import Corpus
from wopgen.corpus.events import TYPE_INDEX, Payload, type_index
from wopgen.corpus.regexes import PatternTimeout
from wopgen.corpus.vocabulary import LOOP_FIXTURE

Capabilities = dict[str, Any]
Gate = Callable[[Capabilities], str | None]  # None when the scenario applies, else why it does not

WORKER = "core.sample.worker"
TERMINAL = ("completed", "failed", "cancelled")
SETTLED = (*TERMINAL, "waiting-input", "waiting-approval", "waiting-external", "paused")
CORPUS, CORE, BEHAVIOUR = "corpus", "core", "behaviour"


# The envelope members every event a host delivers MUST carry (run-surface.md, event-envelope).
ENVELOPE = ("eventId", "runId", "type", "timestamp", "sequence", "payload")


def shown(value: Any) -> str:
    """A value of a host's answer as JSON spells it (`null`, `true`, `"text"`), for a message."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _json_message(message: str, instance: Any) -> str:
    """A JSON Schema error message whose leading Python repr of the instance is spelt as JSON."""
    spelt = repr(instance)
    return shown(instance) + message[len(spelt) :] if message.startswith(spelt) else message


class Skip(Exception):
    """The scenario does not apply to this host (a soft-skip)."""


class Failure(AssertionError):
    """An assertion failed in a way the rest of the scenario depends on: the scenario stops there."""


class Unwired(Exception):
    """A seam or fixture a later part of a scenario needs is not there, after the scenario asserted."""


@dataclass(frozen=True)
class Finding:
    """One failed assertion: the clause it enforces, what was wrong, and the exchange it was about."""

    clause: str
    where: str  # file:line of the clause's MUST
    message: str
    exchange: Exchange | None = None

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"clause": self.clause, "where": self.where, "message": self.message}
        if self.exchange is not None:
            found["request"] = self.exchange.to_dict()
        return found

    def line(self) -> str:
        text = f"[{self.where}] {self.message}"
        if self.exchange is not None:
            e = self.exchange
            text += f" ({e.method} {e.path} -> {e.status or 'no answer'}: {e.excerpt})"
        return text


@dataclass(frozen=True)
class Scenario:
    name: str
    kind: str  # "corpus" (never talks to the host), "core" (always-on, host) or "behaviour" (gated)
    rfc: str | None
    summary: str
    gate: Gate
    body: Callable[[Context], None]
    clause: str = "advertise-only-implemented"  # the clause an assertion cites when it names none
    # A scenario about how a host refuses what it does not offer: its gate skips a host that offers it,
    # and strict mode takes that skip as no failure (such a host has nothing to refuse).
    unoffered: bool = False

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
    """What a scenario may use: the host, the corpus's schemas and the host's advertisement.

    Assertions are soft: a failed `check` is recorded with its clause and the last exchange, and
    the scenario goes on, so one wrong answer does not hide the next. `require` stops the scenario
    when what follows depends on the condition.
    """

    def __init__(
        self,
        transport: Transport,
        corpus: Corpus,
        caps: Capabilities,
        clause: str = "advertise-only-implemented",
        wait_seconds: float = 10.0,
    ) -> None:
        self.transport = transport
        self.corpus = corpus
        self.caps = caps
        self.wait_seconds = wait_seconds
        self.clause = clause
        self.findings: list[Finding] = []
        self.exchanges = 0  # requests sent to the host
        self.asserted = False  # a host answer has been asserted on
        self.last: Exchange | None = None
        self.notes: list[str] = []  # what the scenario could not assert, and why (never silently)

    # --- verdicts -----------------------------------------------------------------------------

    @contextmanager
    def under(self, clause: str) -> Iterator[None]:
        """Assertions inside the block cite `clause`."""
        before, self.clause = self.clause, clause
        try:
            yield
        finally:
            self.clause = before

    def check(self, condition: bool, message: str, clause: str | None = None) -> bool:
        if self.exchanges:
            self.asserted = True
        cited = clause or self.clause
        if cited not in CLAUSES:
            raise KeyError(f"conformance clause {cited!r} is not in the clause table")
        if not condition:
            self.findings.append(Finding(cited, where(self.corpus, cited), message, self.last))
        return condition

    def note(self, text: str) -> None:
        """Record an assertion that could not be made, so the report says so instead of skipping it silently."""
        self.notes.append(text)

    def require(self, condition: bool, message: str, clause: str | None = None) -> None:
        """A check the rest of the scenario depends on: when it fails the scenario stops."""
        if not self.check(condition, message, clause):
            raise Failure(message)

    def equal(self, actual: Any, expected: Any, what: str, clause: str | None = None) -> bool:
        return self.check(actual == expected, f"{what}: expected {shown(expected)}, got {shown(actual)}", clause)

    def schema_errors(self, name: str, instance: Any, pointer: str = "") -> list[str]:
        doc = self.corpus.schemas_by_name.get(name)
        if doc is None:
            raise Failure(f"the corpus has no schema {name}")
        validator = self.corpus.validator(doc.path, pointer)
        try:
            return [
                f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {_json_message(e.message, e.instance)}"
                for e in validator.iter_errors(instance)
            ]
        except PatternTimeout as exc:
            return [str(exc)]

    def valid(self, name: str, instance: Any, what: str, pointer: str = "", clause: str | None = None) -> bool:
        problems = self.schema_errors(name, instance, pointer)
        return self.check(not problems, f"{what} breaks {name}{pointer}: {'; '.join(problems[:3])}", clause)

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

    def known(self, event_type: Any) -> bool:
        index = type_index(self.corpus)
        return index is not None and isinstance(event_type, str) and event_type in index.payloads

    def valid_event(self, event: Any, channel: str = "") -> bool:
        """What the two event MUSTs of run-surface.md say, and nothing stronger.

        Every event carries the six envelope members (event-envelope: their presence, not their
        types), and the payload of a type the slice defines validates against that type's payload
        `$def` (known-payloads). No MUST makes the whole `run-event` envelope schema normative, so an
        optional member such as `nodeId` is not judged, whatever the event's type. An event of a
        type this reader does not know is skipped past its envelope (run-events.md: a client MUST
        skip it), and extra envelope members are allowed (the envelope is open). `channel` names
        where the event came from in the messages (e.g. "streamed").
        """
        name = f"{channel} event" if channel else "event"
        if not isinstance(event, dict):
            return self.check(False, f"{'a ' + name} is not a JSON object: {shown(event):.80}", "event-envelope")
        missing = [m for m in ENVELOPE if m not in event]
        if missing:
            label = f"{name} {shown(event['sequence'])}" if "sequence" in event else name
            return self.check(False, f"{label} lacks {', '.join(missing)}", "event-envelope")
        if not self.known(event["type"]):
            return True
        return self.valid(
            "run-event-payloads",
            event["payload"],
            f"the payload of {name} {shown(event['sequence'])} ({event['type']})",
            self.payload_pointer(event["type"]),
            clause="known-payloads",
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
        """The host's answer; a request that got no HTTP answer is a Reply with status 0 and the reason."""
        self.exchanges += 1
        try:
            reply = self.transport.request(method, path, body, raw=raw, auth=auth, key=key)
        except TransportError as exc:
            reply = Reply(0, None, {}, str(exc))
        self.last = Exchange(method, path, reply.status, reply.excerpt())
        return reply

    def stream(self, path: str) -> Reply:
        self.exchanges += 1
        try:
            reply = self.transport.stream(path)
        except TransportError as exc:
            reply = Reply(0, None, {}, str(exc))
        shown = f"{len(reply.body)} events" if isinstance(reply.body, list) else reply.excerpt()
        if reply.problem:
            shown += f"; {reply.problem}"
        self.last = Exchange("GET", path, reply.status, shown)
        return reply

    def error(self, reply: Reply, code: str, what: str, clause: str | None = None) -> None:
        """The reply is refused with the status the corpus assigns `code`, and carries an error envelope.

        The envelope's `error` member is not compared: a client falls back on the status class for a
        code it does not know, so a host may use codes of its own (see `error_code` for clauses that
        name the code).
        """
        statuses = self.corpus.schemas_by_name["error-envelope"].data.get("x-wop-http-status", {})
        if self.equal(reply.status, statuses.get(code), f"{what}: HTTP status", clause) and reply.status >= 400:
            self.valid("error-envelope", reply.body, f"{what}: error body", clause="error-envelope")

    def error_code(self, reply: Reply, code: str, what: str, clause: str | None = None) -> None:
        """Like `error`, and the envelope's `error` is `code`: for clauses that name the code."""
        statuses = self.corpus.schemas_by_name["error-envelope"].data.get("x-wop-http-status", {})
        if self.equal(reply.status, statuses.get(code), f"{what}: HTTP status", clause) and self.valid(
            "error-envelope", reply.body, f"{what}: error body", clause="error-envelope"
        ):
            self.equal(reply.body.get("error"), code, f"{what}: error code", clause)

    def failed_status(self, reply: Reply, low: int, high: int, what: str, clause: str | None = None) -> None:
        """The reply is refused with a status in [low, high] and carries an error envelope."""
        if self.check(low <= reply.status <= high, f"{what}: expected HTTP {low}-{high}, got {reply.status}", clause):
            self.valid("error-envelope", reply.body, f"{what}: error body", clause="error-envelope")

    def seam(self, path: str, body: dict[str, Any], response_schema: str) -> dict[str, Any]:
        reply = self.request("POST", path, body)
        if reply.status in (404, 405):
            why = f"the seam {path} is not wired (HTTP {reply.status})"
            raise Unwired(why) if self.asserted else Skip(why)
        self.require(reply.status == 200, f"POST {path} answered {reply.status}, not 200")
        self.require(self.valid(response_schema, reply.body, f"POST {path} answer"), f"POST {path} answer is invalid")
        return dict(reply.body)

    def create(self, body: dict[str, Any]) -> str:
        return self.created(self.request("POST", "/v1/runs", body))

    def created(self, reply: Reply) -> str:
        """The run id of a `POST /v1/runs` answer, once the answer holds the create promises."""
        with self.under("create-answer"):
            self.require(200 <= reply.status < 300, f"POST /v1/runs answered {reply.status}")
            self.valid("run-create-response", reply.body, "the create answer")
            run_id = reply.body.get("runId") if isinstance(reply.body, dict) else None
            self.require(isinstance(run_id, str) and bool(run_id), "the create answer has no runId")
        return str(run_id)

    def snapshot(self, run_id: str) -> dict[str, Any]:
        reply = self.request("GET", f"/v1/runs/{run_id}")
        with self.under("snapshot-shape"):
            self.require(reply.status == 200, f"GET /v1/runs/{run_id} answered {reply.status}")
            self.valid("run-snapshot", reply.body, "the run snapshot")
            self.require(isinstance(reply.body, dict) and "status" in reply.body, "the snapshot has no status")
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
        """Every event of the run so far, read with the poll endpoint (from the start: no lastSequence)."""
        reply = self.request("GET", f"/v1/runs/{run_id}/events/poll")
        self.require(reply.status == 200, f"events/poll answered {reply.status}", "events-in-order")
        body = reply.body if isinstance(reply.body, dict) else {}
        events = body.get("events")
        self.require(isinstance(events, list), "the poll answer has no events list", "events-in-order")
        # `isComplete` is judged where a MUST names it: polling past the end of a finished run (poll-complete).
        assert isinstance(events, list)
        kept = [e for e in events if isinstance(e, dict)]
        sequences = [e.get("sequence") for e in kept]
        self.equal(sequences, list(range(len(kept))), "event sequences from 0, one step per event", "events-in-order")
        for event in kept:
            self.valid_event(event)
        return kept

    def has_fixture(self, fixture: str = LOOP_FIXTURE) -> bool:
        """Whether the host lists `fixture` in its discovery `fixtures`."""
        fixtures = self.caps.get("fixtures")
        return isinstance(fixtures, list) and fixture in fixtures

    def need_fixture(self, fixture: str) -> None:
        if not self.has_fixture(fixture):
            why = f"the host does not list the fixture workflow {fixture} in its discovery fixtures"
            raise Unwired(why) if self.asserted else Skip(why)

    def loop(
        self, turns: list[dict[str, Any]], *, repeat_last: bool = False, **request: Any
    ) -> tuple[str, dict[str, Any]]:
        """Start a run of the scripted-loop fixture and wait for it to end or pause.

        A host that does not list the fixture in its discovery `fixtures` cannot be driven this way:
        the scenario skips, like a seam answering 404.
        """
        self.need_fixture(LOOP_FIXTURE)
        script: dict[str, Any] = {"turns": turns}
        if repeat_last:
            script["repeatLast"] = True
        run_id = self.create({"workflowId": LOOP_FIXTURE, "inputs": {"script": script}, **request})
        return run_id, self.settle(run_id)

    def resume(self, run_id: str) -> dict[str, Any]:
        """Resume with `POST /v1/runs/{runId}:resume`, the path OpenWOP v1 defines."""
        reply = self.request("POST", f"/v1/runs/{run_id}:resume", {"reason": "conformance"})
        self.require(reply.status == 200, f"resume answered {reply.status}")
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
