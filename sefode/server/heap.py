"""When the garbage collector scans the whole heap.

CPython (3.11) runs a full, generation-2 collection whenever a quarter of the long-lived heap is new since the last
one, counting objects that have been freed meanwhile. A server holding 1,000 rooms has some 700,000 long-lived
objects (rooms, matches, 4,000 WebSockets and their tasks), and every action leaves a few new ones that live a
while (events, tricks) and then go by reference counting: at one action per second per room, a full collection came
every 10 to 20 s and stopped the event loop for 0.3 to 0.8 s each time (``docs/benchmarks.md``, issue 14).

``HeapPolicy`` moves every tracked object into the permanent generation once a second (``gc.freeze``, which
costs microseconds): frozen objects are still freed by reference counting, but full collections no longer walk them.
Only garbage *cycles* among frozen objects wait; so when the heap has doubled since the last full collection (it
really grew, or such cycles piled up), the policy runs one, over everything (``gc.unfreeze``, ``gc.collect``), and
freezes again. The heap's size is pymalloc's count of allocated blocks (``sys.getallocatedblocks``, about 1 ms at
700,000 objects; ``gc.get_freeze_count`` walks the list and took 40 ms). The pause of a full collection then comes
once per doubling of the heap, not once per quarter of churn, and the memory held by waiting cycles stays under the
live heap's size.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from dataclasses import dataclass, field

from sefode.server import logs

TICK_S = 1.0
GROWTH = 2.0
"""A full collection when the heap is this many times what survived the last one."""
FLOOR = 500_000
"""No full collection below this many allocated blocks (a small heap is quick to scan anyway)."""


@dataclass
class HeapPolicy:
    growth: float = GROWTH
    floor: int = FLOOR
    base: int = 0
    """Allocated blocks left after the last full collection."""
    full_collections: int = 0
    _task: asyncio.Task[None] | None = field(default=None, repr=False)

    def start(self) -> None:
        """Collect everything once (start-up garbage), freeze the rest, and tick every ``TICK_S``."""
        self.full()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        gc.unfreeze()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            self.tick()

    def tick(self) -> bool:
        """Freeze the heap; run a full collection if it has grown enough since the last one (True then)."""
        # No young collection first: an explicit gc.collect(1) took 16-50 ms in a server with 200 rooms, where the
        # automatic ones take under 1 ms. A garbage cycle frozen here waits for the next full collection.
        gc.freeze()
        if sys.getallocatedblocks() < max(self.floor, self.growth * self.base):
            return False
        self.full()
        return True

    def full(self) -> None:
        began = time.perf_counter()
        before = sys.getallocatedblocks()
        gc.unfreeze()
        collected = gc.collect()
        gc.freeze()
        self.base = sys.getallocatedblocks()
        self.full_collections += 1
        ms = round((time.perf_counter() - began) * 1000, 1)
        logs.event("heap.full_collection", blocks_before=before, blocks=self.base, collected=collected, ms=ms)
