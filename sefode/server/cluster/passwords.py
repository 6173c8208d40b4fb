"""The room-password backoff of ``sefode.server.limits`` (per room and per client), kept in Redis so that it holds on
every node: wherever the player's socket is, wherever the room is owned, and across a change of owner."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis

from sefode.server import logs, metrics
from sefode.server.cluster import scripts
from sefode.server.limits import Limits
from sefode.server.messages import ClientError

if TYPE_CHECKING:
    from sefode.server.placement import Peer
    from sefode.server.room import Room


class PasswordGuard:
    def __init__(self, redis: aioredis.Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self.limits = Limits()
        """The node's limits (``create_app`` sets them)."""
        self._wait = redis.register_script(scripts.PASSWORD_WAIT)
        self._failed = redis.register_script(scripts.PASSWORD_FAILED)

    async def guard(self, room: Room, conn: Peer, msg: dict[str, Any]) -> dict[str, Any]:
        """Called by the owner, which holds the room, for local and forwarded joins alike (the edge sends the
        client's address with a forwarded join). Returns the join to use: a right password becomes the room's
        invite, as on a single node (``routes.ws``)."""
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
        wait_ms = float(await self._wait(keys=[room_key, client_key], args=[window_ms]))
        if wait_ms > 0:
            seconds = max(1, round(wait_ms / 1000))
            metrics.RATE_LIMITED.labels("room_passwords").inc()
            raise ClientError("rate/limited", f"too many wrong passwords; try again in {seconds} second(s)")
        try:
            await room.can_enter(conn.player_id, password, None)
        except ClientError as wrong:
            if wrong.code == "room/bad_password":
                first_ms, most_ms = int(lim.password_backoff_s * 1000), int(lim.password_backoff_max_s * 1000)
                await self._failed(
                    keys=[room_key, client_key], args=[lim.password_free_failures, first_ms, most_ms, window_ms]
                )
                logs.event("cluster.password_failed", room=room.id, client=conn.client)
            raise
        await self.redis.delete(client_key)
        return {**msg, "password": None, "invite": room.invite_token}
