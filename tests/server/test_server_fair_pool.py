"""Issue 24, "also seen": one coach thread served every player in arrival order, so 8 guests from one address
delayed another client's tip to 22.6 s. The coach and the match analyses now run in a ``FairPool``: its clients are
served in turn, and one client may hold only a few jobs (docs/security.md, "Expensive work")."""

from __future__ import annotations

import asyncio
import threading

import pytest
from server_helpers import run_async

from sefode.server.work import Busy, FairPool

WAIT_S = 20.0


class Gate:
    """Jobs that record their name when they run and, for the first one, wait until the test opens the gate."""

    def __init__(self) -> None:
        self.order: list[str] = []
        self.first_running = threading.Event()
        self.open = threading.Event()

    def job(self, name: str, hold: bool = False) -> str:
        self.order.append(name)
        if hold:
            self.first_running.set()
            assert self.open.wait(WAIT_S)
        return name


async def _until(predicate_event: threading.Event) -> None:
    await asyncio.to_thread(predicate_event.wait, WAIT_S)


def test_a_client_with_many_jobs_waiting_gets_one_per_round_and_does_not_hold_up_another() -> None:
    async def scenario() -> list[str]:
        pool = FairPool("test-fair", "tips", per_key=4, queue=16)
        gate = Gate()
        first = asyncio.ensure_future(pool.run("10.0.0.1", gate.job, "a1", True))
        await _until(gate.first_running)
        pile = [asyncio.ensure_future(pool.run("10.0.0.1", gate.job, f"a{n}")) for n in (2, 3, 4)]
        await asyncio.sleep(0)  # the pile is queued before the other client comes (no thread runs it: a1 holds it)
        other = asyncio.ensure_future(pool.run("10.0.0.2", gate.job, "b1"))
        await asyncio.sleep(0)
        gate.open.set()
        results = await asyncio.gather(first, *pile, other)
        assert sorted(results) == ["a1", "a2", "a3", "a4", "b1"]
        pool.close()
        return gate.order

    order = run_async(scenario())
    # b1 came after a2..a4 were waiting, yet it is served in the next round (in arrival order it would be last).
    assert order == ["a1", "a2", "b1", "a3", "a4"], order


def test_one_client_may_hold_only_its_share_and_the_pool_only_its_size() -> None:
    async def scenario() -> None:
        pool = FairPool("test-fair", "tips", per_key=2, queue=3)
        gate = Gate()
        held = [asyncio.ensure_future(pool.run("10.0.0.1", gate.job, "a1", True))]
        await _until(gate.first_running)
        held.append(asyncio.ensure_future(pool.run("10.0.0.1", gate.job, "a2")))
        await asyncio.sleep(0)
        with pytest.raises(Busy):
            await pool.run("10.0.0.1", gate.job, "a3")  # the client's share is taken
        held.append(asyncio.ensure_future(pool.run("10.0.0.2", gate.job, "b1")))
        await asyncio.sleep(0)
        with pytest.raises(Busy):
            await pool.run("10.0.0.3", gate.job, "c1")  # the pool is full
        assert pool.held("10.0.0.1") == 2
        gate.open.set()
        assert await asyncio.gather(*held) == ["a1", "a2", "b1"]
        assert pool.held("10.0.0.1") == 0
        assert await pool.run("10.0.0.3", gate.job, "c2") == "c2"  # room again once they are done
        pool.close()

    run_async(scenario())


def test_a_failing_job_raises_to_its_caller_and_the_pool_goes_on() -> None:
    def fails() -> None:
        raise ValueError("no such seat")

    async def scenario() -> None:
        pool = FairPool("test-fair", "tips", per_key=2, queue=4)
        with pytest.raises(ValueError, match="no such seat"):
            await pool.run("10.0.0.1", fails)
        assert await pool.run("10.0.0.1", lambda: 7) == 7
        pool.close()
        with pytest.raises(Busy):
            await pool.run("10.0.0.1", lambda: 8)  # closed: refused

    run_async(scenario())
