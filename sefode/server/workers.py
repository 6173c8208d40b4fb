"""The hub's workers: the store's one thread (with group commit of writes) and the bots' threads and processes."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from sefode.bots.base import Player, Seen
from sefode.bots.players import make_player
from sefode.engine import Game, get_game
from sefode.server import logs, metrics
from sefode.store import Store
from sefode.store.db import Fence

T = TypeVar("T")

INLINE_MAX = 4
"""A group commit of at most this many writes runs on the event loop itself when the store is SQLite and its thread
has nothing to do (``Workers._flush``): handing one action's commit to the thread and its answer back cost more CPU
than the commit (about 15% of a server's time per action at one action per second per room, docs/benchmarks.md).
Larger batches (a saturated server: median 2 ms, up to 35 ms) stay in the thread, where the loop goes on meanwhile.
A write of another thread (the account routes run their own transactions) holds SQLite's lock for the length of its
transaction: an inline commit then waits that long on the loop, where the store's thread used to wait."""

PROCESS_KINDS = frozenset({"hard"})
"""Bot kinds whose decisions run in a worker process (CPU-heavy search)."""


def exit_with_parent(parent: int) -> None:
    """Initializer of a bot worker process: exit as soon as the server that started it is gone (even after a
    SIGKILL, which gives the server no chance to shut its pool down), instead of idling forever as an orphan."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def decide_in_process(kind: str, seed: int, think_ms: float, game_name: str, state: Any, seat: int) -> int:
    """A bot decision in a worker process (module-level, so that it pickles)."""
    player = make_player(kind, seed, think_ms)
    return player.choose(Seen(get_game(game_name), state, seat))


class Workers:
    def __init__(self, store: Store, bot_threads: int, bot_processes: int) -> None:
        self.store = store
        self._db = ThreadPoolExecutor(1, thread_name_prefix="sefode-store")
        self._in_thread = 0
        """Store calls given to the store's thread and not yet finished there (``db``)."""
        self._in_thread_lock = threading.Lock()
        self.inline_commits = store.engine.dialect.name == "sqlite"
        """Whether small group commits may run on the event loop when the store's thread is idle (``INLINE_MAX``):
        SQLite only, whose commit is a local write without a network round trip."""
        self._pending: list[tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._bots = ThreadPoolExecutor(bot_threads, thread_name_prefix="sefode-bot")
        self.bot_processes = bot_processes
        """How many worker processes the search bots may use (0 once the pool failed: threads from then on)."""
        self.procs: ProcessPoolExecutor | None = None
        """The bots' process pool, started with the first decision that needs it."""

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store call in the store's one worker thread (writes stay in order)."""
        with self._in_thread_lock:
            self._in_thread += 1
        return await asyncio.get_running_loop().run_in_executor(self._db, self._counted, fn, args)

    def _counted(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        """``fn(*args)`` in the store's thread, counted out when it has finished there (even if its caller gave up
        waiting: the thread still runs it)."""
        try:
            return fn(*args)
        finally:
            with self._in_thread_lock:
                self._in_thread -= 1

    @property
    def in_store_thread(self) -> int:
        """Store calls queued or running in the store's thread."""
        return self._in_thread

    async def write(self, fn: Callable[..., Any], *args: Any, fence: Fence | None = None) -> Any:
        """A write ``fn(conn, *args)``, group-committed with the writes queued meanwhile; ``fence`` (cluster mode)
        is checked in the same transaction.

        It returns once its transaction has committed, so a caller may broadcast what it stored.
        """
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((fn, (*args, fence), future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            ops = [(fn, args[:-1], args[-1]) for fn, args, _ in batch]
            commit = metrics.timed(metrics.STORE_WRITE, self.store.run_batch, "actions")
            results: list[Any]
            try:
                if self.inline_commits and len(ops) <= INLINE_MAX and self.in_store_thread == 0:
                    # On the loop, between two of its steps: nothing else reaches the store meanwhile (the thread
                    # is idle and nothing can be given to it until this returns), so the writes keep their order.
                    results = commit(ops)
                else:
                    results = await self.db(commit, ops)
            except Exception as err:
                results = [err] * len(batch)
            for (_, _, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if isinstance(result, Exception):
                    future.set_exception(result)
                else:
                    future.set_result(result)

    async def decide(self, player: Player, game: Game[Any], state: Any, seat: int) -> int:
        """A bot's decision, off the event loop: search bots (``hard``) in a worker process, so that their CPU
        does not compete with the event loop for the GIL; quick ones in a worker thread. ``state`` is a clone."""
        loop = asyncio.get_running_loop()
        if player.kind in PROCESS_KINDS and self.bot_processes > 0:
            try:
                if self.procs is None:
                    context = multiprocessing.get_context("spawn")
                    self.procs = ProcessPoolExecutor(
                        self.bot_processes, mp_context=context, initializer=exit_with_parent, initargs=(os.getpid(),)
                    )
                seed = secrets.randbits(32)
                args = (player.kind, seed, player.think_ms, game.name, state, seat)
                action: int = await loop.run_in_executor(self.procs, decide_in_process, *args)
                return action
            except (BrokenProcessPool, pickle.PicklingError, OSError) as err:
                logs.error("bot.process_pool_failed", err, kind=player.kind)
                self.bot_processes = 0  # from now on, threads
        seen = Seen(game, state, seat)
        chosen: int = await loop.run_in_executor(self._bots, player.choose, seen)
        return chosen

    def stop_bots(self) -> None:
        self._bots.shutdown(wait=False, cancel_futures=True)
        if self.procs is not None:
            self.procs.shutdown(wait=False, cancel_futures=True)

    def stop_store(self) -> None:
        """Wait for the store's thread to finish what it was given."""
        self._db.shutdown(wait=True)
