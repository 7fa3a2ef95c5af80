"""The timing helpers of the benchmarks: the best (or median) wall and CPU time of a few repeats, the
compared functions timed in turn round after round."""

from __future__ import annotations

import compileall
import gc
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Clock = Callable[[], float]


def own_cpu() -> float:
    """CPU seconds (user + system) used so far by this process, all its threads."""
    return time.process_time()


def child_cpu() -> float:
    """CPU seconds (user + system) used so far by the child processes this process waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def own_and_child_cpu() -> float:
    """CPU seconds of this process and of the child processes it waited for (e.g. a formatter)."""
    return own_cpu() + child_cpu()


def each_round(
    repeat: int, fns: dict[str, Callable[[], Any]], cpu: Clock = own_cpu
) -> dict[str, tuple[list[float], list[float]]]:
    """The wall and CPU seconds (read from `cpu`) of each of `fns`, `repeat` times, run in turn round after
    round, so that a baseline and what is compared with it see the same load on a shared machine. Each
    call starts after a full garbage collection, so none pays for collecting what an earlier one left."""
    found: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in fns}
    for _ in range(max(repeat, 1)):
        for name, fn in fns.items():
            gc.collect()
            wall, used = time.perf_counter(), cpu()
            fn()
            found[name][0].append(time.perf_counter() - wall)
            found[name][1].append(cpu() - used)
    return found


def best_of_each(
    repeat: int, fns: dict[str, Callable[[], Any]], cpu: Clock = own_cpu
) -> dict[str, tuple[float, float]]:
    """The shortest wall time and the least CPU time (read from `cpu`) of each of `fns`, timed in turn
    round after round. On a shared machine the CPU time is the steadier figure: waiting for a core
    counts in the wall time only."""
    return {name: (min(walls), min(cpus)) for name, (walls, cpus) in each_round(repeat, fns, cpu).items()}


def best_of(repeat: int, fn: Callable[..., Any], *args: Any, cpu: Clock = own_cpu) -> tuple[float, float]:
    """The shortest wall time and the least CPU time of `repeat` calls of `fn(*args)`, in seconds."""
    return best_of_each(repeat, {"only": lambda: fn(*args)}, cpu)["only"]


def median_of_each(repeat: int, fns: dict[str, Callable[[], Any]]) -> dict[str, tuple[float, float]]:
    """The median wall time and the median CPU time of this process of each of `fns`, timed in turn
    round after round (so a load that comes and goes weighs on each alike)."""
    found = each_round(repeat, fns, own_cpu)
    return {name: (statistics.median(walls), statistics.median(cpus)) for name, (walls, cpus) in found.items()}


def median_of(repeat: int, fn: Callable[..., Any], *args: Any) -> tuple[float, float]:
    """The median wall time and the median CPU time of this process of `repeat` calls of `fn(*args)`."""
    return median_of_each(repeat, {"only": lambda: fn(*args)})["only"]


def paired_ratios(
    found: dict[str, tuple[list[float], list[float]]], base: str
) -> dict[str, tuple[float, float, float]]:
    """From the rounds of `each_round`: each function's CPU time over `base`'s in the same round, as the
    median, least and greatest of those per-round ratios. A shared machine speeds up or slows down a
    whole round at random, so the two sides of a ratio measured next to each other share it; the least
    time of each side, taken from whichever rounds were luckiest, does not."""
    ratios: dict[str, tuple[float, float, float]] = {}
    for name, (_, cpus) in found.items():
        each = [cpu / of_base for cpu, of_base in zip(cpus, found[base][1], strict=True)]
        ratios[name] = (statistics.median(each), min(each), max(each))
    return ratios


def own_peak_mb() -> float:
    """This process's peak resident memory since it started, in MB; NaN without /proc. (Its maxrss
    would also count the pages of the process it was forked from.)"""
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return float("nan")


def bytecode_compiled() -> None:
    """Compile wopgen's modules to bytecode beside their sources, as installing a package does.

    The benchmarks that start wopgen in fresh processes compare it with tools installed the usual way,
    whose bytecode pip wrote at install time. wopgen installed editable, on a machine that sets
    PYTHONDONTWRITEBYTECODE, would instead compile each of its modules again in every process (about
    0.15 s of CPU), a cost no installed copy pays. Writing the bytecode once, before timing, gives both
    sides the same footing. The files land in `__pycache__` folders, which git ignores."""
    import wopgen

    compileall.compile_dir(Path(wopgen.__file__).parent, quiet=1)
