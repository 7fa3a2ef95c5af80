"""The timing helpers of the benchmarks: best wall (and child CPU) time, or median wall and CPU
time, of a few repeats."""

from __future__ import annotations

import gc
import resource
import statistics
import time
from collections.abc import Callable
from typing import Any


def best_of(repeat: int, fn: Callable[..., Any], *args: Any) -> float:
    """The shortest of `repeat` wall-clock timings of `fn(*args)`, in seconds (the least disturbed run)."""
    return best_of_each(repeat, {"only": lambda: fn(*args)})["only"]


def own_peak_mb() -> float:
    """This process's peak resident memory since it started, in MB; NaN without /proc. (Its maxrss
    would also count the pages of the process it was forked from.)"""
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return float("nan")


def child_cpu() -> float:
    """CPU seconds (user + system) used so far by the child processes this process waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_of_children(repeat: int, fn: Callable[..., Any], *args: Any) -> tuple[float, float]:
    """The shortest wall time and the least CPU time (of the child processes `fn` runs and waits
    for) of `repeat` calls. On a loaded machine the CPU time is the steadier figure."""
    walls, cpus = [], []
    for _ in range(max(repeat, 1)):
        cpu, start = child_cpu(), time.perf_counter()
        fn(*args)
        walls.append(time.perf_counter() - start)
        cpus.append(child_cpu() - cpu)
    return min(walls), min(cpus)


def best_of_each(repeat: int, fns: dict[str, Callable[[], Any]]) -> dict[str, float]:
    """The shortest of `repeat` wall-clock timings of each of `fns`, run in turn round after round, so that
    a baseline and what is compared with it see the same load on a shared machine."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(max(repeat, 1)):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: min(found) for name, found in times.items()}


def best_with_cpu_of_each(repeat: int, fns: dict[str, Callable[[], Any]]) -> dict[str, tuple[float, float]]:
    """Like `best_of_each`, the shortest wall time of each of `fns`, with the least CPU time (this
    process's and that of the child processes it waited for, e.g. a formatter). On a shared machine
    the CPU time is the steadier figure."""
    walls: dict[str, list[float]] = {name: [] for name in fns}
    cpus: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(max(repeat, 1)):
        for name, fn in fns.items():
            gc.collect()
            wall, cpu = time.perf_counter(), time.process_time() + child_cpu()
            fn()
            walls[name].append(time.perf_counter() - wall)
            cpus[name].append(time.process_time() + child_cpu() - cpu)
    return {name: (min(walls[name]), min(cpus[name])) for name in fns}


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
