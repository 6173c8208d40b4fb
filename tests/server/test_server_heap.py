"""The heap policy (sefode.server.heap): long-lived objects are frozen out of full collections, and a garbage cycle
among them is collected once the frozen heap has grown enough."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from sefode.server.heap import HeapPolicy


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.collect()


def test_a_tick_freezes_the_heap_and_leaves_frozen_cycles_to_the_full_collection(unfrozen: None) -> None:
    policy = HeapPolicy(floor=10**12)  # never a full collection on a tick
    kept = Node()
    assert policy.tick() is False
    assert gc.get_freeze_count() > 0
    holder = [Node(), Node()]
    holder[0].other, holder[1].other = holder[1], holder[0]
    frozen = weakref.ref(holder[0])
    policy.tick()  # frozen while alive
    holder.clear()  # now a garbage cycle in the permanent generation
    assert frozen() is not None, "a cycle frozen while alive waits for a full collection"
    gc.collect()
    assert frozen() is not None, "an ordinary full collection does not walk the permanent generation"
    policy.floor = 0
    policy.growth = 0.0
    assert policy.tick() is True
    assert frozen() is None
    assert policy.full_collections == 1
    assert gc.get_freeze_count() > 0  # what survived it, frozen again
    assert kept.other is None


def test_a_full_collection_only_once_the_frozen_heap_has_grown(unfrozen: None) -> None:
    policy = HeapPolicy(floor=0, growth=2.0)
    policy.full()
    base = policy.base
    assert base > 0
    assert policy.tick() is False  # nothing new: far below twice the live heap
    grown = [Node() for _ in range(2 * base + 1000)]
    assert policy.tick() is True
    assert policy.base >= len(grown)
