"""Many nodes (issue 14): room leases on Redis, fencing tokens in the store, forwarding over Redis pub/sub.

A node of a cluster (``sefode serve --redis redis://…`` with ``DATABASE_URL=postgresql://…``) holds the rooms it
owns. Ownership is a Redis lease per room (``sf:lease:<room>`` = ``<node>:<epoch>``, with a TTL the owner renews);
the epoch comes from ``INCR sf:epoch:<room>``, so every new owner has a higher one. Every write a node makes for a
room carries ``(room, epoch, node)``; the store checks it against ``room_fences`` in the same transaction
(``sefode.store.db.check_fence``) and refuses an older epoch. A node also stops acting for a room as soon as its own
view of the lease has run out (``valid_until``, monotonic) or a renewal fails.

Any node serves any player by **forwarding**: the node a WebSocket is connected to (its *edge*) sends the client's
messages for a room owned elsewhere to the owner's channel ``sf:node:<owner>``, and the owner sends that
connection's messages back to the edge's channel. Messages for one node are batched per event-loop turn into one
``PUBLISH``. When a room changes owner (death, pause, drain), the edges re-join their connections at the new owner,
which sends them ``room`` and ``state`` as after a reconnection. See docs/cluster.md.

``Cluster`` is a ``placement.Placement``: the hub calls it as it calls the single node's placement, and it reaches
the hub only through ``placement.Host``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
import redis.asyncio as aioredis

from sefode.server import logs, metrics
from sefode.server.limits import Limits
from sefode.server.messages import ClientError
from sefode.store.db import Fence, FencedOut

if TYPE_CHECKING:
    from sefode.server.placement import Host, Peer
    from sefode.server.room import Room

DEFAULT_TTL_MS = 3000
JOIN_TIMEOUT_S = float(os.environ.get("SEFODE_FORWARD_TIMEOUT_S", "3"))
"""How long an edge waits for the owner to acknowledge a forwarded join before telling the client to retry."""
REJOIN_TRIES = 4
"""How many times a join the server makes for a moved room is tried before the client is told to reconnect."""
REJOIN_PAUSE_S = 0.25
"""The pause before the second try; it doubles for each further one."""
CLOSE_TRY_AGAIN = 1013
"""WebSocket close code "try again later": the client reconnects by itself (docs/protocol.md)."""

_ACQUIRE = """
if redis.call('exists', KEYS[1]) == 1 then return {0, redis.call('get', KEYS[1])} end
local epoch = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], ARGV[1] .. ':' .. epoch, 'PX', ARGV[2])
redis.call('zadd', KEYS[3], ARGV[3], ARGV[4])
return {1, epoch}
"""
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  redis.call('zadd', KEYS[2], ARGV[3], ARGV[4])
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1])
  redis.call('zadd', KEYS[2], ARGV[2], ARGV[3])
  return 1
end
return 0
"""

_NOW_MS = """
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""
_PASSWORD_WAIT = (
    _NOW_MS
    + """
local wait = 0
for _, key in ipairs(KEYS) do
  local v = redis.call('hmget', key, 'last', 'until')
  if v[1] then
    if now - tonumber(v[1]) > tonumber(ARGV[1]) then redis.call('del', key)
    else wait = math.max(wait, tonumber(v[2] or '0') - now) end
  end
end
return wait
"""
)
_PASSWORD_FAILED = (
    _NOW_MS
    + """
local free, first, most, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
for _, key in ipairs(KEYS) do
  local v = redis.call('hmget', key, 'count', 'last', 'until')
  local count, blocked = tonumber(v[1] or '0'), tonumber(v[3] or '0')
  if v[2] and now - tonumber(v[2]) > window then count, blocked = 0, 0 end
  count = count + 1
  if count >= free then blocked = now + math.min(most, first * 2 ^ (count - free)) end
  redis.call('hset', key, 'count', count, 'last', now, 'until', blocked)
  redis.call('pexpire', key, window + most)
