"""Bounded pools for expensive work (docs/security.md, "Expensive work").

Password hashing (argon2id: 64 MiB and tens of milliseconds a check) runs in ``HASHING``, a small pool of its own,
never in Starlette's thread pool that every other route shares, nor on the event loop. A pool admits at most
``workers + queue`` jobs at once (running or waiting); one more is refused at once with ``Busy`` (``server/busy``,
answered 503 with ``Retry-After``), so that a flood can neither slow the rest of the server nor grow its memory
without bound: at most ``workers`` hashes are in memory at a time, and at most ``queue`` requests wait for one.

The solo coach and the match analyses run in a ``FairPool`` each: one thread serving its clients in turn, so that a
client with a pile of requests never holds up another's.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

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


class FairPool:
    """One worker thread that serves its callers' keys in turn (a key: a client's address): a key with many jobs
    waiting gets one job per round, so nobody waits behind another client's pile. At most ``per_key`` jobs of one key
    and ``queue`` in all may be waiting or running; one more is refused at once with ``Busy``."""

    def __init__(self, name: str, what: str, per_key: int, queue: int) -> None:
        self.name = name
        self.what = what
        self.per_key = per_key
        self.slots = queue
        self._waiting: dict[str, deque[_Job]] = {}
        self._turns: deque[str] = deque()
        """Keys with a job waiting, in the order they are served (a key served goes to the back)."""
        self._held: dict[str, int] = {}
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def held(self, key: str) -> int:
        """Jobs of ``key`` waiting or running now."""
        with self._cond:
            return self._held.get(key, 0)

    async def run(self, key: str, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` on the pool's thread when ``key``'s turn comes; ``Busy`` at once when full."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._cond:
            if self._closed or self._held.get(key, 0) >= self.per_key or sum(self._held.values()) >= self.slots:
                raise Busy(self.what)
            self._held[key] = self._held.get(key, 0) + 1
            jobs = self._waiting.setdefault(key, deque())
            if not jobs:
                self._turns.append(key)
            jobs.append(_Job(lambda: fn(*args), future, loop))
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name=self.name, daemon=True)
                self._thread.start()
            self._cond.notify()
        try:
            return await future
        finally:
            with self._cond:
                self._held[key] -= 1
                if not self._held[key]:
                    del self._held[key]

    def _next(self) -> _Job | None:
        with self._cond:
            while not self._turns and not self._closed:
                self._cond.wait()
            if self._closed:
                return None
            key = self._turns.popleft()
            jobs = self._waiting[key]
            job = jobs.popleft()
            if jobs:
                self._turns.append(key)
            else:
                del self._waiting[key]
            return job

    def _serve(self) -> None:
        while (job := self._next()) is not None:
            if job.future.cancelled():
                continue
            try:
                result = job.call()
            except BaseException as err:  # handed to the caller, who raises it
                job.loop.call_soon_threadsafe(_settle, job.future, None, err)
            else:
                job.loop.call_soon_threadsafe(_settle, job.future, result, None)

    def close(self) -> None:
        """Refuse new jobs and let the thread end after the job it is on (waiting jobs are cancelled)."""
        with self._cond:
            self._closed = True
            for jobs in self._waiting.values():
                for job in jobs:
                    job.loop.call_soon_threadsafe(job.future.cancel)
            self._waiting.clear()
            self._turns.clear()
            self._cond.notify_all()


@dataclass
class _Job:
    call: Callable[[], Any]
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
