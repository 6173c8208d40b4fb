"""The hub: every room, the store's worker thread, the bots' worker threads, sessions and connections.

The hub is its rooms' host (``sefode.server.host.RoomHost``): what a room needs from outside, it asks the hub
through that protocol alone (the methods under "the rooms' host" below, and the settings and player sets).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.websockets import WebSocket

from sefode.accounts.bots import all_bot_ids, bot_ids_among
from sefode.accounts.friends import all_blocks
from sefode.accounts.moderation import all_mutes, closed_room_ids, is_closed_room
from sefode.awards.recording import record_match_end, recover, room_emptied
from sefode.bots.base import Player
from sefode.engine import Game, get_game
from sefode.server import PROTOCOL, logs, metrics, reactions, rematch, startpoint
from sefode.server.limits import Limiter
from sefode.server.messages import LEVELS, ClientError, encode
from sefode.server.nodewide import NodeWide
from sefode.server.placement import LocalPlacement, Peer, Placement
from sefode.server.record import ActionSource, BotLevel, MatchSeat, RoomSeat, seats_json
from sefode.server.room import DEFAULT_TEAMS, PAUSE_LIMIT_S, Room, hash_password
from sefode.server.work import HASHING
from sefode.server.workers import Workers
from sefode.store import Store
from sefode.store.db import (
    Fence,
    FencedOut,
    StoredMatch,
    add_action,
    create_match_on,
    new_token,
    save_room_on,
    set_match_seats,
)

if TYPE_CHECKING:
    from sefode.server.cluster import Cluster

T = TypeVar("T")

MAX_REFUSED = 200
QUEUE_LIMIT = 512
SESSION_CACHE_S = 30.0


class Connection:
    """One WebSocket: a player, at most one room, an outgoing queue and a token bucket (a ``placement.Peer``)."""

    _next = 0

    def __init__(self, ws: WebSocket | None, player_id: str, burst: float, per_s: float) -> None:
        """``burst`` and ``per_s``: the connection's message bucket (``Limits.connection_messages_*``)."""
        Connection._next += 1
        self.id = Connection._next
        self.ws = ws
        self.player_id = player_id
        self.room: Room | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        self.burst = burst
        self.per_s = per_s
        self.tokens = burst
        self.stamp = time.monotonic()
        self.refused = 0
        self.closed = False
        self.last_join: dict[str, Any] | None = None
        """The last ``join`` sent (cluster mode: to join again when the room moves to another node)."""
        self.session: str | None = None
        """Hash of the session token this connection authenticated with (its sockets close when it ends)."""
        self.client = ""
        """The peer's address (the key of the per-client limits)."""
        self.close_code: int | None = None
        """Set when the server ends the connection with a code of its own (see ``routes.ws``)."""

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.per_s)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            logs.warning("conn.slow_consumer", conn=self.id, player=self.player_id)
            self.closed = True
            with_room = self.room.id if self.room else None
            logs.event("conn.dropped", conn=self.id, room=with_room)
            # Wake the sender so that it closes the socket.
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def end(self, close_code: int) -> None:
        """Close the connection from the server with ``close_code`` (its sender closes the socket); from now on it
        handles no message."""
        self.close_code = close_code
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    def error(self, code: str, message: str, ref: Any = None) -> None:
        out: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if ref is not None:
            out["ref"] = ref
        self.send(out)


