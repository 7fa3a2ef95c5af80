"""The one timing helper of the benchmarks: best wall time of a few repeats."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(repeat: int, fn: Callable[..., Any], *args: Any) -> float:
    """The shortest of `repeat` wall-clock timings of `fn(*args)`, in seconds (the least disturbed run)."""
    times = []
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return min(times)