end
return 1
"""
)

_CATCH_UP = """
if tonumber(redis.call('get', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('set', KEYS[1], ARGV[1]) end
return 1
"""


@dataclass
class Lease:
    epoch: int
    valid_until: float
    """Monotonic time until which this node may act for the room (measured from before the Redis call)."""


@dataclass
class Routed:
    """An edge's connection in a room owned by another node."""

    room_id: str
    owner: str
    join: dict[str, Any]
    acked: asyncio.Event = field(default_factory=asyncio.Event)


class RemoteConnection:
    """The owner's stand-in for a WebSocket held by another node: what it is sent goes to that node's channel."""

    closed = False

    def __init__(self, cluster: Cluster, edge: str, boot: str, conn_id: int, player_id: str) -> None:
        self.cluster = cluster
        self.edge = edge
        self.boot = boot
        """The edge's incarnation: a node restarted under the same name numbers its connections from 1 again."""
        self.id = conn_id
        self.player_id = player_id
        self.room: Room | None = None
        self.ws = None
        self.session: str | None = None
        self.client = f"node:{edge}"
        """The client's address as the edge saw it (sent with each forwarded join): the key of the password
        backoff. The per-connection and per-player message rates are applied by the edge."""
        self.close_code: int | None = None
        self.last_join: dict[str, Any] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(orjson.dumps(message).decode())

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        self.cluster.post(self.edge, {"k": "out", "b": self.boot, "c": self.id, "t": text})

    def end(self, close_code: int) -> None:
        """Stop sending to the edge (the edge closes its own socket); from now on it handles no message."""
        self.close_code = close_code
        self.closed = True

    def error(self, code: str, message: str, ref: Any = None) -> None:
        out: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if ref is not None:
            out["ref"] = ref
        self.send(out)


class Cluster:
    def __init__(self, hub: Host, url: str, node: str | None = None, ttl_ms: int = DEFAULT_TTL_MS) -> None:
        self.hub = hub
        self.url = url
        self.node = node or os.environ.get("SEFODE_NODE") or secrets.token_hex(4)
        self.ttl_ms = ttl_ms
        self.prefix = os.environ.get("SEFODE_REDIS_PREFIX", "sf:")
        """Every key and channel starts with it: several clusters (or test runs) can share one Redis."""
        self.redis: aioredis.Redis = aioredis.from_url(url)
        self.leases: dict[str, Lease] = {}
        self.routed: dict[int, Routed] = {}
        """Edge side: local connection id -> the room it is in, owned elsewhere."""
        self.local: dict[int, Peer] = {}
        """Edge side: our own connections that are routed elsewhere, by id."""
        self.remote: dict[tuple[str, str, int], RemoteConnection] = {}
        """Owner side: (edge node, its incarnation, connection id) -> stand-in."""
        self.boot = secrets.token_hex(6)
        """This process's incarnation, sent with every batch: what is meant for a previous process of the same
        node name (connection ids restart at 1) is never delivered to this one's connections, and the owners drop
        the stand-ins of a previous incarnation."""
        self.heard: dict[str, str] = {}
        """Owner side: each node's incarnation as its latest batch gave it. A batch from a new incarnation of a
        node drops the stand-ins of the previous one at once (``_heard_from``), without waiting for a beat."""
        self.outbox: dict[str, list[dict[str, Any]]] = {}
        self._flush_armed = False
        self._tasks: list[asyncio.Task[None]] = []
        self._acquiring: dict[str, asyncio.Future[bool]] = {}
        self.draining = False
        self.drained = False
        """Every room held when the drain began was handed over (``drain`` or, when a drain was cut short by its time
        limit, ``close``)."""
        self._drain_began: tuple[float, int] = (0.0, 0)
        """When the drain began (monotonic) and how many rooms this node held then."""
        self.last_beat = time.monotonic()
        self._presence: dict[str, str] | None = None
        """The presence hash as last written (None: rewrite it whole at the next beat)."""
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._catch_up = self.redis.register_script(_CATCH_UP)
        self._password_wait = self.redis.register_script(_PASSWORD_WAIT)
        self._password_failed = self.redis.register_script(_PASSWORD_FAILED)
        self.limits = Limits()
        """The node's limits (``create_app`` sets them): the room-password backoff is applied cluster-wide."""

    # ------------------------------------------------------------------ life cycle
    async def open(self) -> None:
        await self.redis.ping()
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(f"{self.prefix}node:{self.node}", f"{self.prefix}all")
        await self._beat()
        self._tasks = [
            asyncio.create_task(self._listen(), name="cluster-listen"),
            asyncio.create_task(self._keep(), name="cluster-keep"),
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
        self.draining = True
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
        """Release every room this node holds, for another node to take at once."""
        for room_id in list(self.leases):
            room = self.hub.rooms.get(room_id)
            if room is not None:
                async with room.lock:
                    await self._release_room(room_id, hand_over=True)
            else:
                await self._release_room(room_id, hand_over=True)
        self._flush()

    async def close(self) -> None:
        """Drain, then leave presence."""
        await self.drain()
        await self._hand_over_all()  # rooms taken while a drain begun earlier was under way, or a drain cut short
        self._drained()
        with contextlib.suppress(Exception):
            await self.redis.zrem(f"{self.prefix}nodes", self.node)
            await self.redis.hdel(f"{self.prefix}boots", self.node)
            await self.redis.delete(f"{self.prefix}presence:{self.node}")
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        logs.event("cluster.close", node=self.node)

    # ------------------------------------------------------------------ leases
    def fence(self, room_id: str) -> Fence:
        """The fencing token of a write for ``room_id``; refuses at once (``FencedOut``) once the lease has run
        out here, before anything is written or sent."""
        lease = self.leases.get(room_id)
        if lease is None or time.monotonic() >= lease.valid_until:
            raise FencedOut((room_id, lease.epoch if lease else 0, self.node), None)
        return (room_id, lease.epoch, self.node)

    def owns(self, room_id: str) -> bool:
        lease = self.leases.get(room_id)
        return lease is not None and time.monotonic() < lease.valid_until

    def _now_ms(self) -> int:
        return int(time.time() * 1000)

    async def acquire(self, room_id: str) -> bool:
        """Take ``room_id`` if no one holds it: lease, fence bump, rebuild from the store. True if owned here and
        rebuilt (a join may enter it at once); a caller that comes while this node is taking the room waits for
        that attempt (the lease is ours before the room is rebuilt)."""
        pending = self._acquiring.get(room_id)
        if pending is None and self.owns(room_id):
            return room_id in self.hub.rooms
        if pending is None and self.draining:
            return False
        if pending is None:  # one attempt at a time per room on this node
            pending = asyncio.ensure_future(self._acquire_now(room_id))
            self._acquiring[room_id] = pending
            pending.add_done_callback(lambda _f: self._acquiring.pop(room_id, None))
        return await asyncio.shield(pending)

    async def _acquire_now(self, room_id: str) -> bool:
        started = time.monotonic()
        expiry = self._now_ms() + self.ttl_ms
        got, value = await self._acquire(
            keys=[f"{self.prefix}lease:{room_id}", f"{self.prefix}epoch:{room_id}", f"{self.prefix}leases"],
            args=[self.node, self.ttl_ms, expiry, room_id],
        )
        if not got:
            return False
        epoch = int(value)
        lease = Lease(epoch, started + self.ttl_ms / 1000)
        self.leases[room_id] = lease
        fence = (room_id, epoch, self.node)
        try:
            await self.hub.db(self.hub.store.run_fenced, fence, _noop)  # the bump, before reading the log
            stored = await self.hub.db(self.hub.store.load_room, room_id)
            if stored is None:
                raise LookupError(f"room {room_id} is not in the store")
            await self.hub.adopt(room_id, stored[0], stored[1])
        except Exception as err:
            logs.error("cluster.acquire_failed", err, room=room_id, epoch=epoch)
            self.leases.pop(room_id, None)
            if isinstance(err, FencedOut) and err.current is not None:
                # Redis handed out an epoch below the store's (it lost data): catch the counter up; the next
                # attempt gets a higher one.
                with contextlib.suppress(Exception):
                    await self._catch_up(keys=[f"{self.prefix}epoch:{room_id}"], args=[err.current])
            with contextlib.suppress(Exception):
                await self._release(
                    keys=[f"{self.prefix}lease:{room_id}", f"{self.prefix}leases"],
                    args=[f"{self.node}:{epoch}", 0, room_id],
                )
            return False
        logs.event("cluster.acquired", node=self.node, room=room_id, epoch=epoch)
        await self.publish_summary(room_id)
        return True

    async def create(self, room_id: str) -> Fence:
        """A new room made here: its first lease (epoch 1 unless the id was used before)."""
        started = time.monotonic()
        got, value = await self._acquire(
            keys=[f"{self.prefix}lease:{room_id}", f"{self.prefix}epoch:{room_id}", f"{self.prefix}leases"],
            args=[self.node, self.ttl_ms, self._now_ms() + self.ttl_ms, room_id],
        )
        if not got:
            raise ClientError("server/error", "that room id is taken; try again")
        self.leases[room_id] = Lease(int(value), started + self.ttl_ms / 1000)
        return (room_id, int(value), self.node)

    async def lose(self, room_id: str, why: str) -> None:
        """Stop acting for ``room_id`` at once; its connections move to whoever owns it next."""
        lease = self.leases.pop(room_id, None)
        room = self.hub.drop_room(room_id)
        logs.warning("cluster.lost", node=self.node, room=room_id, why=why, epoch=lease.epoch if lease else None)
        if room is None:
            return
        room.close()
        self._move_out(room)

    def _move_out(self, room: Room) -> None:
        """The room is no longer ours: edges re-join their connections; ours are routed to the next owner."""
        for conn in list(room.conns):
            room.conns.discard(conn)
            if isinstance(conn, RemoteConnection):
                self.remote.pop((conn.edge, conn.boot, conn.id), None)
                self.post(conn.edge, {"k": "moved", "b": conn.boot, "c": conn.id, "room": room.id})
            else:
                conn.room = None
                join = conn.last_join or {"type": "join", "room": room.id}
                asyncio.get_running_loop().create_task(self.rejoin(conn, join))

    async def release(self, room_id: str) -> None:
        """Give up ``room_id`` at once (a moderator closed it): the next join finds no owner, and the store says the
        room is closed."""
        await self._release_room(room_id, hand_over=True)

    async def _release_room(self, room_id: str, hand_over: bool) -> None:
        lease = self.leases.pop(room_id, None)
        room = self.hub.drop_room(room_id)
        if room is not None:
            room.close()
        if lease is not None:
            with contextlib.suppress(Exception):
                await self._release(
                    keys=[f"{self.prefix}lease:{room_id}", f"{self.prefix}leases"],
                    args=[f"{self.node}:{lease.epoch}", 0 if hand_over else self._now_ms() + 10**12, room_id],
                )
        if room is not None:
            self._move_out(room)

    # ------------------------------------------------------------------ the keeper: renewals, sweeps, presence
    async def _keep(self) -> None:
        period = self.ttl_ms / 3000
        while True:
            try:
                await asyncio.sleep(period)
                await self._renew_all()
                await self._beat()
                await self._sweep()
                await self._check_routes()
                await self._drop_dead_edges()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                logs.error("cluster.keep_failed", err, node=self.node)

    async def _renew_all(self) -> None:
        if not self.leases:
            return
        started = time.monotonic()
        expiry = self._now_ms() + self.ttl_ms
        ids = list(self.leases)
        for room_id in ids:
            lease = self.leases.get(room_id)
            if lease is not None and started >= lease.valid_until:
                await self.lose(room_id, "expired")  # paused past the TTL: never act again on this lease
        ids = [r for r in ids if r in self.leases]
        async with self.redis.pipeline(transaction=False) as pipe:
            for room_id in ids:
                lease = self.leases[room_id]
                await self._renew(
                    keys=[f"{self.prefix}lease:{room_id}", f"{self.prefix}leases"],
                    args=[f"{self.node}:{lease.epoch}", self.ttl_ms, expiry, room_id],
                    client=pipe,
                )
            results = await pipe.execute()
        for room_id, ok in zip(ids, results, strict=True):
            lease = self.leases.get(room_id)
            if lease is None:
                continue
            if ok == 1:
                lease.valid_until = started + self.ttl_ms / 1000
            else:
                await self.lose(room_id, "renewal_refused")
        await self.publish_summaries()

    async def _beat(self) -> None:
        """Heartbeat and presence. The presence hash is updated with what changed since the last beat (not
        rewritten: a node's connections cost Redis nothing at rest), and rebuilt when the key had gone (we were
        away past its TTL, or it was empty)."""
        now = self._now_ms()
        since = time.monotonic() - self.last_beat
        conns = {str(c.id): c.player_id for c in self.hub.connections}
        key = f"{self.prefix}presence:{self.node}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(f"{self.prefix}nodes", {self.node: now + self.ttl_ms})
            pipe.hset(f"{self.prefix}boots", self.node, self.boot)
            if self._presence is None or since > self.ttl_ms / 2000:  # (margin: the key lives a TTL)
                pipe.delete(key)
                if conns:
                    pipe.hset(key, mapping=conns)  # type: ignore[arg-type]
            else:
                gone = [k for k in self._presence if k not in conns]
                added = {k: v for k, v in conns.items() if self._presence.get(k) != v}
                if gone:
                    pipe.hdel(key, *gone)
                if added:
                    pipe.hset(key, mapping=added)  # type: ignore[arg-type]
            pipe.pexpire(key, self.ttl_ms)
            pipe.zremrangebyscore(f"{self.prefix}nodes", 0, now)
            results = await pipe.execute()
        # PEXPIRE answers 0 when the key is missing (no connections, or it expired): rebuild it next time.
        self._presence = conns if results[-2] == 1 else None
        self.last_beat = time.monotonic()
        if since > self.ttl_ms / 1000:
            # We were away past the TTL (paused): the owners dropped our connections; join them again.
            for conn_id, route in list(self.routed.items()):
                conn = self.local.get(conn_id)
                if conn is not None:
                    asyncio.get_running_loop().create_task(self.rejoin(conn, route.join))

    async def _sweep(self) -> None:
        """Take rooms whose lease ran out (their owner died or paused) or was handed over (drain)."""
        if self.draining:
            return
        now = self._now_ms()
        orphans = await self.redis.zrangebyscore(f"{self.prefix}leases", 0, now, start=0, num=50)
        for raw in orphans:
            room_id = _text(raw)
            if room_id in self.leases:
                continue
            await self.acquire(room_id)

    async def _check_routes(self) -> None:
        """Edges: a room we route to changed owner (or has none): join our connections again where it is now."""
        rooms = sorted({r.room_id for r in self.routed.values()})
        if not rooms:
            return
        values = await self.redis.mget([f"{self.prefix}lease:{r}" for r in rooms])
        owners = {r: (_text(v).split(":")[0] if v else None) for r, v in zip(rooms, values, strict=True)}
        for conn_id, route in list(self.routed.items()):
            owner = owners.get(route.room_id)
            if owner != route.owner:
                conn = self.local.get(conn_id)
                if conn is not None:
                    await self.rejoin(conn, route.join)

    async def _drop_dead_edges(self) -> None:
        """Owners: connections of edges that left presence (or were restarted since) leave their rooms."""
        edges = sorted({edge for edge, _, _ in self.remote})
        if not edges:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for edge in edges:
                pipe.zscore(f"{self.prefix}nodes", edge)
            pipe.hmget(f"{self.prefix}boots", edges)
            *scores, boots = await pipe.execute()
        now = self._now_ms()
        alive = {  # (a node of a version before incarnations has none: "")
            (edge, _text(boot) if boot is not None else "")
            for edge, score, boot in zip(edges, scores, boots, strict=True)
            if score is not None and score > now
        }
        for key, rconn in list(self.remote.items()):
            if key[:2] not in alive:
                self.remote.pop(key, None)
                if rconn.room is not None:
                    await rconn.room.exit(rconn)

    # ------------------------------------------------------------------ room passwords
    async def password_guard(self, room: Room, conn: Peer, msg: dict[str, Any]) -> dict[str, Any]:
        """The room-password backoff of ``sefode.server.limits`` (per room and per client), kept in Redis so that
        it holds on every node: wherever the player's socket is, wherever the room is owned, and across a change
        of owner. Called by the owner, which holds the room, for local and forwarded joins alike (the edge sends
        the client's address with a forwarded join). Returns the join to use: a right password becomes the
        room's invite, as on a single node (``routes.ws``)."""
        password = msg.get("password")
        if room.visibility != "password" or not password:
            return msg
        try:
            await room.can_enter(conn.player_id, None, msg.get("invite"))
            return msg
        except ClientError as err:
            if err.code != "room/bad_password":
                raise
        lim = self.limits
        room_key, client_key = f"{self.prefix}pw:room:{room.id}", f"{self.prefix}pw:client:{conn.client}"
        window_ms = int(lim.password_window_s * 1000)
        wait_ms = float(await self._password_wait(keys=[room_key, client_key], args=[window_ms]))
        if wait_ms > 0:
            seconds = max(1, round(wait_ms / 1000))
            metrics.RATE_LIMITED.labels("room_passwords").inc()
            raise ClientError("rate/limited", f"too many wrong passwords; try again in {seconds} second(s)")
        try:
            await room.can_enter(conn.player_id, password, None)
        except ClientError as wrong:
            if wrong.code == "room/bad_password":
                first_ms, most_ms = int(lim.password_backoff_s * 1000), int(lim.password_backoff_max_s * 1000)
                await self._password_failed(
                    keys=[room_key, client_key], args=[lim.password_free_failures, first_ms, most_ms, window_ms]
                )
                logs.event("cluster.password_failed", room=room.id, client=conn.client)
            raise
        await self.redis.delete(client_key)
        return {**msg, "password": None, "invite": room.invite_token}

    # ------------------------------------------------------------------ lobby
    async def publish_summaries(self) -> None:
        if not self.hub.rooms:
            return
        stamp = self._now_ms()
        async with self.redis.pipeline(transaction=False) as pipe:
            for room in self.hub.rooms.values():
                if room.id not in self.leases:
                    continue
                summary = {**room.summary(), "listed": room.listed(stamp), "node": self.node}
                pipe.set(f"{self.prefix}summary:{room.id}", orjson.dumps(summary), px=self.ttl_ms)
                pipe.zadd(f"{self.prefix}lobby", {room.id: stamp + self.ttl_ms})
            pipe.zremrangebyscore(f"{self.prefix}lobby", 0, stamp)
            await pipe.execute()

    async def publish_summary(self, room_id: str) -> None:
        room = self.hub.rooms.get(room_id)
        if room is None:
            return
        stamp = self._now_ms()
        summary = {**room.summary(), "listed": room.listed(stamp), "node": self.node}
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(f"{self.prefix}summary:{room.id}", orjson.dumps(summary), px=self.ttl_ms)
            pipe.zadd(f"{self.prefix}lobby", {room.id: stamp + self.ttl_ms})
            await pipe.execute()

    async def summaries(self) -> list[dict[str, Any]]:
        """Every owned room's summary, cluster-wide (rooms whose owner died leave within the TTL)."""
        ids = await self.redis.zrangebyscore(f"{self.prefix}lobby", self._now_ms(), "+inf")
        if not ids:
            return []
        values = await self.redis.mget([f"{self.prefix}summary:{_text(i)}" for i in ids])
        return [orjson.loads(v) for v in values if v]

    async def summary(self, room_id: str) -> dict[str, Any] | None:
        value = await self.redis.get(f"{self.prefix}summary:{room_id}")
        return orjson.loads(value) if value else None

    async def presence(self) -> dict[str, Any]:
        """The live nodes, cluster-wide, and how many connections and players each holds (``/api/health?cluster=1``).
        A node that died leaves within the TTL."""
        now = self._now_ms()
        nodes = sorted(_text(n) for n in await self.redis.zrangebyscore(f"{self.prefix}nodes", now, "+inf"))
        async with self.redis.pipeline(transaction=False) as pipe:
            for node in nodes:
                pipe.hvals(f"{self.prefix}presence:{node}")
            held = await pipe.execute()
        return {
            node: {"connections": len(players), "players": len(set(players))}
            for node, players in zip(nodes, held, strict=True)
        }

    # ------------------------------------------------------------------ forwarding
    def post(self, node: str, envelope: dict[str, Any]) -> None:
        """Queue ``envelope`` for ``node``; everything queued in this turn of the loop goes in one PUBLISH."""
        self.outbox.setdefault(node, []).append(envelope)
        if not self._flush_armed:
            self._flush_armed = True
            asyncio.get_running_loop().call_soon(self._flush_soon)

    def _flush_soon(self) -> None:
        self._flush_armed = False
        asyncio.get_running_loop().create_task(self._flush_async())

    def _flush(self) -> None:
        self._flush_armed = False
        if self.outbox:
            asyncio.get_running_loop().create_task(self._flush_async())

    async def _flush_async(self) -> None:
        batch, self.outbox = self.outbox, {}
        for node, envelopes in batch.items():
            try:
                await self.redis.publish(
                    f"{self.prefix}node:{node}", orjson.dumps({"from": self.node, "boot": self.boot, "e": envelopes})
                )
            except Exception as err:
                logs.error("cluster.publish_failed", err, node=node)

    async def tell_all(self, envelope: dict[str, Any]) -> None:
        """Publish ``envelope`` to every other node at once (what each process keeps of the store, e.g. blocks)."""
        try:
            await self.redis.publish(
                f"{self.prefix}all", orjson.dumps({"from": self.node, "boot": self.boot, "e": [envelope]})
            )
        except Exception as err:
            logs.error("cluster.publish_failed", err, node="all")

    async def _listen(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                logs.error("cluster.listen_failed", err, node=self.node)
                await asyncio.sleep(0.2)
                continue
            if message is None:
                continue
            try:
                data = orjson.loads(message["data"])
                sender, boot = data["from"], data.get("boot", "")
                if sender == self.node and boot == self.boot and _text(message["channel"]) == f"{self.prefix}all":
                    continue  # our own word to every node: already applied here
                if self.heard.get(sender) != boot:
                    await self._heard_from(sender, boot)
                for envelope in data["e"]:
                    await self._receive(sender, boot, envelope)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                logs.error("cluster.receive_failed", err, node=self.node)

    async def _heard_from(self, sender: str, boot: str) -> None:
        """The first batch of ``sender``'s incarnation ``boot``: the node was restarted under its name (or this is
        the first we hear of it). Its previous process is gone, so its connections leave their rooms now: their
        players are no longer counted as connected (bots cover their seats), and nothing is sent to them any more
        (the new process would drop it anyway: its batches carry another incarnation)."""
        before = self.heard.get(sender)
        self.heard[sender] = boot
        dropped = 0
        for key, rconn in list(self.remote.items()):
            if key[0] == sender and key[1] != boot:
                self.remote.pop(key, None)
                rconn.end(CLOSE_TRY_AGAIN)
                dropped += 1
                if rconn.room is not None:
                    await rconn.room.exit(rconn)
        if before is not None or dropped:
            logs.event("cluster.peer_restarted", node=self.node, peer=sender, dropped=dropped)

    async def _receive(self, sender: str, boot: str, env: dict[str, Any]) -> None:
        kind = env["k"]
        if env.get("b", self.boot) != self.boot:
            return  # meant for a previous process of this node (its connection ids are not ours)
        if kind == "out":  # edge: a message for one of our connections
            conn = self.local.get(env["c"])
            if conn is not None:
                conn.send_text(env["t"])
        elif kind == "ack":
            route = self.routed.get(env["c"])
            if route is not None:
                if "j" in env:  # a right password became the room's invite: join again with that
                    route.join = env["j"]
                    conn = self.local.get(env["c"])
                    if conn is not None:
                        conn.last_join = env["j"]
                route.acked.set()
        elif kind == "moved":  # edge: the owner lost the room; join it again wherever it is now
            conn = self.local.get(env["c"])
            route = self.routed.get(env["c"])
            if conn is not None and route is not None and route.room_id == env["room"]:
                await self.rejoin(conn, route.join)
        elif kind == "in":  # owner: a client message forwarded by an edge
            asyncio.get_running_loop().create_task(self._serve(sender, boot, env))
        elif kind == "block":  # every node: an account blocked or unblocked someone (the store has it already)
            await self.hub.set_block(str(env["p"]), str(env["o"]), bool(env["on"]), tell_cluster=False)
        elif kind == "forget_blocks":
            await self.hub.forget_blocks(str(env["p"]), tell_cluster=False)
        elif kind == "moderation":  # every node: a moderator's action (``Hub.apply_moderation``)
            await self.hub.apply_moderation({k: v for k, v in env.items() if k != "k"}, tell_cluster=False)
        elif kind == "bye":
            rconn = self.remote.pop((sender, boot, env["c"]), None)
            if rconn is not None and rconn.room is not None:
                await rconn.room.exit(rconn)

    async def _serve(self, edge: str, boot: str, env: dict[str, Any]) -> None:
        msg = env["m"]
        room_id = env["room"]
        key = (edge, boot, int(env["c"]))
        rconn = self.remote.get(key)
        if rconn is None:
            rconn = self.remote[key] = RemoteConnection(self, edge, boot, int(env["c"]), env["p"])
        if "a" in env:
            rconn.client = str(env["a"])
        if room_id not in self.hub.rooms or not self.owns(room_id):
            if msg["type"] == "join" and await self.acquire(room_id):
                pass
            else:
                self.remote.pop(key, None)
                self.post(edge, {"k": "moved", "b": boot, "c": rconn.id, "room": room_id})
                return
        try:
            if msg["type"] == "join":
                await self.hub.enter(rconn, msg)  # a stand-in's room is held here: no routing
                ack: dict[str, Any] = {"k": "ack", "b": boot, "c": rconn.id}
                if rconn.last_join is not None and rconn.last_join is not msg:
                    ack["j"] = rconn.last_join
                self.post(edge, ack)
            elif rconn.room is None or rconn.room.id != room_id:
                self.post(edge, {"k": "moved", "b": boot, "c": rconn.id, "room": room_id})
            else:
                await self.hub.handle(rconn, msg)
        except ClientError as err:
            rconn.error(err.code, err.message, msg.get("ref"))
            if msg["type"] == "join":
                self.post(edge, {"k": "ack", "b": boot, "c": rconn.id})
        except Exception as err:
            logs.error("cluster.serve_failed", err, room=room_id, edge=edge)
            rconn.error("server/error", "internal error; nothing was changed", msg.get("ref"))

    # ------------------------------------------------------------------ edge side
    async def owner_of(self, room_id: str) -> str | None:
        value = await self.redis.get(f"{self.prefix}lease:{room_id}")
        return _text(value).split(":")[0] if value else None

    async def find_invite(self, invite: str) -> str | None:
        """An invite of a room some node holds (every node's rooms are in the shared store)."""
        return await self.hub.db(self.hub.store.room_of_invite, invite)

    async def route(self, peer: Peer, msg: dict[str, Any]) -> bool:
        """A ``join`` of one of our own connections: routed to the room's owner if that is another node (True), or
        entered here (False), the room taken here first if no one holds it. A stand-in is served here."""
        if isinstance(peer, RemoteConnection):
            return False
        owned = msg["room"] in self.hub.rooms and self.owns(msg["room"])
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
            owner = await self.owner_of(room_id)
            if owner is None:
                if await self.hub.room_exists(room_id) is False:
                    raise ClientError("room/not_found", f"there is no room {room_id!r}")
                if await self.acquire(room_id):
                    return False
                continue
            if owner == self.node:
                if await self.acquire(room_id):  # ours, or being taken here: wait for that
                    return False
                continue
            self.leave_route(conn)
            route = Routed(room_id, owner, dict(msg))
            self.routed[conn.id] = route
            self.local[conn.id] = conn
            envelope = {"k": "in", "c": conn.id, "p": conn.player_id, "a": conn.client, "room": room_id, "m": msg}
            self.post(owner, envelope)
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
                await self.hub.enter(conn, join)
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

    def forward(self, conn: Peer, msg: dict[str, Any]) -> bool:
        """Edge: send ``msg`` to the owner of the room ``conn`` is routed to (False: not routed; a stand-in of an
        edge's connection is served here, and its id may equal one of ours)."""
        if isinstance(conn, RemoteConnection):
            return False
        route = self.routed.get(conn.id)
        if route is None:
            return False
        self.post(route.owner, {"k": "in", "c": conn.id, "p": conn.player_id, "room": route.room_id, "m": msg})
        return True

    def leave_route(self, conn: Peer) -> None:
        route = self.routed.pop(conn.id, None)
        if route is not None:
            self.post(route.owner, {"k": "bye", "c": conn.id})

    def disconnect(self, conn: Peer) -> None:
        self.leave_route(conn)
        self.local.pop(conn.id, None)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _noop(conn: Any) -> None:
    return None
