"""A room between two nodes answers a join with ``server/busy`` (docs/protocol.md, docs/cluster.md). No player may be
left connected but joined nowhere: the joins a node makes by itself for a moved room are tried again and then the
connection is closed with 1013 (the client reconnects and joins); the SDK client sends its own join again.

(The random-moments test in test_cluster.py once saw a player whose node resumed from a pause stop receiving states:
its rejoin had been answered ``server/busy`` and nothing tried again.)"""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

import pytest
from server_helpers import run_async
from websockets.asyncio.server import ServerConnection, serve

from sefode.client import Client, RoomUpdate, ServerError
from sefode.server.cluster import CLOSE_TRY_AGAIN, REJOIN_TRIES, Cluster
from sefode.server.cluster import edge as cluster_module
from sefode.server.hub import Connection, Hub
from sefode.server.messages import ClientError


def _cluster(monkeypatch: pytest.MonkeyPatch, answers: list[bool | None]) -> tuple[Cluster, list[int]]:
    """A cluster whose forwarded joins answer in turn: None ``server/busy``, True joined there (a routed join). No
    Redis is reached (the client is lazy, and nothing here posts)."""
    monkeypatch.setattr(cluster_module, "REJOIN_PAUSE_S", 0.01)
    node = Cluster(cast(Hub, object()), "redis://127.0.0.1:6379/15", node="nx")
    calls: list[int] = []

    async def route_join(conn: Any, join: dict[str, Any]) -> bool:
        calls.append(len(calls))
        answer = answers[min(len(calls) - 1, len(answers) - 1)]
        if answer is None:
            raise ClientError("server/busy", "the room's server did not answer in time; try again")
        return answer

    monkeypatch.setattr(node.edge, "route_join", route_join)
    return node, calls


class _Quiet:
    """Counts the cluster module's timers (``call_later``, as ``Edge.rejoin`` schedules its retries) from its making:
    ``settle`` returns once nothing more can happen, with no bounded look: no timer is left to fire and no task
    but the caller's is left (a further try could only come from one of them)."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.pending = 0
        self.fired = asyncio.Event()
        self.schedule = self.loop.call_later
        self.loop.call_later = self.call_later  # type: ignore[method-assign,assignment]

    def call_later(self, delay: float, callback: Any, *args: Any, **kwargs: Any) -> asyncio.TimerHandle:
        if getattr(callback, "__module__", None) != cluster_module.__name__:  # asyncio's own (wait_for's timeout)
            return self.schedule(delay, callback, *args, **kwargs)
        self.pending += 1

        def run(*a: Any) -> None:
            self.pending -= 1
            self.fired.set()
            callback(*a)

        return self.schedule(delay, run, *args, **kwargs)

    async def settle(self) -> None:
        caller = asyncio.current_task()

        async def quiet() -> None:
            while True:
                others = [t for t in asyncio.all_tasks() if t not in (caller, asyncio.current_task())]
                if others:
                    await asyncio.wait(others)
                elif self.pending:
                    self.fired.clear()
                    await self.fired.wait()
                else:
                    return

        try:
            await asyncio.wait_for(quiet(), 20)
        finally:
            self.loop.call_later = self.schedule  # type: ignore[method-assign]


def _queued(conn: Connection) -> list[str | None]:
    out: list[str | None] = []
    while not conn.queue.empty():
        out.append(conn.queue.get_nowait())
    return out


def test_a_moved_players_join_that_stays_busy_is_tried_again_then_the_connection_closes_with_1013(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    node, calls = _cluster(monkeypatch, [None])
    conn = Connection(None, "p1", 10.0, 10.0)

    async def case() -> None:
        quiet = _Quiet()
        await node.edge.rejoin(conn, {"type": "join", "room": "r1"})
        await quiet.settle()

    run_async(case())
    assert len(calls) == REJOIN_TRIES
    assert conn.closed and conn.close_code == CLOSE_TRY_AGAIN == 1013
    # No "server/busy" reaches the player (they did not ask to join): the close alone tells their client to reconnect.
    assert _queued(conn) == [None]


def test_a_moved_players_join_that_is_busy_twice_then_succeeds_keeps_the_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    node, calls = _cluster(monkeypatch, [None, None, True])
    conn = Connection(None, "p1", 10.0, 10.0)

    async def case() -> None:
        quiet = _Quiet()
        await node.edge.rejoin(conn, {"type": "join", "room": "r1"})
        await quiet.settle()

    run_async(case())
    assert len(calls) == 3
    assert not conn.closed and conn.close_code is None
    assert _queued(conn) == []


def test_other_refusals_of_a_moved_players_join_are_told_to_the_player_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_module, "REJOIN_PAUSE_S", 0.01)
    node = Cluster(cast(Hub, object()), "redis://127.0.0.1:6379/15", node="nx")
    calls: list[int] = []

    async def route_join(conn: Any, join: dict[str, Any]) -> bool:
        calls.append(1)
        raise ClientError("room/not_found", "there is no room 'r1'")

    monkeypatch.setattr(node.edge, "route_join", route_join)
    conn = Connection(None, "p1", 10.0, 10.0)

    async def case() -> None:
        quiet = _Quiet()
        await node.edge.rejoin(conn, {"type": "join", "room": "r1"})
        await quiet.settle()

    run_async(case())
    assert len(calls) == 1 and not conn.closed
    (sent,) = _queued(conn)
    assert sent is not None and json.loads(sent)["code"] == "room/not_found"


def test_the_sdk_client_sends_its_join_again_after_server_busy() -> None:
    """A stand-in server: hello, then the first join answered ``server/busy``, the second with the room."""
    joins: list[dict[str, Any]] = []

    async def handler(ws: ServerConnection) -> None:
        await ws.send(json.dumps({"type": "hello", "protocol": 5, "player_id": "p1", "name": "Ana"}))
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "auth":
                await ws.send(json.dumps({"type": "hello", "protocol": 5, "player_id": "p1", "name": "Ana"}))
            elif msg["type"] == "join":
                joins.append(msg)
                if len(joins) == 1:
                    busy = {"type": "error", "code": "server/busy", "message": "try again", "ref": msg.get("ref")}
                    await ws.send(json.dumps(busy))
                else:
                    await ws.send(json.dumps({"type": "room", "room": {"id": msg["room"], "seats": []}}))

    async def case() -> list[Any]:
        async with serve(handler, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            seen: list[Any] = []
            async with Client(f"http://127.0.0.1:{port}", "tok") as client:
                await client.join("r1")
                async for event in client.events():
                    seen.append(event)
                    if isinstance(event, RoomUpdate):
                        break
            return seen

    seen = run_async(asyncio.wait_for(case(), 20))
    assert [type(e) for e in seen] == [ServerError, RoomUpdate]
    assert isinstance(seen[0], ServerError) and seen[0].code == "server/busy"
    assert len(joins) == 2 and all(j["room"] == "r1" for j in joins)
