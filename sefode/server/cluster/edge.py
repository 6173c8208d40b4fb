"""The edge's side of forwarding: this node's own WebSockets in rooms owned by another node.

A connection whose room is owned elsewhere is *routed*: its client messages go to the owner's channel as ``in``
envelopes (``forward``), and what the owner sends it comes back as ``out``. A forwarded join waits for the owner's
``ack``. When the room changes owner (the owner says ``moved``, or the lease names another node, or this node was
away past the TTL), the connection joins again wherever the room is now (``rejoin``), which sends it ``room`` and
``state`` as after a reconnection.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sefode.server import logs
from sefode.server.cluster.bus import Bus
from sefode.server.cluster.ownership import Ownership
from sefode.server.cluster.scripts import text
from sefode.server.cluster.stand_ins import CLOSE_TRY_AGAIN, RemoteConnection
from sefode.server.messages import ClientError

if TYPE_CHECKING:
    from sefode.server.placement import Host, Peer

JOIN_TIMEOUT_S = float(os.environ.get("SEFODE_FORWARD_TIMEOUT_S", "3"))
"""How long an edge waits for the owner to acknowledge a forwarded join before telling the client to retry."""
REJOIN_TRIES = 4
"""How many times a join the server makes for a moved room is tried before the client is told to reconnect."""
REJOIN_PAUSE_S = 0.25
"""The pause before the second try; it doubles for each further one."""


@dataclass
class Routed:
    """An edge's connection in a room owned by another node."""

    room_id: str
    owner: str
    join: dict[str, Any]
    acked: asyncio.Event = field(default_factory=asyncio.Event)


