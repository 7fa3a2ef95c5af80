"""The work one request may do: CPU seconds of its thread, checked wherever work grows with the input.

`Host.handle` opens a budget around each request; schema validation, event appends, script parsing
and grading call `spend()`, which stops the request with a clear `validation_error` once its thread
has used up the budget, instead of letting one request stall the host.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .errors import HostError

_LIMIT: ContextVar[tuple[float, float] | None] = ContextVar("request_budget", default=None)


class OverBudget(HostError):
    """The request has used more CPU time than the host grants one request."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            "validation_error",
            f"the request needs more than the {seconds:g} s of CPU time this host grants one request; ask for less",
            {"budgetSeconds": seconds},
        )


@contextmanager
def budget(seconds: float | None) -> Iterator[None]:
    """Within the block, `spend()` raises OverBudget after `seconds` of this thread's CPU time (None: no limit)."""
    token = _LIMIT.set(None if seconds is None else (time.thread_time() + seconds, seconds))
    try:
        yield
    finally:
        _LIMIT.reset(token)


def spend() -> None:
    """Stop the current request when it has used up its budget."""
    limit = _LIMIT.get()
    if limit is not None and time.thread_time() > limit[0]:
        raise OverBudget(limit[1])
