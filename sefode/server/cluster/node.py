"""A node of a cluster (issue 14): the ``placement.Placement`` of ``sefode serve --redis``, made of parts with one job
each (docs/cluster.md):

- ``bus.Bus``: the Redis channels, batched per turn of the event loop;
- ``ownership.Ownership``: the room leases, fencing, taking rooms over and letting them go;
- ``edge.Edge``: this node's own connections in rooms owned elsewhere (forwarding, rejoining a moved room);
- ``stand_ins.StandIns``: other nodes' connections in rooms owned here;
- ``lobby.Lobby``: the cluster-wide lobby and presence; ``passwords.PasswordGuard``: the shared password backoff.

``Cluster`` wires them, runs the keeper (renewals, beats, sweeps) and dispatches what the bus delivers. The hub calls
it as it calls the single node's placement, and it reaches the hub only through ``placement.Host``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis

from sefode.server import logs
from sefode.server.cluster.bus import Bus
from sefode.server.cluster.edge import Edge
from sefode.server.cluster.lobby import Lobby
from sefode.server.cluster.ownership import Lease, Ownership
from sefode.server.cluster.passwords import PasswordGuard
from sefode.server.cluster.stand_ins import RemoteConnection, StandIns
from sefode.store.db import Fence

if TYPE_CHECKING:
    from sefode.server.placement import Host, Peer
    from sefode.server.room import Room

DEFAULT_TTL_MS = 3000

SHARED_KINDS = frozenset({"block", "forget_blocks", "moderation", "end_sessions"})
"""Envelopes (sent to every node with ``tell_all``) that change what every process keeps of the store: the hub
applies them (``Host.hear``)."""


class Cluster:
    def __init__(self, hub: Host, url: str, node: str | None = None, ttl_ms: int = DEFAULT_TTL_MS) -> None:
        self.hub = hub
        self.url = url
        self.node = node or os.environ.get("SEFODE_NODE") or secrets.token_hex(4)
        self.ttl_ms = ttl_ms
        self.prefix = os.environ.get("SEFODE_REDIS_PREFIX", "sf:")
        """Every key and channel starts with it: several clusters (or test runs) can share one Redis."""
        self.redis: aioredis.Redis = aioredis.from_url(url)
        self.boot = secrets.token_hex(6)
        """This process's incarnation, sent with every batch: what is meant for a previous process of the same
        node name (connection ids restart at 1) is never delivered to this one's connections, and the owners drop
        the stand-ins of a previous incarnation."""
        self.bus = Bus(self.redis, self.node, self.prefix, self.boot)
        self.ownership = Ownership(hub, self.redis, self.node, self.prefix, ttl_ms)
        self.edge = Edge(hub, self.bus, self.ownership)
        self.stand_ins = StandIns(hub, self.bus, self.ownership)
        self.lobby = Lobby(hub, self.redis, self.node, self.prefix, ttl_ms, self.boot)
        self.passwords = PasswordGuard(self.redis, self.prefix)
        self.ownership.moved_out = self._move_out
        self.ownership.acquired = self.lobby.publish_summary
        self._tasks: list[asyncio.Task[None]] = []
        self.drained = False
        """Every room held when the drain began was handed over (``drain`` or, when a drain was cut short by its time
        limit, ``close``)."""
        self._drain_began: tuple[float, int] = (0.0, 0)
        """When the drain began (monotonic) and how many rooms this node held then."""

    @property
    def leases(self) -> dict[str, Lease]:
        """The rooms this node holds a lease on."""
        return self.ownership.leases

    @property
    def draining(self) -> bool:
        return self.ownership.draining

    # ------------------------------------------------------------------ life cycle
    async def open(self) -> None:
        await self.redis.ping()
        await self.bus.subscribe()
        await self.lobby.beat()
        self._tasks = [
            asyncio.create_task(self.bus.listen(self.receive_batch), name="cluster-listen"),
            asyncio.create_task(self._keep_alive(), name="cluster-keep-alive"),
            asyncio.create_task(self._keep_order(), name="cluster-keep-order"),
        ]
        logs.event("cluster.open", node=self.node, ttl_ms=self.ttl_ms)
        # Rooms come one by one, as this node takes their leases.
        logs.event("hub.open", rooms=0, database=self.hub.store.engine.url.render_as_string(), node=self.node)

    async def drain(self) -> None:
        """Deploys (SIGTERM): hand every room over at once (the lease is released and the room marked for the
        other nodes' sweepers, which take it within a third of the TTL), and have the edges join their connections
        again at the new owners. This node takes no room any more; its health check answers 503."""
        if self.draining:
            return
        self.ownership.draining = True
        self._drain_began = (time.monotonic(), len(self.leases))
        await self._hand_over_all()
        self._drained()

    def _drained(self) -> None:
        if self.drained:
            return
        self.drained = True
        began, rooms = self._drain_began
        logs.event("cluster.drained", node=self.node, rooms=rooms, ms=round((time.monotonic() - began) * 1000))

    async def _hand_over_all(self) -> None:
        await self.ownership.hand_over_all()
        self.bus.flush()

    async def close(self) -> None:
        """Drain, then leave presence."""
        await self.drain()
        await self._hand_over_all()  # rooms taken while a drain begun earlier was under way, or a drain cut short
        self._drained()
        with contextlib.suppress(Exception):
            await self.lobby.leave()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.bus.close()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        logs.event("cluster.close", node=self.node)

    async def _keep_alive(self) -> None:
        """Every third of the TTL, on a clock of its own: renew the leases held and beat (presence). Nothing slow
        runs here: taking a room over (a store read and a replay) in this loop once let a busy node's own leases and
        presence run out while it was taking someone else's room, so the others thought it dead."""
        period = self.ttl_ms / 3000
        due = time.monotonic()
        while True:
            due += period
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            else:  # late (a pause, a busy loop): beat now, and count the next period from here
                due = time.monotonic()
            try:
                if await self.ownership.renew_all():
                    await self.lobby.publish_summaries(self.ownership.leases)
                if await self.lobby.beat():
                    self.edge.rejoin_all()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                logs.error("cluster.keep_failed", err, node=self.node)

    async def _keep_order(self) -> None:
        """Every third of the TTL: take rooms whose lease ran out, follow rooms that moved, drop dead edges."""
        period = self.ttl_ms / 3000
        while True:
            try:
                await asyncio.sleep(period)
                await self.ownership.sweep()
                await self.edge.check_routes()
                await self.stand_ins.drop_dead_edges()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                logs.error("cluster.sweep_failed", err, node=self.node)

    # ------------------------------------------------------------------ what other nodes say
    async def receive_batch(self, sender: str, boot: str, envelopes: list[dict[str, Any]]) -> None:
        if self.stand_ins.heard.get(sender) != boot:
            await self.stand_ins.heard_from(sender, boot)
        for envelope in envelopes:
            await self.receive(sender, boot, envelope)

    async def receive(self, sender: str, boot: str, env: dict[str, Any]) -> None:
        kind = env["k"]
        if env.get("b", self.boot) != self.boot:
            return  # meant for a previous process of this node (its connection ids are not ours)
        if kind == "out":  # edge: a message for one of our connections
            self.edge.deliver(env)
        elif kind == "ack":
            self.edge.acked(env)
        elif kind == "moved":  # edge: the owner lost the room; join it again wherever it is now
            self.edge.moved(env)
        elif kind == "in":  # owner: a client message forwarded by an edge
            self.stand_ins.serve_soon(sender, boot, env)
        elif kind == "bye":
            await self.stand_ins.bye(sender, boot, env["c"])
        elif kind in SHARED_KINDS:  # every node: what each process keeps of the store changed
            await self.hub.hear(env)

    # ------------------------------------------------------------------ the placement protocol
    def fence(self, room_id: str) -> Fence:
        return self.ownership.fence(room_id)

    def owns(self, room_id: str) -> bool:
        return self.ownership.owns(room_id)

    async def acquire(self, room_id: str) -> bool:
        return await self.ownership.acquire(room_id)

    async def create(self, room_id: str) -> Fence:
        return await self.ownership.create(room_id)

    async def lose(self, room_id: str, why: str) -> None:
        await self.ownership.lose(room_id, why)

    async def release(self, room_id: str) -> None:
        """Give up ``room_id`` at once (a moderator closed it): the next join finds no owner, and the store says the
        room is closed."""
        await self.ownership.release(room_id)

    def _move_out(self, room: Room) -> None:
        """The room is no longer ours: edges re-join their connections; ours are routed to the next owner."""
        for conn in list(room.conns):
            room.conns.discard(conn)
            if isinstance(conn, RemoteConnection):
                self.stand_ins.moved(conn, room.id)
            else:
                conn.room = None
                self.edge.rejoin_soon(conn, conn.last_join or {"type": "join", "room": room.id})

    async def find_invite(self, invite: str) -> str | None:
        """An invite of a room some node holds (every node's rooms are in the shared store)."""
        return await self.hub.db(self.hub.store.room_of_invite, invite)

    async def route(self, peer: Peer, msg: dict[str, Any]) -> bool:
        return await self.edge.route(peer, msg)

    def forward(self, peer: Peer, msg: dict[str, Any]) -> bool:
        return self.edge.forward(peer, msg)

    def disconnect(self, peer: Peer) -> None:
        self.edge.disconnect(peer)

    async def password_guard(self, room: Room, peer: Peer, msg: dict[str, Any]) -> dict[str, Any]:
        return await self.passwords.guard(room, peer, msg)

    async def tell_all(self, envelope: dict[str, Any]) -> None:
        """Publish ``envelope`` to every other node at once (each applies it through ``Host.hear``)."""
        await self.bus.tell_all(envelope)

    # ------------------------------------------------------------------ cluster-wide views (routes)
    async def summaries(self) -> list[dict[str, Any]]:
        return await self.lobby.summaries()

    async def summary(self, room_id: str) -> dict[str, Any] | None:
        return await self.lobby.summary(room_id)

    async def presence(self) -> dict[str, Any]:
        return await self.lobby.presence()
