"""The owner's side of forwarding: stand-ins for the WebSockets other nodes (their *edges*) hold in rooms owned here.

An edge forwards a client's messages for a room owned here as ``in`` envelopes; the owner serves them through a
:class:`RemoteConnection` (a ``placement.Peer``), whose output goes back to the edge's channel as ``out``. A stand-in
is keyed by (edge node, the edge's incarnation, its connection id); it goes when the edge says ``bye``, when the edge
leaves presence, or when the edge's node was restarted (a batch from a new incarnation).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import orjson

from sefode.server import logs
from sefode.server.cluster.bus import Bus
from sefode.server.cluster.ownership import Ownership
from sefode.server.cluster.scripts import now_ms, text
from sefode.server.messages import ClientError

if TYPE_CHECKING:
    from sefode.server.placement import Host
    from sefode.server.room import Room

CLOSE_TRY_AGAIN = 1013
"""WebSocket close code "try again later": the client reconnects by itself (docs/protocol.md)."""


class RemoteConnection:
    """The owner's stand-in for a WebSocket held by another node: what it is sent goes to that node's channel."""

    closed = False

    def __init__(self, bus: Bus, edge: str, boot: str, conn_id: int, player_id: str) -> None:
        self.bus = bus
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
        self.bus.post(self.edge, {"k": "out", "b": self.boot, "c": self.id, "t": text})

    def end(self, close_code: int) -> None:
        """Stop sending to the edge (the edge closes its own socket); from now on it handles no message."""
        self.close_code = close_code
        self.closed = True

    def error(self, code: str, message: str, ref: Any = None) -> None:
        out: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if ref is not None:
            out["ref"] = ref
        self.send(out)


class StandIns:
    def __init__(self, host: Host, bus: Bus, ownership: Ownership) -> None:
        self.host = host
        self.bus = bus
        self.ownership = ownership
        self.remote: dict[tuple[str, str, int], RemoteConnection] = {}
        """(edge node, its incarnation, connection id) -> stand-in."""
        self.heard: dict[str, str] = {}
        """Each node's incarnation as its latest batch gave it. A batch from a new incarnation of a node drops the
        stand-ins of the previous one at once (``heard_from``), without waiting for a beat."""

    async def heard_from(self, sender: str, boot: str) -> None:
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
            logs.event("cluster.peer_restarted", node=self.bus.node, peer=sender, dropped=dropped)

    def serve_soon(self, edge: str, boot: str, env: dict[str, Any]) -> None:
        """An ``in`` envelope: served in a task of its own (a join may take the room first)."""
        asyncio.get_running_loop().create_task(self.serve(edge, boot, env))

    async def serve(self, edge: str, boot: str, env: dict[str, Any]) -> None:
        msg = env["m"]
        room_id = env["room"]
        key = (edge, boot, int(env["c"]))
        rconn = self.remote.get(key)
        if rconn is None:
            rconn = self.remote[key] = RemoteConnection(self.bus, edge, boot, int(env["c"]), env["p"])
        if "a" in env:
            rconn.client = str(env["a"])
        held = room_id in self.host.rooms and self.ownership.owns(room_id)
        if not held and not (msg["type"] == "join" and await self.ownership.acquire(room_id)):
            self.remote.pop(key, None)
            self.bus.post(edge, {"k": "moved", "b": boot, "c": rconn.id, "room": room_id})
            return
        try:
            if msg["type"] == "join":
                await self.host.enter(rconn, msg)  # a stand-in's room is held here: no routing
                ack: dict[str, Any] = {"k": "ack", "b": boot, "c": rconn.id}
                if rconn.last_join is not None and rconn.last_join is not msg:
                    ack["j"] = rconn.last_join
                self.bus.post(edge, ack)
            elif rconn.room is None or rconn.room.id != room_id:
                self.bus.post(edge, {"k": "moved", "b": boot, "c": rconn.id, "room": room_id})
            else:
                await self.host.handle(rconn, msg)
        except ClientError as err:
            rconn.error(err.code, err.message, msg.get("ref"))
            if msg["type"] == "join":
                self.bus.post(edge, {"k": "ack", "b": boot, "c": rconn.id})
        except Exception as err:
            logs.error("cluster.serve_failed", err, room=room_id, edge=edge)
            rconn.error("server/error", "internal error; nothing was changed", msg.get("ref"))

    async def bye(self, edge: str, boot: str, conn_id: int) -> None:
        """The edge's connection left the room (or closed)."""
        rconn = self.remote.pop((edge, boot, conn_id), None)
        if rconn is not None and rconn.room is not None:
            await rconn.room.exit(rconn)

    def moved(self, rconn: RemoteConnection, room_id: str) -> None:
        """The stand-in's room is no longer held here: the edge joins its connection again where it is now."""
        self.remote.pop((rconn.edge, rconn.boot, rconn.id), None)
        self.bus.post(rconn.edge, {"k": "moved", "b": rconn.boot, "c": rconn.id, "room": room_id})

    async def drop_dead_edges(self) -> None:
        """Connections of edges that left presence (or were restarted since) leave their rooms."""
        redis, prefix = self.bus.redis, self.bus.prefix
        edges = sorted({edge for edge, _, _ in self.remote})
        if not edges:
            return
        async with redis.pipeline(transaction=False) as pipe:
            for edge in edges:
                pipe.zscore(f"{prefix}nodes", edge)
            pipe.hmget(f"{prefix}boots", edges)
            *scores, boots = await pipe.execute()
        now = now_ms()
        alive = {  # (a node of a version before incarnations has none: "")
            (edge, text(boot) if boot is not None else "")
            for edge, score, boot in zip(edges, scores, boots, strict=True)
            if score is not None and score > now
        }
        for key, rconn in list(self.remote.items()):
            if key[:2] not in alive:
                self.remote.pop(key, None)
                if rconn.room is not None:
                    await rconn.room.exit(rconn)
