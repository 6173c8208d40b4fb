"""Which rooms this node holds: a Redis lease per room, its fencing epoch, taking rooms over and letting them go.

A lease is ``<prefix>lease:<room>`` = ``<node>:<epoch>`` with a TTL the owner renews every third of it; the epoch
comes from ``INCR <prefix>epoch:<room>``, so every new owner has a higher one, and every write carries it (the
store refuses an older one: ``sefode.store.db.check_fence``). The sorted set ``<prefix>leases`` holds each room's
expiry: the sweepers of the other nodes take a room whose lease ran out (its owner died or paused) or was handed over
(a drain, a score of 0). A node also stops acting for a room as soon as its own view of the lease has run out
(``Lease.valid_until``, monotonic) or a renewal fails: ``lose``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis

from sefode.server import logs
from sefode.server.cluster import scripts
from sefode.server.cluster.scripts import now_ms, text
from sefode.server.messages import ClientError
from sefode.store.db import Fence, FencedOut

if TYPE_CHECKING:
    from sefode.server.placement import Host
    from sefode.server.room import Room


@dataclass
class Lease:
    epoch: int
    valid_until: float
    """Monotonic time until which this node may act for the room (measured from before the Redis call)."""


class Ownership:
    def __init__(self, host: Host, redis: aioredis.Redis, node: str, prefix: str, ttl_ms: int) -> None:
        self.host = host
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.ttl_ms = ttl_ms
        self.leases: dict[str, Lease] = {}
        self.draining = False
        """No room is taken any more (``Cluster.drain``)."""
        self.moved_out: Callable[[Room], None] = lambda room: None
        """Called with a room this node no longer holds, once closed: its peers go to the next owner."""
        self.acquired: Callable[[str], Awaitable[None]] | None = None
        """Called with a room this node has just taken and rebuilt (the lobby publishes it)."""
        self._acquiring: dict[str, asyncio.Future[bool]] = {}
        self._acquire = redis.register_script(scripts.ACQUIRE)
        self._renew = redis.register_script(scripts.RENEW)
        self._release = redis.register_script(scripts.RELEASE)
        self._catch_up = redis.register_script(scripts.CATCH_UP)

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

    async def owner_of(self, room_id: str) -> str | None:
        """The node that holds ``room_id``'s lease now, as Redis says."""
        value = await self.redis.get(f"{self.prefix}lease:{room_id}")
        return text(value).split(":")[0] if value else None

    async def _take_lease(self, room_id: str) -> tuple[bool, Any]:
        """Redis: the lease if free, with a new epoch: (True, epoch), or (False, the holder's lease value)."""
        got, value = await self._acquire(
            keys=[f"{self.prefix}lease:{room_id}", f"{self.prefix}epoch:{room_id}", f"{self.prefix}leases"],
            args=[self.node, self.ttl_ms, now_ms() + self.ttl_ms, room_id],
        )
        return bool(got), value

    async def _give_up_lease(self, room_id: str, epoch: int, hand_over: bool) -> None:
        """Redis: drop our lease (if still ours); handed over, the sweepers take the room at once."""
        with contextlib.suppress(Exception):
            await self._release(
                keys=[f"{self.prefix}lease:{room_id}", f"{self.prefix}leases"],
                args=[f"{self.node}:{epoch}", 0 if hand_over else now_ms() + 10**12, room_id],
            )

    # ------------------------------------------------------------------ taking rooms
    async def acquire(self, room_id: str) -> bool:
        """Take ``room_id`` if no one holds it: lease, fence bump, rebuild from the store. True if owned here and
        rebuilt (a join may enter it at once); a caller that comes while this node is taking the room waits for
        that attempt (the lease is ours before the room is rebuilt)."""
        pending = self._acquiring.get(room_id)
        if pending is None and self.owns(room_id):
            return room_id in self.host.rooms
        if pending is None and self.draining:
            return False
        if pending is None:  # one attempt at a time per room on this node
            pending = asyncio.ensure_future(self._acquire_now(room_id))
            self._acquiring[room_id] = pending
            pending.add_done_callback(lambda _f: self._acquiring.pop(room_id, None))
        return await asyncio.shield(pending)

    async def _acquire_now(self, room_id: str) -> bool:
        started = time.monotonic()
        got, value = await self._take_lease(room_id)
        if not got:
            return False
        epoch = int(value)
        self.leases[room_id] = Lease(epoch, started + self.ttl_ms / 1000)
        fence = (room_id, epoch, self.node)
        host = self.host
        try:
            await host.db(host.store.run_fenced, fence, _noop)  # the bump, before reading the log
            stored = await host.db(host.store.load_room, room_id)
            if stored is None:
                raise LookupError(f"room {room_id} is not in the store")
            await host.adopt(room_id, stored[0], stored[1])
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
        if self.acquired is not None:
            await self.acquired(room_id)
        return True

    async def create(self, room_id: str) -> Fence:
        """A new room made here: its first lease (epoch 1 unless the id was used before)."""
        started = time.monotonic()
        got, value = await self._take_lease(room_id)
        if not got:
            raise ClientError("server/error", "that room id is taken; try again")
        self.leases[room_id] = Lease(int(value), started + self.ttl_ms / 1000)
        return (room_id, int(value), self.node)

    async def sweep(self) -> None:
        """Take rooms whose lease ran out (their owner died or paused) or was handed over (drain)."""
        if self.draining:
            return
        orphans = await self.redis.zrangebyscore(f"{self.prefix}leases", 0, now_ms(), start=0, num=50)
        for raw in orphans:
            room_id = text(raw)
            if room_id in self.leases:
                continue
            await self.acquire(room_id)

    # ------------------------------------------------------------------ keeping and letting go
    async def renew_all(self) -> bool:
        """Renew every lease held (one pipeline); a lease that ran out here or whose renewal is refused is lost.
        False if this node held none."""
        if not self.leases:
            return False
        started = time.monotonic()
        expiry = now_ms() + self.ttl_ms
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
        return True

    async def lose(self, room_id: str, why: str) -> None:
        """Stop acting for ``room_id`` at once; its connections move to whoever owns it next."""
        lease = self.leases.pop(room_id, None)
        room = self.host.drop_room(room_id)
        if lease is None and room is None:
            # Nothing held here any more: a write that waited for the room while it was released (a drain) or lost
            # was refused by its fence, and its player is sent on to the next owner. Nothing was lost now.
            logs.event("cluster.late_write", node=self.node, room=room_id, why=why)
            return
        logs.warning("cluster.lost", node=self.node, room=room_id, why=why, epoch=lease.epoch if lease else None)
        if room is None:
            return
        room.close()
        self.moved_out(room)

    async def release(self, room_id: str, hand_over: bool = True) -> None:
        """Give up ``room_id`` at once: handed over (a drain, or a moderator closed it, and the store says so),
        the next join or sweep finds no owner."""
        lease = self.leases.pop(room_id, None)
        room = self.host.drop_room(room_id)
        if room is not None:
            room.close()
        if lease is not None:
            await self._give_up_lease(room_id, lease.epoch, hand_over)
        if room is not None:
            self.moved_out(room)

    async def hand_over_all(self) -> None:
        """Release every room this node holds, for another node to take at once."""
        for room_id in list(self.leases):
            room = self.host.rooms.get(room_id)
            if room is not None:
                async with room.lock:
                    await self.release(room_id)
            else:
                await self.release(room_id)


def _noop(conn: Any) -> None:
    return None
