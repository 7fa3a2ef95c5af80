"""The timing helpers of the benchmarks: best wall time, or median wall and CPU time, of a few repeats."""

from __future__ import annotations

import gc
import statistics
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


def median_of(repeat: int, fn: Callable[..., Any], *args: Any) -> tuple[float, float]:
    """The median wall-clock time and the median CPU time of this process (all its threads) of
    `repeat` calls of `fn(*args)`, in seconds. On a machine shared with other work the CPU time is
    the steadier of the two: waiting for a core counts in the wall time only. Each call starts after
    a full garbage collection, so no call pays for collecting what an earlier one left behind."""
    walls, cpus = [], []
    for _ in range(max(repeat, 1)):
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        fn(*args)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)