def new_room_record(
    game: Game[Any],
    options: dict[str, Any],
    owner: str,
    name: str,
    bots: dict[int, str],
    clock_s: int,
    visibility: str,
    sit: bool,
) -> dict[str, Any]:
    """A new room's stored record (``options`` validated already), without its password: its seats (bots where
    asked, the owner at the first free one if ``sit``), and the default teams if the game plays in units."""
    spec = game.spec
    players = int(options[spec.seats_option]) if spec.seats_option is not None else spec.min_seats
    if not spec.min_seats <= players <= spec.max_seats:
        raise ClientError("options/invalid", f"this game seats {spec.min_seats} to {spec.max_seats} players")
    seats = [RoomSeat() for _ in range(players)]
    for seat, level in bots.items():
        if not 0 <= seat < players:
            raise ClientError("room/bad_seat", f"bots: this room has seats 0 to {players - 1}, not {seat}")
        if level not in LEVELS:
            raise ClientError("message/invalid", f"bots: a level is one of {', '.join(LEVELS)}")
        seats[seat] = RoomSeat(None, BotLevel(level))
    if sit:
        for s in seats:
            if s.bot is None:
                s.player_id = owner
                break
    units = game.planned_units(options)
    return {
        "name": name,
        "game": game.name,
        "options": options,
        "owner": owner,
        "visibility": visibility,
        "password_hash": None,
        "clock_s": clock_s,
        "seats": seats_json(seats),
        "teams": [dict(t) for t in DEFAULT_TEAMS[: len(units)]] if units else None,
        "match_count": 0,
        "current_match": None,
        "last_match": None,
    }


