"""The hub: every room, the store's worker thread, the bots' worker threads, sessions and connections."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.websockets import WebSocket

from sefode.accounts.awarding import recover
from sefode.accounts.bots import all_bot_ids, bot_ids_among
from sefode.accounts.friends import all_blocks
from sefode.accounts.moderation import all_mutes, closed_room_ids, is_closed_room
from sefode.bots.base import Player, Seen
from sefode.bots.players import make_player
from sefode.engine import Game, get_game
from sefode.server import PROTOCOL, logs, metrics, reactions, rematch, startpoint
from sefode.server.limits import Limiter
from sefode.server.messages import LEVELS, ClientError, encode
from sefode.server.placement import LocalPlacement, Peer, Placement
from sefode.server.room import DEFAULT_TEAMS, PAUSE_LIMIT_S, Room, hash_password
from sefode.server.work import HASHING
from sefode.store import Store
from sefode.store.db import Fence, FencedOut, create_match_on, new_token, save_room_on, token_hash

if TYPE_CHECKING:
    from sefode.server.cluster import Cluster

T = TypeVar("T")

MAX_REFUSED = 200
QUEUE_LIMIT = 512
CLOSE_SESSION_ENDED = 4410
"""The close code of a socket whose session ended (logout, deletion, a ban): the page says why."""
SESSION_CACHE_S = 30.0


PROCESS_KINDS = frozenset({"hard"})
"""Bot kinds whose decisions run in a worker process (CPU-heavy search)."""


def exit_with_parent(parent: int) -> None:
    """Initializer of a bot worker process: exit as soon as the server that started it is gone (even after a
    SIGKILL, which gives the server no chance to shut its pool down), instead of idling forever as an orphan."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def decide_in_process(kind: str, seed: int, think_ms: float, game_name: str, state: Any, seat: int) -> int:
    """A bot decision in a worker process (module-level, so that it pickles)."""
    player = make_player(kind, seed, think_ms)
    return player.choose(Seen(get_game(game_name), state, seat))


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
        self.test_hooks = False
        self.limiter = Limiter()
        """The server's limits (the app's ``Limiter``, set by ``create_app``): the rooms' own (reactions, votes)."""
        """Whether the owner's ``start`` message may carry a start point (``sefode.server.startpoint``); the app
        sets it from ``create_app(test_hooks=...)``."""
        """Real seconds per second of a room's turn clock (``clock_s``): 1 but in tests that let a clock run out."""
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
        self.blocks: dict[str, set[str]] = {}
        """Who each account blocked (``sefode.accounts.friends``): loaded at start, kept by the friends routes. A
        blocker gets no chat or reaction of a player they blocked, and that player does not enter their rooms."""
        self.mutes: dict[str, int | None] = {}
        """Muted players (``sefode.accounts.moderation``): until when (epoch ms), None for good. Loaded at start, kept
        by the moderator routes and, in cluster mode, by every node (``apply_moderation``)."""
        self.seen: dict[str, float] = {}
        """When (monotonic) each player last asked for their friends panel: the home page polls it, so a player with
        the home page open counts as online though they hold no WebSocket."""
        """Players looked up and found not to be bot accounts (a player never becomes one: a bot is a new player)."""
        self._db = ThreadPoolExecutor(1, thread_name_prefix="sefode-store")
        self._pending: list[tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._bots = ThreadPoolExecutor(bot_threads, thread_name_prefix="sefode-bot")
        self._bot_processes = bot_processes
        self._procs: ProcessPoolExecutor | None = None
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

    async def room_write(self, room: Room, fn: Callable[..., Any], *args: Any) -> Any:
        """A write ``fn(conn, *args)`` for ``room``, fenced in cluster mode; a node fenced out loses the room."""
        try:
            run = metrics.timed(metrics.STORE_WRITE, self.store.run_fenced, "room")
            return await self.db(run, self.fence(room.id), fn, *args)
        except FencedOut:
            await self.fenced_out(room)
            raise ClientError("server/moved", "this room moved to another server; joining it there") from None

    async def fenced_out(self, room: Room) -> None:
        await self.placement.lose(room.id, "fenced")

    async def save_room(self, room: Room) -> None:
        await self.room_write(room, save_room_on, room.id, room.data(), room.visibility, room.invite_token)

    async def create_match(self, room: Room, *args: Any) -> None:
        await self.room_write(room, create_match_on, *args)

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
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def write(self, fn: Callable[..., Any], *args: Any, fence: Fence | None = None) -> Any:
        """A write ``fn(conn, *args)``, group-committed with the writes queued meanwhile; ``fence`` (cluster mode)
        is checked in the same transaction.

        It returns once its transaction has committed, so a caller may broadcast what it stored.
        """
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((fn, (*args, fence), future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            ops = [(fn, args[:-1], args[-1]) for fn, args, _ in batch]
            commit = metrics.timed(metrics.STORE_WRITE, self.store.run_batch, "actions")
            try:
                results: list[Any] = await self.db(commit, ops)
            except Exception as err:
                results = [err] * len(batch)
            for (_, _, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if isinstance(result, Exception):
                    future.set_exception(result)
                else:
                    future.set_result(result)

    async def decide(self, player: Player, game: Game[Any], state: Any, seat: int) -> int:
        """A bot's decision, off the event loop: search bots (``hard``) in a worker process, so that their CPU
        does not compete with the event loop for the GIL; quick ones in a worker thread. ``state`` is a clone."""
        loop = asyncio.get_running_loop()
        if player.kind in PROCESS_KINDS and self._bot_processes > 0:
            try:
                if self._procs is None:
                    context = multiprocessing.get_context("spawn")
                    self._procs = ProcessPoolExecutor(
                        self._bot_processes, mp_context=context, initializer=exit_with_parent, initargs=(os.getpid(),)
                    )
                seed = secrets.randbits(32)
                args = (player.kind, seed, player.think_ms, game.name, state, seat)
                action: int = await loop.run_in_executor(self._procs, decide_in_process, *args)
                return action
            except (BrokenProcessPool, pickle.PicklingError, OSError) as err:
                logs.error("bot.process_pool_failed", err, kind=player.kind)
                self._bot_processes = 0  # from now on, threads
        seen = Seen(game, state, seat)
        chosen: int = await loop.run_in_executor(self._bots, player.choose, seen)
        return chosen

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
        ids = {s["player_id"] for r in self.rooms.values() for s in r.seats if s.get("player_id")} | {
            r.owner for r in self.rooms.values()
        }
        for room in self.rooms.values():
            if room.current_match is None:
                continue
            try:
                stored = await self.db(self.store.load_match, room.current_match)
                if stored is None:
                    raise LookupError(f"match {room.current_match} is missing")
                room.restore_match(stored)
                assert room.match is not None
                ids |= {s["player_id"] for s in room.match.seats if s.get("player_id")}
                outcome = room.match.final()
                if outcome is not None:  # killed between storing the last action and saving the room
                    url = f"/api/matches/{stored.id}/history"
                    placements = list(outcome.placements)
                    room.last_match = {
                        "id": stored.id,
                        "number": stored.number,
                        "placements": placements,
                        "history_url": url,
                    }
                    room.current_match = None
                    await room.save()
                logs.event("match.restored", room=room.id, match=stored.id, version=room.match.version)
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
        ids = {s["player_id"] for s in room.seats if s.get("player_id")} | {room.owner}
        if room.current_match is not None:
            stored = await self.db(self.store.load_match, room.current_match)
            if stored is None:
                raise LookupError(f"match {room.current_match} is missing")
            room.restore_match(stored)
            assert room.match is not None
            ids |= {s["player_id"] for s in room.match.seats if s.get("player_id")}
            outcome = room.match.final()
            if outcome is not None:  # the last owner stored the last action, then died before saving the room
                url = f"/api/matches/{stored.id}/history"
                room.last_match = {
                    "id": stored.id,
                    "number": stored.number,
                    "placements": list(outcome.placements),
                    "history_url": url,
                }
                room.current_match = None
                self.rooms[room_id] = room
                await room.save()
            logs.event("match.restored", room=room_id, match=stored.id, version=room.match.version)
        self.names.update(await self.db(self.store.player_names, sorted(i for i in ids if i)))
        await self.bot_accounts(ids)  # seated bots created on a node this one never heard from
        self.rooms[room_id] = room
        self.invites[invite] = room_id
        room._schedule()
        return room

    async def close(self) -> None:
        await self.placement.close()
        for room in self.rooms.values():
            room.close()
        self._bots.shutdown(wait=False, cancel_futures=True)
        if self._procs is not None:
            self._procs.shutdown(wait=False, cancel_futures=True)
        self._db.shutdown(wait=True)
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

    async def set_block(self, blocker: str, other: str, on: bool, *, tell_cluster: bool = True) -> None:
        """``blocker`` blocked (``on``) or unblocked ``other``, as the store now says: this process's copy follows, the
        rooms ``blocker`` owns here turn ``other`` away, and (cluster mode) every other node does the same."""
        if on:
            self.blocks.setdefault(blocker, set()).add(other)
            for room in list(self.rooms.values()):
                if room.owner == blocker:
                    await room.turn_away(other)
        else:
            self.blocks.get(blocker, set()).discard(other)
        if tell_cluster and self.cluster is not None:
            await self.cluster.tell_all({"k": "block", "p": blocker, "o": other, "on": on})

    async def forget_blocks(self, player: str, *, tell_cluster: bool = True) -> None:
        """An account was deleted: its blocks, both ways, are gone from the store; this process's copy follows (and,
        in cluster mode, every other node's)."""
        self.blocks.pop(player, None)
        for blocked in self.blocks.values():
            blocked.discard(player)
        if tell_cluster and self.cluster is not None:
            await self.cluster.tell_all({"k": "forget_blocks", "p": player})

    def end_sessions(self, player_id: str, token: str | None = None) -> int:
        """Close the player's connections that authenticated with ``token`` (all of them when None), with
        ``CLOSE_SESSION_ENDED``. From now on they handle no message. Returns how many were closed."""
        digest = token_hash(token) if token else None
        closed = 0
        for conn in list(self.connections):
            if conn.player_id != player_id or conn.closed:
                continue
            if digest is not None and conn.session != digest:
                continue
            conn.end(CLOSE_SESSION_ENDED)
            closed += 1
        if closed:
            logs.event("conn.session_ended", player=player_id, connections=closed)
        return closed

    def refuse_muted(self, player_id: str) -> None:
        """A muted player's chat or reaction: ``chat/muted``."""
        if player_id not in self.mutes:
            return
        until = self.mutes[player_id]
        if until is not None and until <= logs.now_ms():
            self.mutes.pop(player_id, None)
            return
        raise ClientError("chat/muted", "a moderator muted you: you cannot chat or react for now")

    async def apply_moderation(self, env: dict[str, Any], *, tell_cluster: bool = True) -> None:
        """A moderator's action that every node applies at once (the store has it already): ``mute`` / ``unmute``
        (``p``, ``until``), ``ban`` (``p``: its sockets end with 4410), ``kick`` (``p`` out of ``room``), ``close``
        (``room``), ``rename_room`` (``room``, ``name``), ``rename`` (``p``, ``name``)."""
        op, player, room_id = env["op"], env.get("p"), env.get("room")
        room = self.rooms.get(str(room_id)) if room_id else None
        if op == "mute":
            self.mutes[str(player)] = env.get("until")
        elif op == "unmute":
            self.mutes.pop(str(player), None)
        elif op == "ban":
            for key in [k for k, v in self.sessions.items() if v[0] == player]:
                self.sessions.pop(key, None)
            self.end_sessions(str(player))
        elif op == "kick" and room is not None:
            await room.turn_away(str(player), "room/kicked", "a moderator removed you from this table")
        elif op == "close" and room is not None:
            await room.close_by_moderator()
            self.invites.pop(room.invite_token, None)
            if self.cluster is not None:
                await self.cluster.release(room.id)  # the lease goes too: no node serves the room again
            self.rooms.pop(room.id, None)
        elif op == "rename_room" and room is not None:
            async with room.lock:
                room.name = str(env["name"])
                await room.save()
                room.send_room()
        elif op == "rename":
            self.names[str(player)] = str(env["name"])
            for key, value in list(self.sessions.items()):
                if value[0] == player:
                    self.sessions[key] = (value[0], str(env["name"]), value[2])
            for held in list(self.rooms.values()):
                if player in held.connected_players() or player in held.seated_players():
                    held.send_room()
        if tell_cluster and self.cluster is not None:
            await self.cluster.tell_all({"k": "moderation", **env})

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
        spec = game.spec
        players = int(normal[spec.seats_option]) if spec.seats_option is not None else spec.min_seats
        if not spec.min_seats <= players <= spec.max_seats:
            raise ClientError("options/invalid", f"this game seats {spec.min_seats} to {spec.max_seats} players")
        seats: list[dict[str, Any]] = [{"player_id": None, "bot": None} for _ in range(players)]
        for seat, level in bots.items():
            if not 0 <= seat < players:
                raise ClientError("room/bad_seat", f"bots: this room has seats 0 to {players - 1}, not {seat}")
            if level not in LEVELS:
                raise ClientError("message/invalid", f"bots: a level is one of {', '.join(LEVELS)}")
            seats[seat] = {"player_id": None, "bot": level}
        if sit:
            for s in seats:
                if s["bot"] is None:
                    s["player_id"] = owner
                    break
        units = game.planned_units(normal)
        room_id = new_token(6)
        invite = new_token(18)
        data: dict[str, Any] = {
            "name": name,
            "game": game.name,
            "options": normal,
            "owner": owner,
            "visibility": visibility,
            "password_hash": await HASHING.run(hash_password, password)
            if visibility == "password" and password
            else None,
            "clock_s": clock_s,
            "seats": seats,
            "teams": [dict(t) for t in DEFAULT_TEAMS[: len(units)]] if units else None,
            "match_count": 0,
            "current_match": None,
            "last_match": None,
        }
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
