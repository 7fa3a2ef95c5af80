"""A run: its status, its event log, and the engine (loop, eval or no-op) that advances it."""

from __future__ import annotations

import json
import marshal
from collections.abc import Callable
from typing import Any, Protocol

from .errors import HostError
from .events import Clock, EventLog, utc_now


def size(value: Any) -> int:
    """Roughly how many bytes `value` holds: the length of its compact binary form (`marshal`, which
    writes an object shared within `value` once, as memory holds it), or of its JSON for a value
    marshal cannot write. Several times cheaper than encoding JSON, and as good a measure."""
    try:
        return len(marshal.dumps(value))
    except ValueError:
        return len(json.dumps(value, default=str))


# What an event's envelope (its ids, type, timestamp and sequence) adds to the weight of its payload: about
# its length as JSON, which is what a reader receives.
ENVELOPE_BYTES = 128

TERMINAL_STATUSES = frozenset({"completed", "failed", "cancelled"})
SUSPENDED = "waiting-input"


class Engine(Protocol):
    def advance(self) -> None:
        """Execute until the run suspends or ends."""

    def resume(self) -> None:
        """Continue a suspended run (the run's status is already `running`)."""

    def variables(self) -> dict[str, Any]:
        """Content-free state a reader may inspect on the run snapshot."""


class Run:
    def __init__(
        self,
        run_id: str,
        workflow_id: str,
        request: dict[str, Any],
        clock: Clock = utc_now,
        owner: str | None = None,
        request_bytes: int | None = None,
    ) -> None:
        self.run_id = run_id
        self.owner = owner  # the scope of the key that started the run (None only on a replayed copy)
        self.workflow_id = workflow_id
        self.request = request
        self.log = EventLog(run_id, clock)
        self.status = "pending"
        self.mode: str | None = request.get("mode")
        self.error: dict[str, Any] | None = None
        self.output: Any = None
        self.suspend_reason: str | None = None
        self.started_at: str | None = None
        self.completed_at: str | None = None
        self.engine: Engine | None = None
        self.factory: Callable[[Run], Engine] | None = None  # makes this run's engine again, for replay
        self.verifications: dict[str, dict[str, Any] | None] = {}  # resultId -> result; None while grading
        self.vouched: set[str] = set()  # results checked once before first being served (gates.vouch)
        # What weight() has measured already: the request, and the events up to a count (events never change).
        self.request_bytes = size(request) if request_bytes is None else request_bytes
        self._event_bytes = 0
        self._weighed = 0

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL_STATUSES

    # --- transitions, each recorded as an event -------------------------------------------

    def start(self, payload: dict[str, Any]) -> None:
        event = self.log.append("run.started", {"workflowId": self.workflow_id, **payload})
        self.started_at = event["timestamp"]
        self.status = "running"

    def suspend(self, reason: str) -> None:
        self.log.append("run.suspended", {"reason": reason})
        self.suspend_reason = reason
        self.status = SUSPENDED

    def resume(self, reason: str | None) -> None:
        if self.status != SUSPENDED or self.engine is None:
            raise HostError("conflict", f"run {self.run_id} is {self.status}, not suspended")
        self.log.append("run.resumed", {"reason": reason} if reason else {})
        self.suspend_reason = None
        self.status = "running"
        self.engine.resume()

    def complete(self, output: Any, **extra: Any) -> None:
        event = self.log.append("run.completed", {"output": output, **extra})
        self.output = output
        self.completed_at = event["timestamp"]
        self.status = "completed"

    def fail(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        error: dict[str, Any] = {"code": code, "message": message}
        if details:
            error["details"] = details
        event = self.log.append("run.failed", {"error": error})
        self.error = error
        self.completed_at = event["timestamp"]
        self.status = "failed"

    # --- reading ------------------------------------------------------------------------------

    def release(self) -> None:
        """Drop the engine of a finished run leaving the store: it refers back to the run, and without this
        cycle the run's memory is freed at once instead of at the next full garbage collection."""
        self.engine = None
        self.factory = None

    def weight(self) -> int:
        """Roughly what the run holds, in bytes (see `size`): its request, events, output and verification results.

        Each event is weighed once, by the first measure after it was appended: its payload's size plus
        ENVELOPE_BYTES for the members the log adds around it. The parts that may still change (output,
        error, results) are measured together on each measure.
        """
        fresh = self.log.after(self._weighed - 1)
        if fresh:
            self._event_bytes += size([e["payload"] for e in fresh]) + ENVELOPE_BYTES * len(fresh)
            self._weighed += len(fresh)
        return self.request_bytes + self._event_bytes + size([self.output, self.error, *self.verifications.values()])

    def snapshot(self) -> dict[str, Any]:
        body: dict[str, Any] = {"runId": self.run_id, "workflowId": self.workflow_id, "status": self.status}
        for key, value in (
            ("startedAt", self.started_at),
            ("completedAt", self.completed_at),
            ("error", self.error),
            ("mode", self.mode),
            ("configurable", self.request.get("configurable")),
            ("tags", self.request.get("tags")),
            ("metadata", self.request.get("metadata")),
        ):
            if value is not None:
                body[key] = value
        if self.engine is not None:
            body["variables"] = self.engine.variables()
        return body


class Noop:
    """The engine of every workflow the host has no fixture for: start, then complete with the inputs."""

    def __init__(self, run: Run) -> None:
        self.run = run

    def advance(self) -> None:
        self.run.start({})
        self.run.complete(self.run.request.get("inputs", {}))

    def resume(self) -> None:  # pragma: no cover - a no-op run never suspends
        raise HostError("conflict", "this run cannot be resumed")

    def variables(self) -> dict[str, Any]:
        return {}