class Hub:
    def __init__(
        self,
        store: Store,
        *,
        bot_delay_s: float = 0.8,
        disconnect_grace_s: float = 3.0,
        bot_think_ms: float = 300.0,
        bot_threads: int = 2,
        bot_processes: int = 1,
        pause_limit_s: float = PAUSE_LIMIT_S,
        clock_unit_s: float = 1.0,
    ) -> None:
        self.store = store
        self.bot_delay_s = bot_delay_s
        self.disconnect_grace_s = disconnect_grace_s
        self.bot_think_ms = bot_think_ms
        self.pause_limit_s = pause_limit_s
        self.clock_unit_s = clock_unit_s
        """Real seconds per second of a room's turn clock (``clock_s``): 1 but in tests that let a clock run out."""
        self.test_hooks = False
        """Whether the owner's ``start`` message may carry a start point (``sefode.server.startpoint``); the app
        sets it from ``create_app(test_hooks=...)``."""
        self.limiter = Limiter()
        """The server's limits (the app's ``Limiter``, set by ``create_app``): the rooms' own (reactions, votes)."""
        self.rooms: dict[str, Room] = {}
        self.invites: dict[str, str] = {}
        self.names: dict[str, str] = {}
        self.sessions: dict[str, tuple[str, str, float]] = {}
        self.connections: set[Connection] = set()
        self.bot_players: set[str] = set()
        """Players that are bot accounts (``sefode.accounts.bots``): marked as bots, seated only where allowed.
        Loaded at start and grown by ``bot_accounts`` (a bot created on another node, or by another server on the same
        database, is looked up in the store the first time its id is seen)."""
        self.human_players: set[str] = set()
        """Players looked up and found not to be bot accounts (a player never becomes one: a bot is a new player)."""
        self.blocks: dict[str, set[str]] = {}
        """Who each account blocked (``sefode.accounts.friends``): loaded at start, kept by the friends routes. A
        blocker gets no chat or reaction of a player they blocked, and that player does not enter their rooms."""
        self.mutes: dict[str, int | None] = {}
        """Muted players (``sefode.accounts.moderation``): until when (epoch ms), None for good. Loaded at start, kept
        by the moderator routes and, in cluster mode, by every node (``apply_moderation``)."""
        self.seen: dict[str, float] = {}
        """When (monotonic) each player last asked for their friends panel: the home page polls it, so a player with
        the home page open counts as online though they hold no WebSocket."""
        self.workers = Workers(store, bot_threads, bot_processes)
        """The store's thread (group commit) and the bots' threads and processes."""
        self.nodewide = NodeWide(self)
        """Blocks, moderators' actions and ended sessions, applied on every node."""
        self.placement: Placement = LocalPlacement(self)
        """Which node holds a room: this one alone, or a cluster's (``sefode serve --redis``, set by ``create_app``).
        The hub calls it the same way for both."""
        self.cluster: Cluster | None = None
        """The cluster placement, if that is the placement: for the routes that show cluster-wide information
        (the lobby, the health check) and for draining on SIGTERM. The hub itself does not read it."""

    def fence(self, room_id: str) -> Fence | None:
        """The fencing token of a write for ``room_id`` (None on a single node); ``FencedOut`` once our lease on
        the room has run out."""
        return self.placement.fence(room_id)

    async def room_write(self, room_id: str, fn: Callable[..., Any], *args: Any) -> Any:
        """A write ``fn(conn, *args)`` for a room, fenced in cluster mode; a node fenced out loses the room."""
        try:
            run = metrics.timed(metrics.STORE_WRITE, self.store.run_fenced, "room")
            return await self.db(run, self.fence(room_id), fn, *args)
        except FencedOut:
            await self.fenced_out(room_id)
            raise ClientError("server/moved", "this room moved to another server; joining it there") from None

    # ------------------------------------------------------------------ the rooms' host (``RoomHost``)
    async def fenced_out(self, room_id: str) -> None:
        await self.placement.lose(room_id, "fenced")

    async def save_room(self, room_id: str, data: dict[str, Any], visibility: str, invite_token: str) -> None:
        await self.room_write(room_id, save_room_on, room_id, data, visibility, invite_token)

    async def create_match(
        self,
        room_id: str,
        match_id: str,
        number: int,
        game: str,
        options: dict[str, Any],
        seed: int,
        setup: dict[str, Any],
        seats: Sequence[MatchSeat],
    ) -> None:
        args = (match_id, room_id, number, game, options, seed, setup, seats_json(seats))
        await self.room_write(room_id, create_match_on, *args)

    async def store_match_seats(self, room_id: str, match_id: str, seats: Sequence[MatchSeat]) -> None:
        await self.room_write(room_id, set_match_seats, match_id, seats_json(seats))

    async def store_actions(
        self, room_id: str, match_id: str, actions: Sequence[tuple[int, dict[str, Any]]], source: ActionSource
    ) -> None:
        fence = self.fence(room_id)
        await asyncio.gather(
            *(
                self.write(add_action, match_id, i, seat, entry, source, fence=fence)
                for i, (seat, entry) in enumerate(actions)
            )
        )

    async def store_action(
        self,
        room_id: str,
        match_id: str,
        index: int,
        seat: int,
        entry: dict[str, Any],
        source: ActionSource,
        seats: Sequence[MatchSeat] | None,
        outcome: dict[str, Any] | None,
    ) -> None:
        stored_seats = seats_json(seats) if seats is not None else None
        await self.write(
            add_action, match_id, index, seat, entry, source, stored_seats, outcome, fence=self.fence(room_id)
        )

    async def load_match(self, match_id: str) -> StoredMatch | None:
        return await self.db(self.store.load_match, match_id)

    async def match_ended(self, match_id: str) -> None:
        await self.db(record_match_end, self.store.engine, match_id)

    async def room_emptied(self, room_id: str, seats: Sequence[RoomSeat]) -> None:
        await self.db(room_emptied, self.store.engine, room_id, [seat.player_id for seat in seats])

    async def tournament_on(self, room_id: str) -> bool:
        return await self.db(rematch.tournament_on, self.store.engine, room_id)

    async def room_exists(self, room_id: str) -> bool:
        if room_id in self.rooms:
            return True
        if await self.db(is_closed_room, self.store.engine, room_id):
            return False  # closed by a moderator (its row stays, for its matches)
        return await self.db(self.store.load_room, room_id) is not None

    async def room_of_invite(self, invite: str) -> str | None:
        if invite in self.invites:
            return self.invites[invite]
        return await self.placement.find_invite(invite)

    def drop_room(self, room_id: str) -> Room | None:
        """This node holds ``room_id`` no more (a placement's call: the room moved); the room, if it was held."""
        return self.rooms.pop(room_id, None)

    # ------------------------------------------------------------------ threads
    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store call in the store's one worker thread (writes stay in order)."""
        return await self.workers.db(fn, *args)

    async def write(self, fn: Callable[..., Any], *args: Any, fence: Fence | None = None) -> Any:
        """A write ``fn(conn, *args)``, group-committed (``Workers.write``): returns once committed."""
        return await self.workers.write(fn, *args, fence=fence)

    async def decide(self, player: Player, game: Game[Any], state: Any, seat: int) -> int:
        """A bot's decision, off the event loop (``Workers.decide``). ``state`` is a clone."""
        return await self.workers.decide(player, game, state, seat)

    # ------------------------------------------------------------------ life cycle
    async def open(self) -> None:
        await self.db(self.store.migrate)
        self.bot_players = await self.db(all_bot_ids, self.store.engine)
        self.blocks = await self.db(all_blocks, self.store.engine)
        self.mutes = await self.db(all_mutes, self.store.engine)
        try:
            await self.db(recover, self.store.engine)  # medals of matches that ended while awarding failed
        except Exception as err:  # the tables stay playable even if awarding cannot catch up
            logs.error("hub.awarding_recover_failed", err)
        await self.placement.open()

    async def load_rooms(self) -> None:
        """Every stored room, restored (a single node; a cluster's nodes take rooms one by one, ``adopt``)."""
        closed = await self.db(closed_room_ids, self.store.engine)
        for room_id, data, invite in await self.db(self.store.load_rooms):
            if room_id in closed:  # closed by a moderator: its matches stay stored, the room is not opened again
                continue
            room = Room(self, room_id, data, invite)
            self.rooms[room_id] = room
            self.invites[invite] = room_id
        ids = {s.player_id for r in self.rooms.values() for s in r.seats if s.player_id} | {
            r.owner for r in self.rooms.values()
        }
        for room in self.rooms.values():
            if room.current_match is None:
                continue
            try:
                ids |= await self._restore_match(room)
            except Exception as err:
                logs.error("match.restore_failed", err, room=room.id, match=room.current_match)
        self.names.update(await self.db(self.store.player_names, sorted(ids)))
        await self.bot_accounts(ids)
        for room in self.rooms.values():
            room._schedule()
        logs.event("hub.open", rooms=len(self.rooms), database=self.store.engine.url.render_as_string())

    async def adopt(self, room_id: str, data: dict[str, Any], invite: str) -> Room:
        """Cluster mode: a room this node just took the lease of, rebuilt from the store (its match replayed)."""
        if await self.db(is_closed_room, self.store.engine, room_id):
            raise LookupError(f"room {room_id} was closed by a moderator")
        room = Room(self, room_id, data, invite)
        ids: set[str] = {s.player_id for s in room.seats if s.player_id} | {room.owner}
        if room.current_match is not None:
            ids |= await self._restore_match(room)
        self.names.update(await self.db(self.store.player_names, sorted(i for i in ids if i)))
        await self.bot_accounts(ids)  # seated bots created on a node this one never heard from
        self.rooms[room_id] = room
        self.invites[invite] = room_id
        room._schedule()
        return room

    async def _restore_match(self, room: Room) -> set[str]:
        """Replay ``room``'s current match from the store; the match's players. A match whose last action was stored
        but whose room was not saved after it (the process died between the two) ends here, and the room is saved."""
        stored = await self.db(self.store.load_match, room.current_match)
        if stored is None:
            raise LookupError(f"match {room.current_match} is missing")
        room.restore_match(stored)
        assert room.match is not None
        ids = {s.player_id for s in room.match.seats if s.player_id}
        outcome = room.match.final()
        if outcome is not None:
            url = f"/api/matches/{stored.id}/history"
            room.last_match = {
                "id": stored.id,
                "number": stored.number,
                "placements": list(outcome.placements),
                "history_url": url,
            }
            room.current_match = None
            self.rooms[room.id] = room
            await room.save()
        logs.event("match.restored", room=room.id, match=stored.id, version=room.match.version)
        return ids

    async def close(self) -> None:
        await self.placement.close()
        for room in self.rooms.values():
            room.close()
        self.workers.stop_bots()
        self.workers.stop_store()
        self.store.close()
        logs.event("hub.close")

    # ------------------------------------------------------------------ sessions
    async def new_session(self, name: str) -> tuple[str, str]:
        token, player_id = await self.db(self.store.create_player, name)
        self.sessions[token] = (player_id, name, time.monotonic() + SESSION_CACHE_S)
        self.names[player_id] = name
        logs.event("session.new", player=player_id)
        return token, player_id

    async def rename(self, token: str, name: str) -> str | None:
        found = await self.player(token)
        if found is None:
            return None
        await self.db(self.store.rename_player, found[0], name)
        self.sessions[token] = (found[0], name, time.monotonic() + SESSION_CACHE_S)
        self.names[found[0]] = name
        return found[0]

    async def player(self, token: str | None) -> tuple[str, str] | None:
        """(player id, name) of a session token."""
        if not token or len(token) > 128:
            return None
        cached = self.sessions.get(token)
        if cached is not None and cached[2] > time.monotonic():
            return cached[0], cached[1]
        found = await self.db(self.store.player_by_token, token)
        if found is not None:
            # A short cache: a session ended elsewhere (logout) stops working within SESSION_CACHE_S.
            self.sessions[token] = (found[0], found[1], time.monotonic() + SESSION_CACHE_S)
            self.names[found[0]] = found[1]
            if token.startswith("bot_"):  # perhaps a bot created elsewhere: known here from now on
                await self.bot_accounts([found[0]])
        else:
            self.sessions.pop(token, None)
        return found

    async def bot_accounts(self, players: Iterable[str | None]) -> set[str]:
        """The bot accounts among ``players``: from ``bot_players``, and for ids not seen before, from the store (so a
        bot created on another node is refused and marked like one created here)."""
        wanted = [p for p in players if p]
        unknown = sorted({p for p in wanted if p not in self.bot_players and p not in self.human_players})
        if unknown:
            found = await self.db(bot_ids_among, self.store.engine, unknown)
            self.bot_players |= found
            self.human_players.update(p for p in unknown if p not in found)
        return {p for p in wanted if p in self.bot_players}

    def is_blocked(self, blocker: str | None, player_id: str | None) -> bool:
        """Whether ``blocker`` blocked ``player_id``."""
        if not blocker or not player_id:
            return False
        blocked = self.blocks.get(blocker)
        return blocked is not None and player_id in blocked

    async def set_block(self, blocker: str, other: str, on: bool) -> None:
        """``blocker`` blocked (``on``) or unblocked ``other``, as the store now says, on every node."""
        await self.nodewide.set_block(blocker, other, on)

    async def forget_blocks(self, player: str) -> None:
        """An account was deleted: its blocks, both ways, are forgotten on every node."""
        await self.nodewide.forget_blocks(player)

    async def end_sessions(self, player_id: str, token: str | None = None) -> None:
        """The player's session ``token`` ended (all of them when None): its sockets close with
        ``CLOSE_SESSION_ENDED`` on every node, and no node's cache knows it any more."""
        await self.nodewide.end_sessions(player_id, token)

    def refuse_muted(self, player_id: str) -> None:
        """A muted player's chat or reaction: ``chat/muted``."""
        if player_id not in self.mutes:
            return
        until = self.mutes[player_id]
        if until is not None and until <= logs.now_ms():
            self.mutes.pop(player_id, None)
            return
        raise ClientError("chat/muted", "a moderator muted you: you cannot chat or react for now")

    async def apply_moderation(self, env: dict[str, Any]) -> None:
        """A moderator's action that every node applies at once (the store has it already): ``mute`` / ``unmute``
        (``p``, ``until``), ``ban`` (``p``: its sockets end with 4410), ``kick`` (``p`` out of ``room``), ``close``
        (``room``), ``rename_room`` (``room``, ``name``), ``rename`` (``p``, ``name``)."""
        await self.nodewide.apply_moderation(env)

    async def hear(self, env: dict[str, Any]) -> None:
        """Another node's word on what every node keeps (``nodewide``)."""
        await self.nodewide.hear(env)

    async def is_bot_account(self, player_id: str) -> bool:
        return bool(await self.bot_accounts([player_id]))

    # ------------------------------------------------------------------ rooms
    async def create_room(
        self,
        owner: str,
        name: str,
        game_name: str,
        options: dict[str, Any],
        bots: dict[int, str],
        clock_s: int,
        visibility: str,
        password: str | None,
        sit: bool,
    ) -> Room:
        game = get_game(game_name)
        normal = game.validate_options(options)  # InvalidOptions says why; no match is built
        data = new_room_record(game, normal, owner, name, bots, clock_s, visibility, sit)
        if visibility == "password" and password:
            data["password_hash"] = await HASHING.run(hash_password, password)
        room_id = new_token(6)
        invite = new_token(18)
        room = Room(self, room_id, data, invite)
        await self.placement.create(room_id)
        self.rooms[room_id] = room
        try:
            await room.save()
        except Exception:
            self.rooms.pop(room_id, None)
            raise
        self.invites[invite] = room_id
        logs.event("room.created", room=room_id, owner=owner, game=game.name, options=normal, visibility=visibility)
        return room

    # ------------------------------------------------------------------ messages
    async def handle(self, conn: Peer, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            conn.send({"type": "pong", "at": logs.now_ms()})
            return
        if kind == "join":
            await self.join(conn, msg)
            return
        if self.placement.forward(conn, msg):
            return  # a connection in a room held by another node
        room = conn.room
        if room is None:
            raise ClientError("room/not_joined", "join a room first")
        pid = conn.player_id
        if kind == "sit":
            await room.sit(pid, msg["seat"])
        elif kind == "stand":
            await room.stand(pid)
        elif kind == "set_seat":
            await room.set_seat(pid, msg["seat"], msg["bot"])
        elif kind == "set_teams":
            await room.set_teams(pid, msg.get("draw"), msg.get("pairs"), msg.get("teams"))
        elif kind == "start":
            # A start point (a test hook) is read here, on the node that holds the room, before anything is stored.
            start = startpoint.read(msg["start"], self.test_hooks) if "start" in msg else None
            await room.start(pid, start)
        elif kind == "action":
            await room.act(pid, msg["action"], msg["version"])
        elif kind == "chat":
            await room.chat(pid, msg["text"])
        elif kind == "seat_setup":
            await room.set_seat_setup(conn, msg["value"])
        elif kind == "pause":
            await room.pause(pid, msg["vote"])
        elif kind == "rematch":
            self.limiter.vote(pid)
            await rematch.vote(room, pid, msg["accept"], msg.get("match"))
        elif kind == "resync":
            await room.resync(conn)
        elif kind == "past":
            await room.past(conn)
        elif kind == "react":
            await reactions.react(room, pid, msg["reaction"], self.limiter)

    async def join(self, conn: Peer, msg: dict[str, Any]) -> None:
        """A ``join``: in the room where the placement holds it."""
        conn.last_join = msg
        if await self.placement.route(conn, msg):
            if conn.room is not None:
                await conn.room.exit(conn)
                conn.room = None
            return
        await self.enter(conn, msg)

    async def enter(self, conn: Peer, msg: dict[str, Any]) -> None:
        """A ``join`` of a room held here."""
        conn.last_join = msg
        room = self.rooms.get(msg["room"])
        if room is None:
            raise ClientError("room/not_found", f"there is no room {msg['room']!r}")
        # The placement's password backoff (a cluster's, shared by every node; a single node's is in routes.ws).
        msg = conn.last_join = await self.placement.password_guard(room, conn, msg)
        await room.can_enter(conn.player_id, msg.get("password"), msg.get("invite"))
        await self.is_bot_account(conn.player_id)  # a forwarded join: the edge may know the bot, this owner not yet
        if conn.room is not None and conn.room is not room:
            await conn.room.exit(conn)
        conn.room = room
        await room.enter(conn)

    async def disconnect(self, conn: Connection) -> None:
        self.connections.discard(conn)
        self.placement.disconnect(conn)
        if conn.room is not None:
            await conn.room.exit(conn)
            conn.room = None

    def hello(self, conn: Connection) -> None:
        conn.send(
            {"type": "hello", "protocol": PROTOCOL, "player_id": conn.player_id, "name": self.names.get(conn.player_id)}
        )