class Edge:
    def __init__(self, host: Host, bus: Bus, ownership: Ownership) -> None:
        self.host = host
        self.bus = bus
        self.ownership = ownership
        self.routed: dict[int, Routed] = {}
        """Local connection id -> the room it is in, owned elsewhere."""
        self.local: dict[int, Peer] = {}
        """Our own connections that are routed elsewhere, by id."""

    # ------------------------------------------------------------------ what owners send back
    def deliver(self, env: dict[str, Any]) -> None:
        """``out``: a message for one of our connections."""
        conn = self.local.get(env["c"])
        if conn is not None:
            conn.send_text(env["t"])

    def acked(self, env: dict[str, Any]) -> None:
        """``ack``: the owner took a forwarded join (``j``: a right password became the room's invite: join again
        with that)."""
        route = self.routed.get(env["c"])
        if route is None:
            return
        if "j" in env:
            route.join = env["j"]
            conn = self.local.get(env["c"])
            if conn is not None:
                conn.last_join = env["j"]
        route.acked.set()

    def moved(self, env: dict[str, Any]) -> None:
        """``moved``: the owner lost the room; join it again wherever it is now. The join runs in a task of its own:
        it waits for the new owner's ``ack``, which only the bus's listener can hand over, so awaiting it here (in
        the listener) held every message for this node until the join timed out: after a failover the room's
        players waited out ``JOIN_TIMEOUT_S`` once for each of them."""
        conn = self.local.get(env["c"])
        route = self.routed.get(env["c"])
        if conn is not None and route is not None and route.room_id == env["room"]:
            self.rejoin_soon(conn, route.join)

    # ------------------------------------------------------------------ joins
    async def route(self, peer: Peer, msg: dict[str, Any]) -> bool:
        """A ``join`` of one of our own connections: routed to the room's owner if that is another node (True), or
        entered here (False), the room taken here first if no one holds it. A stand-in is served here."""
        if isinstance(peer, RemoteConnection):
            return False
        owned = msg["room"] in self.host.rooms and self.ownership.owns(msg["room"])
        if not owned and await self.route_join(peer, msg):
            return True
        self.leave_route(peer)
        return False

    async def route_join(self, conn: Peer, msg: dict[str, Any]) -> bool:
        """Join ``conn`` to a room owned elsewhere (True), or take the room here if no one owns it (False: the
        caller joins locally). A join whose owner does not answer in time is refused with ``server/busy``; the
        room is never taken while another node holds its lease (Colyseus #978)."""
        room_id = str(msg["room"])
        for _ in range(3):
            owner = await self.ownership.owner_of(room_id)
            if owner is None:
                if await self.host.room_exists(room_id) is False:
                    raise ClientError("room/not_found", f"there is no room {room_id!r}")
                if await self.ownership.acquire(room_id):
                    return False
                continue
            if owner == self.bus.node:
                if await self.ownership.acquire(room_id):  # ours, or being taken here: wait for that
                    return False
                continue
            self.leave_route(conn)
            route = Routed(room_id, owner, dict(msg))
            self.routed[conn.id] = route
            self.local[conn.id] = conn
            envelope = {"k": "in", "c": conn.id, "p": conn.player_id, "a": conn.client, "room": room_id, "m": msg}
            self.bus.post(owner, envelope)
            try:
                await asyncio.wait_for(route.acked.wait(), JOIN_TIMEOUT_S)
            except TimeoutError:
                logs.warning("cluster.join_timeout", room=room_id, owner=owner, conn=conn.id)
                raise ClientError("server/busy", "the room's server did not answer in time; try again") from None
            return True
        raise ClientError("server/busy", "the room is changing servers; try again")

    async def rejoin(self, conn: Peer, join: dict[str, Any], attempt: int = 0) -> None:
        """Join ``conn`` again where its room is now (the room moved; the client did not ask). A room between
        owners (``server/busy``) is tried again, ``REJOIN_TRIES`` times in all with a growing pause; after that
        the connection is closed with ``CLOSE_TRY_AGAIN`` so that the client reconnects and joins by itself: a
        player is never left connected to a node that joins them nowhere."""
        if conn.closed:
            return
        try:
            if not await self.route_join(conn, join):
                self.leave_route(conn)
                await self.host.enter(conn, join)
        except ClientError as err:
            if err.code != "server/busy":
                conn.error(err.code, err.message)
            elif attempt + 1 < REJOIN_TRIES:
                loop = asyncio.get_running_loop()
                delay = REJOIN_PAUSE_S * 2**attempt
                loop.call_later(delay, lambda: loop.create_task(self.rejoin(conn, join, attempt + 1)))
            else:
                logs.warning("cluster.rejoin_gave_up", conn=conn.id, room=join.get("room"), tries=REJOIN_TRIES)
                self.leave_route(conn)
                conn.end(CLOSE_TRY_AGAIN)
        except Exception as err:
            logs.error("cluster.rejoin_failed", err, conn=conn.id)

    def rejoin_soon(self, conn: Peer, join: dict[str, Any]) -> None:
        asyncio.get_running_loop().create_task(self.rejoin(conn, join))

    def rejoin_all(self) -> None:
        """We were away past the TTL (paused): the owners dropped our connections; join them again."""
        for conn_id, route in list(self.routed.items()):
            conn = self.local.get(conn_id)
            if conn is not None:
                self.rejoin_soon(conn, route.join)

    async def check_routes(self) -> None:
        """A room we route to changed owner (or has none): join our connections again where it is now."""
        rooms = sorted({r.room_id for r in self.routed.values()})
        if not rooms:
            return
        values = await self.bus.redis.mget([f"{self.bus.prefix}lease:{r}" for r in rooms])
        owners = {r: (text(v).split(":")[0] if v else None) for r, v in zip(rooms, values, strict=True)}
        for conn_id, route in list(self.routed.items()):
            owner = owners.get(route.room_id)
            if owner != route.owner:
                conn = self.local.get(conn_id)
                if conn is not None:
                    await self.rejoin(conn, route.join)

    # ------------------------------------------------------------------ client messages
    def forward(self, conn: Peer, msg: dict[str, Any]) -> bool:
        """Send ``msg`` to the owner of the room ``conn`` is routed to (False: not routed; a stand-in of an edge's
        connection is served here, and its id may equal one of ours)."""
        if isinstance(conn, RemoteConnection):
            return False
        route = self.routed.get(conn.id)
        if route is None:
            return False
        self.bus.post(route.owner, {"k": "in", "c": conn.id, "p": conn.player_id, "room": route.room_id, "m": msg})
        return True

    def leave_route(self, conn: Peer) -> None:
        route = self.routed.pop(conn.id, None)
        if route is not None:
            self.bus.post(route.owner, {"k": "bye", "c": conn.id})

    def disconnect(self, conn: Peer) -> None:
        self.leave_route(conn)
        self.local.pop(conn.id, None)
