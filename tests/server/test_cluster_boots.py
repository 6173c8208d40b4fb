"""A node restarted under its name (its process's incarnation, ``Cluster.boot``, changes): what an owner still sends
the previous process's connections is never delivered to the new process's connections of the same ids, and an
owner drops the previous process's stand-ins the first time it hears from the new one. Without Redis: envelopes are
handed to ``Cluster`` as its bus would. (test_cluster.py shows the same on real nodes.)"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

import pytest
from server_helpers import run_async

from sefode.server.cluster import Cluster, RemoteConnection, Routed
from sefode.server.cluster.ownership import Lease
from sefode.server.hub import Connection, Hub


class _Room:
    def __init__(self) -> None:
        self.exited: list[Any] = []

    async def exit(self, conn: Any) -> None:
        self.exited.append(conn)


def _node() -> Cluster:
    return Cluster(cast(Hub, object()), "redis://127.0.0.1:6379/15", node="n2")


def _texts(conn: Connection) -> list[str | None]:
    out: list[str | None] = []
    while not conn.queue.empty():
        out.append(conn.queue.get_nowait())
    return out


def test_an_edge_delivers_nothing_meant_for_its_previous_process() -> None:
    node = _node()
    conn = Connection(None, "cid", 10.0, 10.0)
    node.edge.local[conn.id] = conn

    async def case() -> None:
        await node.receive("n1", "owner-boot", {"k": "out", "b": "previous", "c": conn.id, "t": "old"})
        await node.receive("n1", "owner-boot", {"k": "out", "b": node.boot, "c": conn.id, "t": "mine"})

    run_async(case())
    assert _texts(conn) == ["mine"]


def test_an_owner_drops_a_restarted_nodes_stand_ins_when_it_first_hears_from_it() -> None:
    owner = _node()
    room = _Room()
    old = RemoteConnection(owner.bus, "n3", "first", 1, "bia")
    kept = RemoteConnection(owner.bus, "n4", "other", 1, "ana")
    for rconn in (old, kept):
        rconn.room = cast(Any, room)
        owner.stand_ins.remote[(rconn.edge, rconn.boot, rconn.id)] = rconn

    async def case() -> None:
        await owner.stand_ins.heard_from("n3", "first")  # the incarnation the stand-in came from: nothing changes
        assert (old.edge, old.boot, old.id) in owner.stand_ins.remote and room.exited == []
        await owner.stand_ins.heard_from("n3", "second")  # n3 was restarted

    run_async(case())
    assert list(owner.stand_ins.remote) == [("n4", "other", 1)]
    assert room.exited == [old] and old.closed


def test_a_node_busy_taking_a_room_over_still_renews_its_leases_and_beats() -> None:
    """Taking a room over reads the store and replays the match; on a busy machine that once took longer than the
    TTL, and since it ran in the same loop as the renewals and the beat, the node's own leases and presence ran out
    and the other nodes took it for dead. The sweep is held here for good: the beats and renewals go on."""
    node = Cluster(cast(Hub, object()), "redis://127.0.0.1:6379/15", node="n2", ttl_ms=60)
    calls: list[str] = []

    async def case() -> None:
        swept, never, beats = asyncio.Event(), asyncio.Event(), asyncio.Event()

        async def sweep() -> None:  # a takeover that does not end
            swept.set()
            await never.wait()

        async def renew_all() -> bool:
            calls.append("renew")
            return False

        async def beat() -> bool:
            calls.append("beat after the sweep began" if swept.is_set() else "beat")
            if calls.count("beat after the sweep began") >= 3:
                beats.set()
            return False

        node.ownership.sweep = sweep  # type: ignore[method-assign]
        node.ownership.renew_all = renew_all  # type: ignore[method-assign]
        node.lobby.beat = beat  # type: ignore[method-assign]
        tasks = [asyncio.create_task(node._keep_alive()), asyncio.create_task(node._keep_order())]
        try:
            await asyncio.wait_for(swept.wait(), 10)
            await asyncio.wait_for(beats.wait(), 10)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    run_async(case())
    assert calls.count("beat after the sweep began") >= 3 and calls.count("renew") >= 3


def test_a_write_refused_after_the_room_was_handed_over_is_not_a_lost_room(caplog: pytest.LogCaptureFixture) -> None:
    """A player's move that waited for the room while a drain handed it over is refused by its fence (the lease is
    gone here): the node lost nothing then, and says so (``cluster.late_write``, not ``cluster.lost``). A room still
    held here and fenced out is lost, and logged so."""

    class _Host:
        def __init__(self) -> None:
            self.rooms: dict[str, Any] = {}

        def drop_room(self, room_id: str) -> Any:
            return self.rooms.pop(room_id, None)

    node = _node()
    host = _Host()
    node.ownership.host = cast(Any, host)
    node.ownership.leases["held"] = Lease(3, float("inf"))
    caplog.set_level(logging.INFO, logger="sefode")

    async def case() -> None:
        await node.ownership.lose("handed-over", "fenced")
        await node.ownership.lose("held", "fenced")

    run_async(case())
    told = [(r.getMessage(), getattr(r, "fields", {}).get("room")) for r in caplog.records]
    assert ("cluster.late_write", "handed-over") in told and ("cluster.lost", "handed-over") not in told
    assert ("cluster.lost", "held") in told and "held" not in node.ownership.leases


def test_a_moved_room_is_joined_again_without_holding_the_nodes_other_messages() -> None:
    """An edge told that a room moved joins it again at the new owner and waits for its ``ack``. The ``ack`` comes
    through the same listener as the ``moved``: a join made inside the listener held it until the join timed out,
    and after a failover every player of the room waited that out (3 s each, seen in the cluster rigs). Here the
    join waits for the ack as the real one does; the ``moved`` must return at once and the ``ack`` get through."""
    node = _node()
    conn = Connection(None, "cid", 10.0, 10.0)
    node.edge.local[conn.id] = conn
    node.edge.routed[conn.id] = Routed("room1", "n1", {"type": "join", "room": "room1"})
    joined: list[str] = []

    async def case() -> None:
        waiting, done = asyncio.Event(), asyncio.Event()

        async def rejoin(peer: Any, join: dict[str, Any], attempt: int = 0) -> None:  # as route_join waits
            fresh = node.edge.routed[conn.id] = Routed("room1", "n3", join)
            waiting.set()
            await asyncio.wait_for(fresh.acked.wait(), 5)
            joined.append(join["room"])
            done.set()

        node.edge.rejoin = rejoin  # type: ignore[method-assign,assignment]
        moved = {"k": "moved", "b": node.boot, "c": conn.id, "room": "room1"}
        await asyncio.wait_for(node.receive_batch("n1", "owner-boot", [moved]), 1)
        await asyncio.wait_for(waiting.wait(), 5)
        ack = {"k": "ack", "b": node.boot, "c": conn.id}
        await asyncio.wait_for(node.receive_batch("n3", "new-owner-boot", [ack]), 1)
        await asyncio.wait_for(done.wait(), 5)

    run_async(case())
    assert joined == ["room1"]
