"""`gc_paused`: the cycle collector is held back while a builder runs, its state is given back, and
what was built is not left for the next young collection to walk."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from wopgen.corpus.model import gc_paused


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_off_inside_and_on_again_after(collector_on: None) -> None:
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_what_was_built_is_not_left_for_a_young_collection_to_walk(collector_on: None) -> None:
    threshold = gc.get_threshold()[0]
    with gc_paused():
        built = [[n] for n in range(threshold * 20)]  # far more containers than a young collection takes
        assert gc.get_count()[0] > threshold  # counted as young while the collector is held back
        before = gc.get_stats()[0]["collections"]
    # Moved to the oldest generation on the way out, so a few new containers start no collection
    # (left young, the first of them would start one that walks everything built above).
    more = [[n] for n in range(threshold // 10)]
    assert gc.get_stats()[0]["collections"] == before
    assert any(built[-1] is item for item in gc.get_objects(generation=2))
    assert more


def test_garbage_cycles_made_inside_are_still_collected(collector_on: None) -> None:
    class Node:
        pass

    with gc_paused():
        node = Node()
        node.self = node  # type: ignore[attr-defined]
    del node
    assert gc.collect() >= 1
