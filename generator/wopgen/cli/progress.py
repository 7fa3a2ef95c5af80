"""Progress for the commands that can take a while (site build, models, compat, conformance).

Drawn with click's progress bar on stderr, and only when stderr is a terminal: pipes, CI logs and
the JSON or SARIF on stdout never see it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click


def wanted() -> bool:
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


@contextmanager
def counting(label: str) -> Iterator[Callable[[int, int], None]]:
    """Yields `report(done, total)`; the bar appears at the first report and closes with the block."""
    if not wanted():
        yield lambda done, total: None
        return
    bars: list[Any] = []

    def report(done: int, total: int) -> None:
        if not bars:
            bars.append(click.progressbar(length=max(total, 1), label=label, file=sys.stderr, show_pos=True))
            bars[0].__enter__()
        bars[0].update(done - bars[0].pos)

    try:
        yield report
    finally:
        if bars:
            bars[0].__exit__(None, None, None)


@contextmanager
def stepping(label: str, steps: Sequence[str]) -> Iterator[Callable[[str], None]]:
    """Yields `begin(step)`; the bar names the step under way and counts the finished ones."""
    if not wanted():
        yield lambda step: None
        return
    with click.progressbar(
        length=len(steps), label=label, file=sys.stderr, show_pos=True, item_show_func=lambda item: item
    ) as bar:
        started: list[str] = []

        def begin(step: str) -> None:
            bar.update(1 if started else 0, current_item=step)
            started.append(step)

        yield begin
        bar.update(len(steps) - bar.pos, current_item="done")
