"""Where a group commit runs (``Workers._flush``): a small one on the event loop itself when the store is SQLite and
its thread has nothing to do, else in the store's thread, after what was given to it; the writes keep their order
either way, and a failed write fails its own callers only."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from server_helpers import postgres_url, run_async

from sefode.server.workers import INLINE_MAX, Workers
from sefode.store import Store


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    store.migrate()
    with store.engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE note (n INTEGER NOT NULL, thread TEXT NOT NULL)"))
    yield store
    store.close()


def _note(conn: sa.Connection, n: int) -> str:
    """A write that records where it ran."""
    where = threading.current_thread().name
    conn.execute(sa.text("INSERT INTO note (n, thread) VALUES (:n, :t)"), {"n": n, "t": where})
    return where


def _notes(store: Store) -> list[tuple[int, str]]:
    with store.engine.connect() as conn:
        return [(int(n), str(t)) for n, t in conn.execute(sa.text("SELECT n, thread FROM note ORDER BY rowid"))]


def test_an_actions_commit_runs_on_the_loop_when_the_store_thread_is_idle(sqlite_store: Store) -> None:
    async def run() -> tuple[str, str, list[str]]:
        workers = Workers(sqlite_store, 1, 0)
        try:
            alone = await workers.write(_note, 1)
            few = await asyncio.gather(*(workers.write(_note, 2 + i) for i in range(INLINE_MAX)))
            return threading.current_thread().name, alone, few
        finally:
            workers.stop_store()
            workers.stop_bots()

    loop_thread, alone, few = run_async(run())
    assert alone == loop_thread
    assert few == [loop_thread] * INLINE_MAX
    assert [n for n, _ in _notes(sqlite_store)] == list(range(1, 2 + INLINE_MAX))


def test_a_commit_waits_in_the_store_thread_behind_a_busy_call_and_a_large_batch_goes_there(
    sqlite_store: Store,
) -> None:
    release = threading.Event()
    started = threading.Event()

    def busy() -> None:
        started.set()
        release.wait(30)
        with sqlite_store.engine.begin() as conn:
            _note(conn, 0)

    async def run() -> tuple[list[str], list[str]]:
        workers = Workers(sqlite_store, 1, 0)
        try:
            loop = asyncio.get_running_loop()
            pending = asyncio.ensure_future(workers.db(busy))
            await loop.run_in_executor(None, started.wait, 30)
            assert workers.in_store_thread == 1
            behind = asyncio.ensure_future(workers.write(_note, 1))
            while workers.in_store_thread < 2 and not behind.done():  # the flush gives it to the thread, behind busy()
                await asyncio.sleep(0)
            assert not behind.done()
            release.set()
            first = [await behind]
            await pending
            assert workers.in_store_thread == 0
            large = await asyncio.gather(*(workers.write(_note, 2 + i) for i in range(INLINE_MAX + 1)))
            return first, list(large)
        finally:
            release.set()
            workers.stop_store()
            workers.stop_bots()

    first, large = run_async(run())
    assert all(where.startswith("sefode-store") for where in first + large), (first, large)
    # The busy call's write first, then the action that waited behind it: the order they were given in.
    assert [n for n, _ in _notes(sqlite_store)] == list(range(0, 3 + INLINE_MAX))


def test_a_failed_commit_on_the_loop_fails_its_callers_only(sqlite_store: Store) -> None:
    def broken(conn: sa.Connection, n: int) -> None:
        _note(conn, n)
        raise RuntimeError("disk full")

    async def run() -> tuple[str, list[Any]]:
        workers = Workers(sqlite_store, 1, 0)
        try:
            both = await asyncio.gather(workers.write(_note, 1), workers.write(broken, 2), return_exceptions=True)
            return threading.current_thread().name, list(both)
        finally:
            workers.stop_store()
            workers.stop_bots()

    loop_thread, results = run_async(run())
    assert results[0] == loop_thread
    assert isinstance(results[1], RuntimeError)
    assert [n for n, _ in _notes(sqlite_store)] == [1]  # the failed write left nothing behind


def test_postgresql_commits_always_run_in_the_store_thread() -> None:
    with postgres_url() as url:
        store = Store(url)
        store.migrate()
        table = f"note_{threading.get_ident()}"
        try:
            with store.engine.begin() as conn:
                conn.execute(sa.text(f"CREATE TABLE {table} (n INTEGER NOT NULL)"))

            def note(conn: sa.Connection, n: int) -> str:
                conn.execute(sa.text(f"INSERT INTO {table} (n) VALUES (:n)"), {"n": n})
                return threading.current_thread().name

            async def run() -> str:
                workers = Workers(store, 1, 0)
                try:
                    assert not workers.inline_commits
                    where: str = await workers.write(note, 1)
                    return where
                finally:
                    workers.stop_store()
                    workers.stop_bots()

            assert run_async(run()).startswith("sefode-store")
        finally:
            with store.engine.begin() as conn:
                conn.execute(sa.text(f"DROP TABLE IF EXISTS {table}"))
            store.close()
