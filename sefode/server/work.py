"""Bounded pools for expensive work (docs/security.md, "Expensive work").

Password hashing (argon2id: 64 MiB and tens of milliseconds a check) runs in ``HASHING``, a small pool of its own,
never in Starlette's thread pool that every other route shares, nor on the event loop. A pool admits at most
``workers + queue`` jobs at once (running or waiting); one more is refused at once with ``Busy`` (``server/busy``,
answered 503 with ``Retry-After``), so that a flood can neither slow the rest of the server nor grow its memory
without bound: at most ``workers`` hashes are in memory at a time, and at most ``queue`` requests wait for one.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sefode.server.messages import ClientError

T = TypeVar("T")

RETRY_AFTER_S = 2
"""What a refusal tells the client to wait (``Retry-After``)."""


class Busy(ClientError):
    """The pool is full: the request is refused without doing any of its work (503 ``server/busy``)."""

    status = 503

    def __init__(self, what: str) -> None:
        super().__init__("server/busy", f"the server is busy with {what}; try again in a few seconds")


class BoundedPool:
    """``workers`` threads and at most ``queue`` jobs waiting for one; ``run`` refuses (``Busy``) beyond that."""

    def __init__(self, name: str, what: str, workers: int, queue: int) -> None:
        self.name = name
        self.what = what
        self.workers = workers
        self.slots = workers + queue
        self._taken = 0
        self._lock = threading.Lock()  # test servers run several event loops in one process
        self._executor: ThreadPoolExecutor | None = None

    @property
    def taken(self) -> int:
        """Jobs running or waiting now."""
        return self._taken

    def _take(self) -> None:
        with self._lock:
            if self._taken >= self.slots:
                raise Busy(self.what)
            self._taken += 1
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix=self.name)

    def _give_back(self) -> None:
        with self._lock:
            self._taken -= 1

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in one of the pool's threads; ``Busy`` at once when the pool is full."""
        self._take()
        try:
            assert self._executor is not None
            return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)
        finally:
            self._give_back()


def _hash_workers() -> int:
    return max(1, (os.cpu_count() or 2) // 2)


HASHING = BoundedPool("sefode-hash", "password checks", workers=_hash_workers(), queue=16 * _hash_workers())
"""The argon2 hashes and checks of accounts (logins, registrations, deletion) and of new room passwords."""
