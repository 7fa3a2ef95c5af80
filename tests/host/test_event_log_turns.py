"""Concurrent appends to one event log take turns, and readers waiting for events wake on each append.

An append takes the log's one turn without a lock when it is free and waits for it otherwise; the tests
force the waiting (a clock that sleeps while an append holds the turn) and hold the log to what a lock
gives: distinct sequences in order, no append lost or stuck, and readers that miss no event.
"""

from __future__ import annotations

import threading
import time
from types import ModuleType
from typing import Any

import pytest

STAMP = "2026-01-01T00:00:00.000Z"
PAYLOAD = {"reason": "clarify"}


def _sleepy_clock() -> str:
    time.sleep(0.0005)  # the turn is held meanwhile: other appends find it taken
    return STAMP


def _run(threads: list[threading.Thread], seconds: float = 20.0) -> None:
    for thread in threads:
        thread.daemon = True  # one left stuck fails the test instead of keeping the interpreter alive
        thread.start()
    deadline = time.monotonic() + seconds
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    assert not any(thread.is_alive() for thread in threads), "an append or a reader never finished"


def test_appends_finding_the_turn_taken_wait_for_it(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    events = module.events
    waits: list[int] = []
    wait_turn = events.EventLog._wait_turn

    def counted(log: Any) -> None:
        waits.append(1)
        wait_turn(log)

    monkeypatch.setattr(events.EventLog, "_wait_turn", counted)
    log = events.EventLog("run-1", clock=_sleepy_clock)
    per_thread, writers = 25, 4

    def write() -> None:
        for _ in range(per_thread):
            log.append("run.suspended", PAYLOAD)

    _run([threading.Thread(target=write) for _ in range(writers)])
    kept = log.events
    assert waits, "no append ever found the turn taken: the test did not exercise the waiting"
    assert [e["sequence"] for e in kept] == list(range(writers * per_thread))
    assert [e["eventId"] for e in kept] == [f"run-1.e{n}" for n in range(writers * per_thread)]
    assert (list(log._turn), log._waiting) == ([None], 0)  # the turn is free again, nobody waits


def test_a_failed_append_gives_the_turn_back(module: ModuleType) -> None:
    events = module.events
    answers: list[Any] = [RuntimeError("clock broke"), "yesterday", STAMP]

    def clock() -> str:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return str(answer)

    log = events.EventLog("run-1", clock=clock)
    with pytest.raises(RuntimeError, match="clock broke"):
        log.append("run.suspended", PAYLOAD)
    assert list(log._turn) == [None]  # given back (else the next append would wait for it forever)
    with pytest.raises(events.InvalidEvent, match="timestamp"):
        log.append("run.suspended", PAYLOAD)
    assert list(log._turn) == [None]
    assert log.append("run.suspended", PAYLOAD)["sequence"] == 0


class _Interrupted(BaseException):
    pass


class _InterruptedWait(threading.Condition):
    """A condition whose first wait is interrupted, counting the wake-ups given through it."""

    def __init__(self, lock: Any) -> None:
        super().__init__(lock)
        self.interrupted = False
        self.notified = 0

    def wait(self, timeout: float | None = None) -> bool:
        if not self.interrupted:
            self.interrupted = True
            raise _Interrupted
        return super().wait(timeout)

    def notify(self, n: int = 1) -> None:
        self.notified += 1
        super().notify(n)


def test_an_interrupted_wait_for_the_turn_passes_its_wake_up_on(module: ModuleType) -> None:
    log = module.events.EventLog("run-1", clock=lambda: STAMP)
    log._turns = turns = _InterruptedWait(log._lock)
    log._turn.pop()  # another append holds the turn
    with pytest.raises(_Interrupted):
        log.append("run.suspended", PAYLOAD)
    assert (turns.notified, log._waiting) == (1, 0)  # a wake-up it may have taken goes to the next waiter
    log._turn.append(None)  # the other append ends
    assert log.append("run.suspended", PAYLOAD)["sequence"] == 0


def test_a_reader_waiting_for_events_misses_none(module: ModuleType) -> None:
    """Each wait is long: a wake-up lost on any append would leave the reader waiting past the test's limit."""
    log = module.events.EventLog("run-1", clock=_sleepy_clock)
    per_thread, writers = 30, 3
    seen: list[int] = []

    def read() -> None:
        while len(seen) < per_thread * writers:
            batch = log.wait_after(len(seen) - 1, 60.0, lambda: False)
            seen.extend(e["sequence"] for e in batch)

    def write() -> None:
        for _ in range(per_thread):
            log.append("run.suspended", PAYLOAD)

    start = time.perf_counter()
    _run([threading.Thread(target=read), *(threading.Thread(target=write) for _ in range(writers))], seconds=30.0)
    assert seen == list(range(per_thread * writers))
    assert time.perf_counter() - start < 30.0


def test_the_causation_id_may_be_given_by_position(module: ModuleType) -> None:
    log = module.events.EventLog("run-1", clock=lambda: STAMP)
    first = log.append("run.suspended", PAYLOAD, "run-1.e9")
    second = log.append("run.suspended", PAYLOAD, causation_id="run-1.e9")
    assert first["causationId"] == second["causationId"] == "run-1.e9"
