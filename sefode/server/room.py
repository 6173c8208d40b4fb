"""A room: the single writer of its table, and the coordinator of its parts.

Every change to a room or its match goes through the room's lock: check, apply through the engine, store (awaited,
in the store's worker thread), then send each connection its own view. The room holds its stored record
(``sefode.server.record``), its connections and its lock; the work is done by parts with one job each:

- ``sefode.server.seating``: seats between matches, teams, secret seat choices, and the one admission check;
- ``sefode.server.play``: the match driver (start, a client's action, a bot's turn, apply-store-send, the end);
- ``sefode.server.clock``: the per-seat clocks, the pause vote, and the room's one timer;
- ``sefode.server.present``: the pure presenters of the ``room`` and ``state`` messages and the lobby entries;
- ``sefode.server.rematch``, ``sefode.server.reactions``: the rematch vote and the reactions.

The room and its parts reach the rest of the server only through their host (``sefode.server.host.RoomHost``: store
writes, names, bot decisions, the awards, timing settings), which the hub implements; they never import the hub.

Rooms know games only through ``sefode.engine.get_game`` and the ``Game`` interface; views and events are opaque
JSON.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import TYPE_CHECKING, Any

from sefode.accounts import passwords
from sefode.server import clock, logs, play, present, seating
from sefode.server.clock import Clock
from sefode.server.matchrun import MatchRun
from sefode.server.messages import ClientError, encode
from sefode.server.patches import Updates
from sefode.server.present import seed_hash, state_common, state_message
from sefode.server.record import (
    CHAT_KEPT,
    DEFAULT_LEVEL,
    ActionSource,
    RoomRecord,
    RoomStatus,
    Visibility,
    copy_record,
    load_record,
    record_json,
)
from sefode.server.seating import seat_setups
from sefode.server.startpoint import StartPoint
from sefode.server.work import HASHING

if TYPE_CHECKING:
    from sefode.server.host import RoomHost
    from sefode.server.placement import Peer

__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_TEAMS",
    "PAUSE_LIMIT_S",
    "Room",
    "check_password",
    "hash_password",
    "seat_setups",
    "seed_hash",
]

PAUSE_LIMIT_S = 15 * 60
LOBBY_FRESH_MS = 15 * 60 * 1000
DEFAULT_TEAMS = [
    {"name": "Copas", "colour": "#d33f49", "symbol": "♥"},
    {"name": "Espadas", "colour": "#2d3047", "symbol": "♠"},
    {"name": "Ouros", "colour": "#e0a100", "symbol": "♦"},
    {"name": "Paus", "colour": "#1b998b", "symbol": "♣"},
]


def hash_password(password: str) -> str:
    """A room password's hash: argon2id, the accounts' hasher (``sefode.accounts.passwords``)."""
    return passwords.hash_password(password)


def check_password(password: str, stored: str) -> bool:
    return passwords.verify_password(stored, password)


class Room(RoomRecord):
    """A room: its stored fields (``RoomRecord``, the room's attributes) and what lives only in memory; its public
    methods are what the hub and the placements call, each taking the lock and handing the work to its part."""

    def __init__(self, host: RoomHost, room_id: str, data: dict[str, Any], invite_token: str) -> None:
        copy_record(load_record(data), self)
        self.host = host
        """What the room needs from outside (``RoomHost``: the hub, or a test's own)."""
        self.id = room_id
        self.invite_token = invite_token
        self.match: MatchRun | None = None
        self.conns: set[Peer] = set()
        self.lock = asyncio.Lock()
        self.clock = Clock(self)
        self.disconnected_at: dict[str, float] = {}
        self.updates = Updates()
        """What each connection that takes updates was last sent (``sefode.server.patches``)."""
        self._stored: dict[str, Any] = self.data()
        """What the store holds (``save`` goes back to it when storing fails)."""

    # ------------------------------------------------------------------ persistence
    def data(self) -> dict[str, Any]:
        """The room's stored record (plain JSON; see ``sefode.server.record``)."""
        return record_json(self)

    async def save(self) -> None:
        """Store the room. When storing fails the room goes back to what the store holds, so that a message that
        ends in ``server/error`` leaves nothing changed (docs/security.md)."""
        data = self.data()
        try:
            await self.host.save_room(self.id, data, self.visibility, self.invite_token)
        except Exception:
            copy_record(load_record(self._stored), self)
            raise
        self._stored = data

    def restore_match(self, stored: Any) -> None:
        """Rebuild the match by replaying its stored actions through the engine."""
        play.restore(self, stored)

    # ------------------------------------------------------------------ describing
    @property
    def playing(self) -> bool:
        return self.match is not None and not self.match.over

    @property
    def paused(self) -> bool:
        return self.clock.until is not None

    @property
    def paused_until(self) -> float | None:
        """When (monotonic) the pause on ends by itself; None: no pause (``Clock.until``)."""
        return self.clock.until

    @property
    def pause_votes(self) -> set[str]:
        """Who votes for a pause now (``Clock.votes``)."""
        return self.clock.votes

    @property
    def clock_length_s(self) -> float:
        """How long (real seconds) a seat's turn clock runs (``Clock.length_s``)."""
        return self.clock.length_s

    def status(self) -> RoomStatus:
        if not self.playing:
            return RoomStatus.WAITING
        return RoomStatus.PAUSED if self.paused else RoomStatus.PLAYING

    def connected_players(self) -> set[str]:
        return {c.player_id for c in self.conns}

    def seated_players(self) -> set[str]:
        ids = {s.player_id for s in self.seats if s.player_id}
        if self.playing and self.match is not None:
            ids |= {s.playing for s in self.match.seats if s.playing}
        return ids

    def watchers(self) -> set[str]:
        """Connected players who do not play now: during a match, all but its players still in it (one who left the
        match watches it, though the room keeps their seat for the next); between matches, all but the seated."""
        connected = self.connected_players()
        if self.playing and self.match is not None:
            return connected - {s.playing for s in self.match.seats if s.playing}
        return connected - {s.player_id for s in self.seats if s.player_id}

    def config_seat_of(self, player_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player_id == player_id:
                return i
        return None

    def view_seat(self, player_id: str) -> int | None:
        """The match seat whose view this player gets (None: the spectator view)."""
        if self.match is None:
            return None
        return self.match.seat_of(player_id)

    def pause_voters(self) -> set[str]:
        return clock.pause_voters(self.match)

    def listed(self, now_ms: int) -> bool:
        """Shown in the lobby: public or password rooms with a match on, someone in, or created lately."""
        if self.visibility not in (Visibility.PUBLIC, Visibility.PASSWORD):
            return False
        return self.playing or bool(self.conns) or now_ms - self.created_at < LOBBY_FRESH_MS

    def summary(self) -> dict[str, Any]:
        return present.summary(self, self.host.bot_players)

    def seat_list(self) -> list[dict[str, Any]]:
        return present.seat_list(self, self.host.names, self.host.bot_players)

    def room_json(self, player_id: str) -> dict[str, Any]:
        return present.room_json(self, player_id, self.host.names, self.host.bot_players)

    def state_json(self, player_id: str, events: list[dict[str, Any]], recap: bool) -> dict[str, Any] | None:
        run = self.match
        if run is None:
            return None
        msg = state_message(run, run.seat_of(player_id), events, state_common(run, logs.now_ms()))
        if recap:
            msg["recap"] = list(run.recent)
        return msg

    # ------------------------------------------------------------------ sending
    def send_room(self) -> None:
        for conn in list(self.conns):
            conn.send({"type": "room", "room": self.room_json(conn.player_id)})

    def send_room_except(self, skip: Peer) -> None:
        for other in list(self.conns):
            if other is not skip:
                other.send({"type": "room", "room": self.room_json(other.player_id)})

    def send_state(self, events: list[dict[str, Any]]) -> None:
        """Every connection its own ``state``: each seat's message (and the spectators') is built and encoded once,
        however many connections share it, and the parts common to every seat are computed once."""
        run = self.match
        if run is None or not self.conns:
            return
        common = state_common(run, logs.now_ms())
        conns = [(conn, run.seat_of(conn.player_id)) for conn in self.conns]
        seats = list(dict.fromkeys(seat for _conn, seat in conns))
        views = run.game.views(run.state, seats)  # what the seats' views share is built once
        messages = {
            seat: state_message(run, seat, events, common, view) for seat, view in zip(seats, views, strict=True)
        }
        for conn, text in self.updates.texts(conns, messages, encode):  # updates, or full states (patches.py)
            conn.send_text(text)

    def send_seat_state(self, seat: int, events: list[dict[str, Any]]) -> None:
        """The ``state`` of one seat, to that seat's connections alone (a secret action, see ``MatchRun.secret``)."""
        run = self.match
        if run is None:
            return
        conns = [(conn, seat) for conn in list(self.conns) if run.seat_of(conn.player_id) == seat]
        if conns:
            common = state_common(run, logs.now_ms())
            messages: dict[int | None, dict[str, Any]] = {seat: state_message(run, seat, events, common)}
            for conn, text in self.updates.texts(conns, messages, encode):
                conn.send_text(text)

    async def resync(self, conn: Peer) -> None:
        """A ``resync``: the connection's full ``state`` again (its client found a gap in the updates)."""
        async with self.lock:
            state = self.state_json(conn.player_id, [], recap=False)
            if state is None:
                raise ClientError("room/no_match", "no match is on in this room")
            conn.send(self.updates.full(conn, state))

    async def past(self, conn: Peer) -> None:
        """A ``past``: the match's past as the connection's seat (or the spectators) may see it now (``Game.past``),
        to that connection alone. The views leave it out because it grows with the match; a page asks for it when it
        shows it. It holds only what that seat has seen, so it is given while the match runs (the seed and the deals
        stay with the history, once the match is over)."""
        async with self.lock:
            run = self.match
            if run is None:
                raise ClientError("room/no_match", "no match is on in this room")
            seat = run.seat_of(conn.player_id)
            conn.send(present.past_message(run, seat))

    def broadcast(self, message: dict[str, Any]) -> None:
        text = encode(message)
        for conn in list(self.conns):
            conn.send_text(text)

    def broadcast_from(self, sender: str, message: dict[str, Any]) -> None:
        """``broadcast`` a player's chat or reaction, to every connection but those of players who blocked them."""
        text = encode(message)
        for conn in list(self.conns):
            if not self.host.is_blocked(conn.player_id, sender):
                conn.send_text(text)

    # ------------------------------------------------------------------ connections
    def refuse_blocked(self, player_id: str | None) -> None:
        """A player the room's owner blocked (or a moderator kicked out) neither sits nor watches here."""
        if player_id in self.kicked:
            raise ClientError("room/kicked", "a moderator removed you from this table")
        if self.host.is_blocked(self.owner, player_id):
            raise ClientError("room/blocked", "the owner of this room does not let you in")

    async def can_enter(self, player_id: str, password: str | None, invite: str | None) -> None:
        self.refuse_blocked(player_id)
        if player_id == self.owner or player_id in self.seated_players():
            return
        if self.match is not None and any(s.player_id == player_id for s in self.match.seats):
            return
        if invite is not None and secrets.compare_digest(invite, self.invite_token):
            return
        if self.visibility is Visibility.INVITE:
            raise ClientError("room/bad_invite", "this room is reachable only by its invite link")
        if self.visibility is Visibility.PASSWORD and (
            not password
            or self.password_hash is None
            # key stretching takes milliseconds: off the event loop
            or not await HASHING.run(check_password, password, self.password_hash)
        ):
            raise ClientError("room/bad_password", "wrong or missing password for this room")

    async def enter(self, conn: Peer) -> None:
        async with self.lock:
            first = conn.player_id not in self.connected_players()
            unseated = await seating.unseat_refused(self, conn.player_id)
            self.conns.add(conn)
            self.disconnected_at.pop(conn.player_id, None)
            logs.event("room.enter", room=self.id, player=conn.player_id, conn=conn.id)
            conn.send({"type": "room", "room": self.room_json(conn.player_id)})
            if conn.player_id in self.seat_setup:  # your own secret choice, to you alone
                conn.send({"type": "seat_setup", "value": self.seat_setup[conn.player_id]})
            for message in self.chat_log:  # the room's recent chat, marked as a recap (same ids as when sent)
                if not self.host.is_blocked(conn.player_id, (message.get("from") or {}).get("player_id")):
                    conn.send({**message, "recap": True})
            state = self.state_json(conn.player_id, [], recap=True)
            if state is not None:
                conn.send(self.updates.full(conn, state))
            if first or unseated:
                self.send_room_except(conn)
            self.clock.schedule()

    async def exit(self, conn: Peer) -> None:
        async with self.lock:
            self.conns.discard(conn)
            self.updates.forget(conn)
            logs.event("room.exit", room=self.id, player=conn.player_id, conn=conn.id)
            if conn.player_id not in self.connected_players():
                self.disconnected_at[conn.player_id] = time.monotonic()
                self.clock.votes.discard(conn.player_id)
                self._pause_changed()

    # ------------------------------------------------------------------ seating (sefode.server.seating)
    async def admit(self, player_id: str | None) -> None:
        """The one admission check of every path that seats someone (``seating.admit``); the lock is held."""
        await seating.admit(self, player_id)

    async def turn_away(
        self,
        player_id: str,
        code: str = "room/blocked",
        message: str = "the owner of this room does not let you in",
    ) -> None:
        """The owner blocked ``player_id`` (or a moderator kicked them, ``room/kicked``): their connections leave the
        room (told why), and their seat is freed between matches (during one, the table's bot plays it, as for anyone
        who left). A kicked player does not come back to this room (``kicked`` is stored with it)."""
        async with self.lock:
            await seating.turn_away(self, player_id, code, message)

    async def sit(self, player_id: str, seat: int) -> None:
        async with self.lock:
            await seating.sit(self, player_id, seat)

    async def stand(self, player_id: str) -> None:
        async with self.lock:
            await seating.stand(self, player_id)

    async def set_seat(self, player_id: str, seat: int, bot: str | None) -> None:
        async with self.lock:
            await seating.set_seat(self, player_id, seat, bot)

    async def set_teams(
        self,
        player_id: str,
        draw: bool | None,
        pairs: list[list[int]] | None,
        teams: list[dict[str, Any]] | None,
    ) -> None:
        async with self.lock:
            await seating.set_teams(self, player_id, draw, pairs, teams)

    async def set_seat_setup(self, conn: Peer, value: Any) -> None:
        async with self.lock:
            await seating.set_seat_setup(self, conn, value)

    # ------------------------------------------------------------------ matches (sefode.server.play)
    async def start(self, player_id: str | None, start: StartPoint | None = None) -> None:
        """Start a match. ``start`` (a test hook, ``sefode.server.startpoint``): its seed, and actions already played;
        they are checked before anything is stored, and stored as the match's first actions (source ``start``)."""
        async with self.lock:
            if player_id is not None:
                seating.require_owner(self, player_id)
            await self.start_locked(start)

    async def start_locked(self, start: StartPoint | None = None) -> None:
        """``start``'s work, the room's lock held (also the path of a rematch every voter accepted)."""
        await play.start(self, start)

    async def act(self, player_id: str, message: dict[str, Any], version: int) -> None:
        """A client's action, checked in the protocol's fixed order."""
        async with self.lock:
            await play.act(self, player_id, message, version)

    async def bot_play(self, seat: int, reason: ActionSource) -> None:
        """The table's bot plays ``seat``'s turn (the clock's timer calls this; it takes the lock itself)."""
        await play.bot_play(self, seat, reason)

    # ------------------------------------------------------------------ chat and pause
    async def chat(self, player_id: str, text: str) -> None:
        """Store the message with the room (the last ``CHAT_KEPT``), then send it to everyone in the room."""
        self.host.refuse_muted(player_id)
        async with self.lock:
            self.chat_count += 1
            message = {
                "type": "chat",
                "id": self.chat_count,
                "from": {
                    "player_id": player_id,
                    "name": self.host.names.get(player_id),
                    "bot": player_id in self.host.bot_players,
                },
                "text": text,
                "at": logs.now_ms(),
            }
            self.chat_log.append(message)
            del self.chat_log[:-CHAT_KEPT]
            await self.save()
            self.broadcast_from(player_id, message)

    async def pause(self, player_id: str, vote: bool) -> None:
        async with self.lock:
            if not self.playing:
                raise ClientError("room/no_match", "no match is on in this room")
            if player_id not in self.pause_voters():
                raise ClientError("pause/not_allowed", "only seated players still in the match may vote a pause")
            if vote:
                self.clock.votes.add(player_id)
            else:
                self.clock.votes.discard(player_id)
            self._pause_changed()

    def _pause_changed(self) -> None:
        """The votes changed: pause or resume if the majority did, tell everyone, and re-arm the timer."""
        was_paused = self.paused
        self.clock.check_pause()
        self.send_room()
        if self.paused != was_paused:
            self.send_state([])  # the clock's deadline stopped or started again
        self.clock.schedule()

    # ------------------------------------------------------------------ timers
    def _schedule(self) -> None:
        """(Re)arm the room's one timer (``Clock.schedule``)."""
        self.clock.schedule()

    async def close_by_moderator(self) -> None:
        """A moderator closed the room: the match on stays stored as it is (every action already is), everyone here
        is told (``room_closed``) and leaves, and the room's timers stop."""
        async with self.lock:
            match_id = self.match.id if self.match is not None else None
            message = {"type": "room_closed", "room": self.id, "match": match_id}
            for conn in list(self.conns):
                conn.send(message)
                conn.room = None
            self.conns.clear()
            logs.event("room.closed_by_moderator", room=self.id, match=match_id)
            self.close()

    def close(self) -> None:
        self.clock.close()
