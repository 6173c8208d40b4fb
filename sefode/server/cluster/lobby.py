"""What a node shows the other nodes: the summaries of the rooms it owns (the cluster-wide lobby) and its presence
(its heartbeat, its incarnation, and which players its connections hold).

Both live in Redis with the lease TTL, so a node that died leaves the lobby and presence within it.
"""

from __future__ import annotations

import time
from collections.abc import Container
from typing import TYPE_CHECKING, Any

import orjson
import redis.asyncio as aioredis

from sefode.server.cluster.scripts import now_ms, text

if TYPE_CHECKING:
    from sefode.server.placement import Host


class Lobby:
    def __init__(self, host: Host, redis: aioredis.Redis, node: str, prefix: str, ttl_ms: int, boot: str) -> None:
        self.host = host
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.ttl_ms = ttl_ms
        self.boot = boot
        self.last_beat = time.monotonic()
        self._presence: dict[str, str] | None = None
        """The presence hash as last written (None: rewrite it whole at the next beat)."""

    # ------------------------------------------------------------------ room summaries
    async def publish_summaries(self, held: Container[str]) -> None:
        """Every room held here (``held``: the rooms this node has a lease on), for the next TTL."""
        if not self.host.rooms:
            return
        stamp = now_ms()
        async with self.redis.pipeline(transaction=False) as pipe:
            for room in self.host.rooms.values():
                if room.id not in held:
                    continue
                summary = {**room.summary(), "listed": room.listed(stamp), "node": self.node}
                pipe.set(f"{self.prefix}summary:{room.id}", orjson.dumps(summary), px=self.ttl_ms)
                pipe.zadd(f"{self.prefix}lobby", {room.id: stamp + self.ttl_ms})
            pipe.zremrangebyscore(f"{self.prefix}lobby", 0, stamp)
            await pipe.execute()

    async def publish_summary(self, room_id: str) -> None:
        room = self.host.rooms.get(room_id)
        if room is None:
            return
        stamp = now_ms()
        summary = {**room.summary(), "listed": room.listed(stamp), "node": self.node}
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(f"{self.prefix}summary:{room.id}", orjson.dumps(summary), px=self.ttl_ms)
            pipe.zadd(f"{self.prefix}lobby", {room.id: stamp + self.ttl_ms})
            await pipe.execute()

    async def summaries(self) -> list[dict[str, Any]]:
        """Every owned room's summary, cluster-wide (rooms whose owner died leave within the TTL)."""
        ids = await self.redis.zrangebyscore(f"{self.prefix}lobby", now_ms(), "+inf")
        if not ids:
            return []
        values = await self.redis.mget([f"{self.prefix}summary:{text(i)}" for i in ids])
        return [orjson.loads(v) for v in values if v]

    async def summary(self, room_id: str) -> dict[str, Any] | None:
        value = await self.redis.get(f"{self.prefix}summary:{room_id}")
        return orjson.loads(value) if value else None

    # ------------------------------------------------------------------ presence
    async def beat(self) -> bool:
        """Heartbeat and presence. The presence hash is updated with what changed since the last beat (not
        rewritten: a node's connections cost Redis nothing at rest), and rebuilt when the key had gone (we were
        away past its TTL, or it was empty). True if this node was away past the TTL (paused) since the last beat."""
        now = now_ms()
        since = time.monotonic() - self.last_beat
        conns = {str(c.id): c.player_id for c in self.host.connections}
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
        return since > self.ttl_ms / 1000

    async def leave(self) -> None:
        """Leave presence (the node closes)."""
        await self.redis.zrem(f"{self.prefix}nodes", self.node)
        await self.redis.hdel(f"{self.prefix}boots", self.node)
        await self.redis.delete(f"{self.prefix}presence:{self.node}")

    async def presence(self) -> dict[str, Any]:
        """The live nodes, cluster-wide, and how many connections and players each holds (``/api/health?cluster=1``).
        A node that died leaves within the TTL."""
        now = now_ms()
        nodes = sorted(text(n) for n in await self.redis.zrangebyscore(f"{self.prefix}nodes", now, "+inf"))
        async with self.redis.pipeline(transaction=False) as pipe:
            for node in nodes:
                pipe.hvals(f"{self.prefix}presence:{node}")
            held = await pipe.execute()
        return {
            node: {"connections": len(players), "players": len(set(players))}
            for node, players in zip(nodes, held, strict=True)
        }
