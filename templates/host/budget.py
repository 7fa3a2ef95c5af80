"""The work one request may do: CPU seconds of its thread, checked wherever work grows with the input.

`Host.handle` opens a budget around each request; schema validation, event appends, script parsing
and grading call `spend()`, which stops the request with a clear `validation_error` once its thread
has used up the budget, instead of letting one request stall the host.
"""

from __future__ import annotations

import time
from contextvars import ContextVar

from .errors import HostError


class _Budget:
    """One request's budget: the thread CPU time it ends at, and the wall time before which it cannot
    have ended (a thread never uses more CPU time than the wall time that passes), so `spend()` reads
    the thread's CPU clock, a system call, only once that wall time has come."""

    __slots__ = ("check_at", "deadline", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.thread_time() + seconds
        self.check_at = time.perf_counter() + seconds


# The budget of the request under way on this thread (None: no limit). A hot loop may read it and call
# `spend()` only once `time.perf_counter()` has reached its `check_at`, which is what spend() asks first.
LIMIT: ContextVar[_Budget | None] = ContextVar("request_budget", default=None)
# The same read in one call: `LIMIT.get()` makes a bound method before every read, a measurable share of an
# event append.
current_budget = LIMIT.get


class OverBudget(HostError):
    """The request has used more CPU time than the host grants one request."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            "validation_error",
            f"the request needs more than the {seconds:g} s of CPU time this host grants one request; ask for less",
            {"budgetSeconds": seconds},
        )


class budget:  # used as a function: `with budget(seconds):`
    """Within the block, `spend()` raises OverBudget after `seconds` of this thread's CPU time (None: no limit).

    A class rather than a generator-based context manager: it is entered once per request.
    """

    __slots__ = ("_seconds", "_token")

    def __init__(self, seconds: float | None) -> None:
        self._seconds = seconds

    def __enter__(self) -> None:
        self._token = LIMIT.set(None if self._seconds is None else _Budget(self._seconds))

    def __exit__(self, *_: object) -> None:
        LIMIT.reset(self._token)


def spend() -> None:
    """Stop the current request when it has used up its budget."""
    limit = current_budget()
    if limit is None or time.perf_counter() < limit.check_at:
        return  # less wall time has passed than CPU time was left: the budget cannot be used up yet
    used = time.thread_time()
    if used > limit.deadline:
        raise OverBudget(limit.seconds)
    limit.check_at = time.perf_counter() + (limit.deadline - used)
