"""What a change made through one node does on every node: each process keeps a copy of part of the store (blocks,
mutes, the session cache) and holds its own sockets, so a block, a deleted account's blocks, a moderator's action and
an ended session are applied here, then told to every other node (``Placement.tell_all``: nothing on a single node,
the Redis channel ``<prefix>all`` in a cluster), which applies them through ``hear``.

The envelopes (``"k"``): ``block`` (``p`` blocked, ``on``, or unblocked ``o``), ``forget_blocks`` (``p``),
``moderation`` (``Hub.apply_moderation``'s fields), ``end_sessions`` (``p``, and ``d``: the hash of the session
token that ended, or None for every session of the player).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sefode.server import logs
from sefode.store.db import token_hash

if TYPE_CHECKING:
    from sefode.server.hub import Hub

CLOSE_SESSION_ENDED = 4410
"""The close code of a socket whose session ended (logout, deletion, a ban): the page says why."""


class NodeWide:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def hear(self, env: dict[str, Any]) -> None:
        """Another node's word (the store has it already): applied here, told to no one."""
        kind = env["k"]
        if kind == "block":
            await self._block(str(env["p"]), str(env["o"]), bool(env["on"]))
        elif kind == "forget_blocks":
            self._forget_blocks(str(env["p"]))
        elif kind == "moderation":
            await self._moderate({k: v for k, v in env.items() if k != "k"})
        elif kind == "end_sessions":
            self._end_sessions(str(env["p"]), env.get("d"))

    # ------------------------------------------------------------------ said here, applied everywhere
    async def set_block(self, blocker: str, other: str, on: bool) -> None:
        """``blocker`` blocked (``on``) or unblocked ``other``, as the store now says: this process's copy follows, the
        rooms ``blocker`` owns turn ``other`` away, on every node."""
        await self._block(blocker, other, on)
        await self.hub.placement.tell_all({"k": "block", "p": blocker, "o": other, "on": on})

    async def forget_blocks(self, player: str) -> None:
        """An account was deleted: its blocks, both ways, are gone from the store; every node's copy follows."""
        self._forget_blocks(player)
        await self.hub.placement.tell_all({"k": "forget_blocks", "p": player})

    async def apply_moderation(self, env: dict[str, Any]) -> None:
        """A moderator's action (the store has it already), on every node: see ``Hub.apply_moderation``."""
        await self._moderate(env)
        await self.hub.placement.tell_all({"k": "moderation", **env})

    async def end_sessions(self, player_id: str, token: str | None = None) -> None:
        """The session ``token`` of the player ended (every session of theirs when None: logout everywhere, account
        deletion): its cached copies are dropped and its sockets closed with ``CLOSE_SESSION_ENDED``, on every node
        (the token itself is never sent to another node, only its hash)."""
        digest = token_hash(token) if token else None
        self._end_sessions(player_id, digest)
        await self.hub.placement.tell_all({"k": "end_sessions", "p": player_id, "d": digest})

    # ------------------------------------------------------------------ applied here
    async def _block(self, blocker: str, other: str, on: bool) -> None:
        hub = self.hub
        if on:
            hub.blocks.setdefault(blocker, set()).add(other)
            for room in list(hub.rooms.values()):
                if room.owner == blocker:
                    await room.turn_away(other)
        else:
            hub.blocks.get(blocker, set()).discard(other)

    def _forget_blocks(self, player: str) -> None:
        self.hub.blocks.pop(player, None)
        for blocked in self.hub.blocks.values():
            blocked.discard(player)

    def _end_sessions(self, player_id: str, digest: str | None) -> int:
        """Drop the cached sessions of ``player_id`` whose token hashes to ``digest`` (all when None) and close the
        player's connections that authenticated with it; from now on they handle no message. How many closed."""
        sessions = self.hub.sessions
        for key in [k for k, v in sessions.items() if v[0] == player_id]:
            if digest is None or token_hash(key) == digest:
                sessions.pop(key, None)
        closed = 0
        for conn in list(self.hub.connections):
            if conn.player_id != player_id or conn.closed:
                continue
            if digest is not None and conn.session != digest:
                continue
            conn.end(CLOSE_SESSION_ENDED)
            closed += 1
        if closed:
            logs.event("conn.session_ended", player=player_id, connections=closed)
        return closed

    async def _moderate(self, env: dict[str, Any]) -> None:
        hub = self.hub
        op, player, room_id = env["op"], env.get("p"), env.get("room")
        room = hub.rooms.get(str(room_id)) if room_id else None
        if op == "mute":
            hub.mutes[str(player)] = env.get("until")
        elif op == "unmute":
            hub.mutes.pop(str(player), None)
        elif op == "ban":
            self._end_sessions(str(player), None)
        elif op == "kick" and room is not None:
            await room.turn_away(str(player), "room/kicked", "a moderator removed you from this table")
        elif op == "close" and room is not None:
            await room.close_by_moderator()
            hub.invites.pop(room.invite_token, None)
            await hub.placement.release(room.id)  # the lease goes too: no node serves the room again
            hub.rooms.pop(room.id, None)
        elif op == "rename_room" and room is not None:
            async with room.lock:
                room.name = str(env["name"])
                await room.save()
                room.send_room()
        elif op == "rename":
            hub.names[str(player)] = str(env["name"])
            for key, value in list(hub.sessions.items()):
                if value[0] == player:
                    hub.sessions[key] = (value[0], str(env["name"]), value[2])
            for held in list(hub.rooms.values()):
                if player in held.connected_players() or player in held.seated_players():
                    held.send_room()
