"""A room: the single writer of its table.

Every change to a room or its match goes through the room's lock: check, apply through the engine, store (awaited,
in the store's worker thread), then send each connection its own view. Rooms know games only through
``sefode.engine.get_game`` and the ``Game`` interface; views and events are opaque JSON.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
import time
from typing import TYPE_CHECKING, Any

from sefode.accounts import passwords
from sefode.accounts.awarding import record_match_end, room_emptied
from sefode.bots.base import Player
from sefode.bots.players import make_player, player_kinds
from sefode.engine import PLATFORM_ACTIONS, Capability, EngineError, Game, SeatStatus, apply_entry, get_game
from sefode.history import replay_actions
from sefode.server import logs, metrics, rematch, startpoint
from sefode.server.matchrun import MatchRun, with_played_for
from sefode.server.messages import ClientError, encode
from sefode.server.present import state_common, state_message
from sefode.server.record import (
    CHAT_KEPT,
    ActionSource,
    BotLevel,
    RoomRecord,
    RoomStatus,
    Visibility,
    copy_record,
    load_record,
    record_json,
)
from sefode.server.startpoint import StartPoint
from sefode.server.work import HASHING
from sefode.store.db import FencedOut, add_action, set_match_seats

if TYPE_CHECKING:
    from sefode.server.hub import Hub
    from sefode.server.placement import Peer

PAUSE_LIMIT_S = 15 * 60
LOBBY_FRESH_MS = 15 * 60 * 1000
DEFAULT_LEVEL: str = BotLevel.NORMAL.value
DEFAULT_TEAMS = [
    {"name": "Copas", "colour": "#d33f49", "symbol": "♥"},
    {"name": "Espadas", "colour": "#2d3047", "symbol": "♠"},
    {"name": "Ouros", "colour": "#e0a100", "symbol": "♦"},
    {"name": "Paus", "colour": "#1b998b", "symbol": "♣"},
]


def seed_hash(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def seat_setups(game: Game[Any], options: dict[str, Any], seed: int, chosen: list[Any]) -> dict[str, Any] | None:
    """A match's ``setup["seat_setup"]``: each seat's secret choice (``chosen``, None: none), or the game's default."""
    if Capability.SEAT_SETUP not in game.spec.capabilities:
        return None
    chooser = random.Random(seed)
    return {
        "seat_setup": [
            choice if choice is not None else game.default_seat_setup(options, i, chooser)
            for i, choice in enumerate(chosen)
        ]
    }


def hash_password(password: str) -> str:
    """A room password's hash: argon2id, the accounts' hasher (``sefode.accounts.passwords``)."""
    return passwords.hash_password(password)


def check_password(password: str, stored: str) -> bool:
    return passwords.verify_password(stored, password)


class Room(RoomRecord):
    """A room: its stored fields (``RoomRecord``, the room's attributes) and what lives only in memory."""

    def __init__(self, hub: Hub, room_id: str, data: dict[str, Any], invite_token: str) -> None:
        copy_record(load_record(data), self)
        self.hub = hub
        self.id = room_id
        self.invite_token = invite_token
        self.match: MatchRun | None = None
        self.conns: set[Peer] = set()
        self.lock = asyncio.Lock()
        self.pause_votes: set[str] = set()
        self.paused_until: float | None = None
        self.disconnected_at: dict[str, float] = {}
        self.kicked: set[str] = set()
        """Players a moderator removed from this room (``turn_away``): kept in memory only."""
        self._timer: asyncio.Task[None] | None = None
        self._alarm: asyncio.TimerHandle | None = None
        """The armed timer (a loop callback: re-arming on every action costs no task); it starts ``_timer``."""
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
            await self.hub.save_room(self)
        except Exception:
            copy_record(load_record(self._stored), self)
            raise
        self._stored = data

    def restore_match(self, stored: Any) -> None:
        """Rebuild the match by replaying its stored actions through the engine."""
        game = get_game(stored.game)
        state = game.new_match(stored.options, stored.seed, stored.setup)
        run = MatchRun(
            id=stored.id,
            number=stored.number,
            game=game,
            state=state,
            seed=stored.seed,
            options=stored.options,
            setup=stored.setup,
            seats=[dict(s) for s in stored.seats],
        )
        run.awaiting = game.awaiting(state)
        run.seen = [0] * game.seats(state)
        run.own = [0] * game.seats(state)
        sources = [source for _seat, _entry, source in stored.actions]
        entries = [(seat, entry) for seat, entry, _source in stored.actions]
        for index, (seat, events) in enumerate(replay_actions(game, state, entries)):
            secret = run.secret(seat, events)
            if not secret:
                run.record(with_played_for(events, seat, sources[index]))
            run.advance(seat, secret)
        self.match = run
        self._reset_clock()

    # ------------------------------------------------------------------ describing
    @property
    def playing(self) -> bool:
        return self.match is not None and not self.match.over

    @property
    def paused(self) -> bool:
        return self.paused_until is not None

    def status(self) -> RoomStatus:
        if not self.playing:
            return RoomStatus.WAITING
        return RoomStatus.PAUSED if self.paused else RoomStatus.PLAYING

    def connected_players(self) -> set[str]:
        return {c.player_id for c in self.conns}

    def seated_players(self) -> set[str]:
        ids = {s["player_id"] for s in self.seats if s.get("player_id")}
        if self.playing and self.match is not None:
            ids |= {s["player_id"] for s in self.match.seats if s.get("player_id") and not s.get("left")}
        return ids

    def watchers(self) -> set[str]:
        """Connected players who do not play now: during a match, all but its players still in it (one who left the
        match watches it, though the room keeps their seat for the next); between matches, all but the seated."""
        connected = self.connected_players()
        if self.playing and self.match is not None:
            return connected - {s["player_id"] for s in self.match.seats if s.get("player_id") and not s.get("left")}
        return connected - {s["player_id"] for s in self.seats if s.get("player_id")}

    def config_seat_of(self, player_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.get("player_id") == player_id:
                return i
        return None

    def view_seat(self, player_id: str) -> int | None:
        """The match seat whose view this player gets (None: the spectator view)."""
        if self.match is None:
            return None
        return self.match.seat_of(player_id)

    def summary(self) -> dict[str, Any]:
        taken = sum(1 for s in self.seats if s.get("player_id") or s.get("bot"))
        bots = sum(1 for s in self.seats if s.get("bot") or s.get("player_id") in self.hub.bot_players)
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game_name,
            "variant": self.options.get("variant"),
            "options": self.options,
            "seats": len(self.seats),
            "seats_taken": taken,
            "bots": bots,
            "playing": self.playing,
            "visibility": self.visibility,
            "spectators": len(self.watchers()),
            "connected": len(self.connected_players()),
        }

    def seat_list(self) -> list[dict[str, Any]]:
        """Who holds each seat, for a visitor's preview of the table (no player ids): a player's name, a bot's level
        (``bot``), or neither (a free seat)."""
        out: list[dict[str, Any]] = []
        for i, s in enumerate(self.seats):
            pid = s.get("player_id")
            out.append(
                {
                    "seat": i,
                    "name": self.hub.names.get(pid) if pid else None,
                    "bot": s.get("bot"),
                    "bot_account": pid in self.hub.bot_players if pid else False,
                }
            )
        return out

    def listed(self, now_ms: int) -> bool:
        """Shown in the lobby: public or password rooms with a match on, someone in, or created lately."""
        if self.visibility not in (Visibility.PUBLIC, Visibility.PASSWORD):
            return False
        return self.playing or bool(self.conns) or now_ms - self.created_at < LOBBY_FRESH_MS

    def _units(self) -> tuple[tuple[int, ...], ...]:
        """The pairs or teams of the room's next match, from its options (empty: every seat alone)."""
        game = get_game(self.game_name)
        options = dict(self.options)
        if game.spec.seats_option is not None:
            options[game.spec.seats_option] = len(self.seats)
        return game.planned_units(options)

    def _seat_json(self, i: int, s: dict[str, Any], connected: set[str]) -> dict[str, Any]:
        pid = s.get("player_id")
        return {
            "seat": i,
            "player_id": pid,
            "name": self.hub.names.get(pid) if pid else None,
            "bot": s.get("bot"),
            "bot_account": pid in self.hub.bot_players if pid else False,
            "connected": pid in connected if pid else True,
        }

    def room_json(self, player_id: str) -> dict[str, Any]:
        connected = self.connected_players()
        match_json = None
        if self.match is not None and self.playing:
            mseats = []
            for i, s in enumerate(self.match.seats):
                entry = self._seat_json(i, s, connected)
                entry["left"] = bool(s.get("left"))
                mseats.append(entry)
            match_json = {
                "id": self.match.id,
                "number": self.match.number,
                "seed_hash": seed_hash(self.match.seed),
                "seats": mseats,
            }
        teams = None
        if self.teams is not None:
            units = self._units()
            teams = [{**t, "seats": list(units[p])} for p, t in enumerate(self.teams[: len(units)])]
        your_seat = self.view_seat(player_id) if self.playing else None
        if your_seat is None:
            your_seat = self.config_seat_of(player_id)
        pause = None
        if self.playing:
            pause = {
                "votes": sorted(self.pause_votes),
                "needed": len(self.pause_voters()) // 2 + 1,
                "until": int((time.time() + (self.paused_until - time.monotonic())) * 1000)
                if self.paused_until is not None
                else None,
            }
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game_name,
            "options": self.options,
            "visibility": self.visibility,
            "invite_token": self.invite_token,  # whoever is in the room already got in: they may share the link
            "owner": self.owner,
            "you": player_id,
            "your_seat": your_seat,
            "clock_s": self.clock_s,
            "outside_bots": self.outside_bots,
            "status": self.status(),
            "seats": [self._seat_json(i, s, connected) for i, s in enumerate(self.seats)],
            "match": match_json,
            "teams": teams,
            "pause": pause,
            "spectators": len(self.watchers()),
            "last_match": self.last_match,
            "setup": self._setup_json(),
            "rematch": rematch.room_json(self),
        }

    def _setup_json(self) -> dict[str, Any] | None:
        """What everyone may know of the seats' secret choices: the ready-made ones, and who has chosen."""
        game = get_game(self.game_name)
        if Capability.SEAT_SETUP not in game.spec.capabilities:
            return None
        return {
            "choices": game.seat_setup_choices(self.options),
            "ready": [bool(s.get("player_id")) and s["player_id"] in self.seat_setup for s in self.seats],
        }

    def _seat_setups(self, game: Game[Any], options: dict[str, Any], seed: int) -> dict[str, Any] | None:
        """The match's ``setup["seat_setup"]``: each seat's secret choice, or the game's default for it."""
        chosen = [self.seat_setup.get(s["player_id"], None) if s.get("player_id") else None for s in self.seats]
        return seat_setups(game, options, seed, chosen)

    async def set_seat_setup(self, conn: Peer, value: Any) -> None:
        """A seated player's secret choice for the next match (a deck): checked by the game, kept with the room,
        confirmed to that player alone; the others learn only that the seat has chosen."""
        async with self.lock:
            game = get_game(self.game_name)
            if Capability.SEAT_SETUP not in game.spec.capabilities:
                raise ClientError("setup/not_offered", "this game takes no choice before the match")
            self._require_between()
            if self.config_seat_of(conn.player_id) is None:
                raise ClientError("room/not_seated", "sit first: the choice is made for your seat")
            try:
                normal = game.check_seat_setup(self.options, value)
            except EngineError as err:
                raise ClientError(err.code, str(err)) from None
            self.seat_setup[conn.player_id] = normal
            await self.save()
            for other in list(self.conns):
                if other.player_id == conn.player_id:
                    other.send({"type": "seat_setup", "value": normal})
            self.send_room()

    def state_json(self, player_id: str, events: list[dict[str, Any]], recap: bool) -> dict[str, Any] | None:
        run = self.match
        if run is None:
            return None
        msg = state_message(run, run.seat_of(player_id), events, state_common(run))
        if recap:
            msg["recap"] = list(run.recent)
        return msg

    # ------------------------------------------------------------------ sending
    def send_room(self) -> None:
        for conn in list(self.conns):
            conn.send({"type": "room", "room": self.room_json(conn.player_id)})

    def send_state(self, events: list[dict[str, Any]]) -> None:
        """Every connection its own ``state``: each seat's message (and the spectators') is built and encoded once,
        however many connections share it, and the parts common to every seat are computed once."""
        run = self.match
        if run is None or not self.conns:
            return
        common = state_common(run)
        conns = [(conn, run.seat_of(conn.player_id)) for conn in self.conns]
        seats = list(dict.fromkeys(seat for _conn, seat in conns))
        views = run.game.views(run.state, seats)  # what the seats' views share is built once
        by_seat = {
            seat: encode(state_message(run, seat, events, common, view))
            for seat, view in zip(seats, views, strict=True)
        }
        for conn, seat in conns:
            conn.send_text(by_seat[seat])

    def send_seat_state(self, seat: int, events: list[dict[str, Any]]) -> None:
        """The ``state`` of one seat, to that seat's connections alone (a secret action, see ``MatchRun.secret``)."""
        run = self.match
        if run is None:
            return
        text: str | None = None
        for conn in list(self.conns):
            if run.seat_of(conn.player_id) == seat:
                text = text or encode(state_message(run, seat, events, state_common(run)))
                conn.send_text(text)

    def broadcast(self, message: dict[str, Any]) -> None:
        text = encode(message)
        for conn in list(self.conns):
            conn.send_text(text)

    def broadcast_from(self, sender: str, message: dict[str, Any]) -> None:
        """``broadcast`` a player's chat or reaction, to every connection but those of players who blocked them."""
        text = encode(message)
        for conn in list(self.conns):
            if not self.hub.is_blocked(conn.player_id, sender):
                conn.send_text(text)

    def refuse_blocked(self, player_id: str | None) -> None:
        """A player the room's owner blocked (or a moderator kicked out) neither sits nor watches here."""
        if player_id in self.kicked:
            raise ClientError("room/kicked", "a moderator removed you from this table")
        if self.hub.is_blocked(self.owner, player_id):
            raise ClientError("room/blocked", "the owner of this room does not let you in")

    # ------------------------------------------------------------------ connections
    async def can_enter(self, player_id: str, password: str | None, invite: str | None) -> None:
        self.refuse_blocked(player_id)
        if player_id == self.owner or player_id in self.seated_players():
            return
        if self.match is not None and any(s.get("player_id") == player_id for s in self.match.seats):
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
            unseated = await self._unseat_refused(conn.player_id)
            self.conns.add(conn)
            self.disconnected_at.pop(conn.player_id, None)
            logs.event("room.enter", room=self.id, player=conn.player_id, conn=conn.id)
            conn.send({"type": "room", "room": self.room_json(conn.player_id)})
            if conn.player_id in self.seat_setup:  # your own secret choice, to you alone
                conn.send({"type": "seat_setup", "value": self.seat_setup[conn.player_id]})
            for message in self.chat_log:  # the room's recent chat, marked as a recap (same ids as when sent)
                if not self.hub.is_blocked(conn.player_id, (message.get("from") or {}).get("player_id")):
                    conn.send({**message, "recap": True})
            state = self.state_json(conn.player_id, [], recap=True)
            if state is not None:
                conn.send(state)
            if first or unseated:
                self.send_room_except(conn)
            self._schedule()

    def send_room_except(self, skip: Peer) -> None:
        for other in list(self.conns):
            if other is not skip:
                other.send({"type": "room", "room": self.room_json(other.player_id)})

    async def exit(self, conn: Peer) -> None:
        async with self.lock:
            self.conns.discard(conn)
            logs.event("room.exit", room=self.id, player=conn.player_id, conn=conn.id)
            if conn.player_id not in self.connected_players():
                self.disconnected_at[conn.player_id] = time.monotonic()
                self.pause_votes.discard(conn.player_id)
                was_paused = self.paused
                self._check_pause()
                self.send_room()
                if self.paused != was_paused:
                    self.send_state([])
                self._schedule()

    # ------------------------------------------------------------------ admission
    async def admit(self, player_id: str | None) -> None:
        """The one admission check of every path that seats someone: ``sit``, a late join, a seat the owner sets
        (``None``: the table's own bot), a reconnection and the start of a match (see ``_unseat_refused``).

        A person and the table's own bots sit anywhere; a bot account (``sefode.accounts.bots``, looked up in the
        store the first time: not only this node's cache) only where the owner lets outside bots sit."""
        if player_id is None:
            return
        self.refuse_blocked(player_id)
        if self.outside_bots:
            return
        if await self.hub.is_bot_account(player_id):
            raise ClientError("room/no_bots", "the owner of this room does not let outside bots sit")

    async def _unseat_refused(self, player_id: str) -> bool:
        """A reconnection, or the start of a match: a player holding a seat the admission check refuses (a bot account
        seated by a path that was not checked before, kept in a stored room) loses it: the room's seat is freed, and
        in the match on the table's bot plays the seat from now on. True when something changed (stored already)."""
        held = self.config_seat_of(player_id)
        run = self.match if self.playing else None
        in_match = run.seat_of(player_id) if run is not None else None
        if held is None and in_match is None:
            return False
        try:
            await self.admit(player_id)
        except ClientError:
            pass
        else:
            return False
        if held is not None:
            self.seats[held] = {"player_id": None, "bot": None}
            await self.save()
        if run is not None and in_match is not None:
            run.seats[in_match]["left"] = True
            await self.hub.room_write(self, set_match_seats, run.id, run.seats)
        logs.warning("room.unseated", room=self.id, player=player_id, seat=held, match_seat=in_match)
        return True

    async def turn_away(
        self,
        player_id: str,
        code: str = "room/blocked",
        message: str = "the owner of this room does not let you in",
    ) -> None:
        """The owner blocked ``player_id`` (or a moderator kicked them, ``room/kicked``): their connections leave the
        room (told why), and their seat is freed between matches (during one, the table's bot plays it, as for anyone
        who left). A kicked player does not come back to this room while the server runs."""
        async with self.lock:
            if code == "room/kicked":
                self.kicked.add(player_id)
            gone = [conn for conn in self.conns if conn.player_id == player_id]
            for conn in gone:
                self.conns.discard(conn)
                conn.room = None
                conn.error(code, message)
            if gone:
                self.disconnected_at[player_id] = time.monotonic()
                self.pause_votes.discard(player_id)
            held = self.config_seat_of(player_id)
            if held is not None and not self.playing:
                self.seats[held] = {"player_id": None, "bot": None}
                rematch.seat_lost(self, player_id)
                await self.save()
            if gone or held is not None:
                logs.event("room.turned_away", room=self.id, player=player_id, seat=held)
                self.send_room()
                self._schedule()

    # ------------------------------------------------------------------ seating (between matches)
    def _require_owner(self, player_id: str) -> None:
        if player_id != self.owner:
            raise ClientError("room/not_owner", "only the room's owner may do this")

    def _require_between(self) -> None:
        if self.playing:
            raise ClientError("room/match_on", "a match is on; this can change between matches")

    def _seat_index(self, seat: int) -> int:
        if not 0 <= seat < len(self.seats):
            raise ClientError("room/bad_seat", f"this room has seats 0 to {len(self.seats) - 1}, not {seat}")
        return seat

    async def sit(self, player_id: str, seat: int) -> None:
        async with self.lock:
            i = self._seat_index(seat)
            target = self.seats[i]
            if target.get("player_id") == player_id:
                return
            if target.get("player_id") or target.get("bot"):
                raise ClientError("room/seat_taken", f"seat {i} is taken")
            await self.admit(player_id)
            if self.playing and self.match is not None and self.match.seat_of(player_id) is not None:
                raise ClientError("room/match_on", "you are playing this match; use leave to forfeit")
            old = self.config_seat_of(player_id)
            if old is not None:
                self.seats[old] = {"player_id": None, "bot": None}
            self.seats[i] = {"player_id": player_id, "bot": None}
            await self.save()
            logs.event("room.sit", room=self.id, player=player_id, seat=i, during_match=self.playing)
            self.send_room()

    async def stand(self, player_id: str) -> None:
        async with self.lock:
            self._require_between()
            old = self.config_seat_of(player_id)
            if old is None:
                raise ClientError("room/not_seated", "you are not seated in this room")
            self.seats[old] = {"player_id": None, "bot": None}
            rematch.seat_lost(self, player_id)
            await self.save()
            try:
                await self.hub.db(room_emptied, self.hub.store.engine, self.id, self.seats)  # no human left
            except Exception as err:
                logs.error("room.emptied_failed", err, room=self.id)
            logs.event("room.stand", room=self.id, player=player_id, seat=old)
            self.send_room()

    async def set_seat(self, player_id: str, seat: int, bot: str | None) -> None:
        async with self.lock:
            self._require_owner(player_id)
            self._require_between()
            i = self._seat_index(seat)
            await self.admit(None)  # the owner seats the table's own bot
            had = self.seats[i].get("player_id")
            had_human = had is not None
            self.seats[i] = {"player_id": None, "bot": bot}
            if had is not None:
                rematch.seat_lost(self, had)
            await self.save()
            if had_human:
                try:
                    await self.hub.db(room_emptied, self.hub.store.engine, self.id, self.seats)  # no human left
                except Exception as err:
                    logs.error("room.emptied_failed", err, room=self.id)
            logs.event("room.set_seat", room=self.id, seat=i, bot=bot)
            self.send_room()

    async def set_teams(
        self,
        player_id: str,
        draw: bool | None,
        pairs: list[list[int]] | None,
        teams: list[dict[str, Any]] | None,
    ) -> None:
        async with self.lock:
            self._require_owner(player_id)
            self._require_between()
            if self.teams is None:
                raise ClientError("room/no_teams", "this room is not played in pairs")
            n = len(self.seats)
            layout = self._units()
            units = len(layout)
            if pairs is not None:
                flat = [s for pair in pairs for s in pair]
                if (
                    len(pairs) != units
                    or sorted(flat) != list(range(n))
                    or [len(p) for p in pairs] != [len(u) for u in layout]
                ):
                    raise ClientError("message/invalid", f"'pairs' must name every seat 0 to {n - 1} exactly once")
                old = [dict(s) for s in self.seats]
                for unit, members in zip(layout, pairs, strict=True):
                    for target, source in zip(unit, members, strict=True):
                        self.seats[target] = old[source]
            elif draw:
                order = list(range(n))
                secrets.SystemRandom().shuffle(order)
                old = [dict(s) for s in self.seats]
                self.seats = [old[k] for k in order]
            if teams is not None:
                for p, team in enumerate(teams[:units]):
                    self.teams[p] = {**self.teams[p], **team}
            await self.save()
            logs.event("room.set_teams", room=self.id, draw=bool(draw), pairs=pairs)
            self.send_room()

    # ------------------------------------------------------------------ matches
    async def start(self, player_id: str | None, start: StartPoint | None = None) -> None:
        """Start a match. ``start`` (a test hook, ``sefode.server.startpoint``): its seed, and actions already played;
        they are checked before anything is stored, and stored as the match's first actions (source ``start``)."""
        async with self.lock:
            if player_id is not None:
                self._require_owner(player_id)
            await self.start_locked(start)

    async def start_locked(self, start: StartPoint | None = None) -> None:
        """``start``'s work, the room's lock held (also the path of a rematch every voter accepted)."""
        self._require_between()
        for occupant in [s["player_id"] for s in self.seats if s.get("player_id")]:
            await self._unseat_refused(occupant)
        game = get_game(self.game_name)
        options = dict(self.options)
        if game.spec.seats_option is not None:
            options[game.spec.seats_option] = len(self.seats)
        seed = secrets.randbits(63) if start is None else start.seed
        try:
            state = game.new_match(options, seed, self._seat_setups(game, options, seed))
        except EngineError as err:
            raise ClientError(err.code, str(err)) from None
        occupants = [
            {"player_id": s["player_id"], "bot": None, "left": False}
            if s.get("player_id")
            else {"player_id": None, "bot": s.get("bot") or DEFAULT_LEVEL, "left": False}
            for s in self.seats
        ]
        match_id = secrets.token_hex(8)
        setup = game.history_setup(state)
        run = MatchRun(
            id=match_id,
            number=self.match_count + 1,
            game=game,
            state=state,
            seed=seed,
            options=game.options(state),
            setup=setup,
            seats=occupants,
        )
        run.awaiting = game.awaiting(state)
        run.seen = [0] * game.seats(state)
        run.own = [0] * game.seats(state)
        played = startpoint.play_into(run, start) if start is not None else []
        await self.hub.create_match(
            self,
            match_id,
            self.id,
            self.match_count + 1,
            game.name,
            run.options,
            seed,
            setup,
            occupants,
        )
        if played:
            fence = self.hub.fence(self.id)
            await asyncio.gather(
                *(
                    self.hub.write(add_action, match_id, i, seat, entry, ActionSource.START, fence=fence)
                    for i, (seat, entry) in enumerate(played)
                )
            )
        self.match_count += 1
        self.current_match = match_id
        self.rematch = None
        await self.save()  # when storing fails, the room goes back to what the store holds: no match starts
        self.match = run
        self.pause_votes.clear()
        self.paused_until = None
        self._reset_clock()
        metrics.MATCHES_STARTED.labels(game.name).inc()
        logs.event(
            "match.start",
            room=self.id,
            match=match_id,
            seed_hash=seed_hash(seed),
            seats=occupants,
            **({"start_actions": len(played)} if start is not None else {}),
        )
        self.send_room()
        self.send_state([])
        self._schedule()

    async def act(self, player_id: str, message: dict[str, Any], version: int) -> None:
        """A client's action, checked in the protocol's fixed order."""
        async with self.lock:
            run = self.match
            if run is None or run.over:
                raise ClientError("room/no_match", "no match is on in this room")
            seat = run.seat_of(player_id)
            joining = seat is None and message.get("join") is True and len(message) == 1
            if seat is None and not joining:
                raise ClientError("room/not_seated", "you have no seat in this match; spectators cannot act")
            if self.paused:
                raise ClientError("room/paused", "the match is paused")
            if seat in run.covering:
                raise ClientError("action/not_your_turn", "your clock ran out: the table plays this turn for you")
            current = run.version_for(seat)
            if version != current:
                raise ClientError(
                    "action/stale_state", f"this action was made against version {version}; it is now {current}"
                )
            game = run.game
            platform = _platform_key(message)
            if platform is not None:
                needed = {"leave": Capability.FORFEIT, "join": Capability.JOIN, "show": Capability.SHOW_HAND}[platform]
                if needed not in game.spec.capabilities:
                    what = {"leave": "leaving with a forfeit", "join": "late players", "show": "showing a hand"}
                    raise ClientError(f"action/no_{platform}", f"this game has no {what[platform]}")
            if joining:
                if any(s.get("player_id") == player_id for s in run.seats):
                    raise ClientError("action/already_left", "you left this match for good")
                await self.admit(player_id)
                seat = game.seats(run.state)
            assert seat is not None
            if platform is not None:
                await self._apply(seat, {platform: True}, ActionSource.HUMAN, player_id if joining else None)
                return
            try:
                action = game.parse_action(run.state, seat, message)
            except EngineError as err:
                raise ClientError(err.code, str(err)) from None
            # Turn actions of a seat that is not awaited are refused by the engine as action/not_your_turn.
            await self._apply(seat, action, ActionSource.HUMAN)

    async def _apply(
        self, seat: int, action: int | dict[str, Any], source: ActionSource, joiner: str | None = None
    ) -> None:
        """Apply, store, broadcast. The caller holds the lock; engine errors become ClientErrors.

        ``action`` is a game action, or a platform action in its JSON form (``{"leave": true}``...)."""
        run = self.match
        assert run is not None
        game = run.game
        began = time.perf_counter()
        before = game.seats(run.state)
        try:
            if isinstance(action, dict):
                label = next(iter(action))
                events = apply_entry(game, run.state, seat, action)
                entry = dict(action)
            else:
                label = _label(game, run.state, seat, action)
                events = game.apply(run.state, seat, action)
                entry = game.action_json(run.state, action)
        except EngineError as err:
            raise ClientError(err.code, str(err)) from None
        secret = run.secret(seat, events)
        events = with_played_for(events, seat, source)
        seats_changed = False
        if game.seats(run.state) > before:
            run.seats.append({"player_id": joiner, "bot": None if joiner else DEFAULT_LEVEL, "left": False})
            if joiner is not None and self.config_seat_of(joiner) is None and len(self.seats) < game.spec.max_seats:
                self.seats.append({"player_id": joiner, "bot": None})
                if game.spec.seats_option is not None:
                    self.options = {**self.options, game.spec.seats_option: len(self.seats)}
            seats_changed = True
        if seat < len(run.seats) and seat in game.stand_in_seats(run.state) and not run.seats[seat].get("left"):
            run.seats[seat]["left"] = True
            seats_changed = True
        outcome = run.final(run.stored + 1)  # the game's, or the guard's once this action reaches the longest match
        placements = list(outcome.placements) if outcome is not None else None
        try:
            await self.hub.write(
                add_action,
                run.id,
                run.stored,
                seat,
                entry,
                source,
                run.seats if seats_changed else None,
                outcome.to_json() if outcome is not None else None,
                fence=self.hub.fence(self.id),
            )
        except FencedOut:  # our lease ran out (paused, partitioned): another node owns the room now
            await self.hub.fenced_out(self)
            raise ClientError("server/moved", "this room moved to another server; joining it there") from None
        except Exception as err:
            logs.error("store.action_failed", err, room=self.id, match=run.id, version=run.stored)
            await self._reload()
            raise ClientError("server/error", "the action could not be stored; the match was reloaded") from None
        if not secret:
            run.record(events)
        started = run.advance(seat, secret)
        self._start_clocks(started)
        logs.event(
            "match.action", room=self.id, match=run.id, version=run.stored, seat=seat, source=source, action=label
        )
        if seats_changed:
            await self.save()
            self.send_room()
        if secret:
            self.send_seat_state(seat, events)
        else:
            self.send_state(events)
        metrics.ACTIONS.labels(game.name, source.value).inc()
        metrics.ACTION_UPDATE.labels(game.name).observe(time.perf_counter() - began)
        if placements is not None:
            metrics.MATCHES_ENDED.labels(game.name).inc()
            await self._finish(run, placements)
        self._schedule()

    async def _finish(self, run: MatchRun, placements: list[int]) -> None:
        try:
            await self.hub.db(record_match_end, self.hub.store.engine, run.id)  # medals, tournaments (issue 5)
        except Exception as err:  # awarding must never stop a match from ending (Hub.open recovers it later)
            logs.error("match.awarding_failed", err, room=self.id, match=run.id)
        url = f"/api/matches/{run.id}/history"
        final = run.final()
        outcome = final.to_json() if final is not None else None
        no_winner = bool(final and final.no_winner)
        guard = run.guard()
        if guard is not None:
            logs.event("match.guard", room=self.id, match=run.id, reason=guard)
        self.last_match = {
            "id": run.id,
            "number": run.number,
            "placements": placements,
            "no_winner": no_winner,
            "outcome": outcome,
            "history_url": url,
        }
        self.current_match = None
        self.pause_votes.clear()
        self.paused_until = None
        await rematch.offer(self, run)
        await self.save()
        logs.event("match.end", room=self.id, match=run.id, placements=placements, no_winner=no_winner)
        self.broadcast(
            {
                "type": "match_end",
                "match_id": run.id,
                "placements": placements,
                "no_winner": no_winner,
                "outcome": outcome,
                "history_url": url,
            }
        )
        self.send_room()

    async def _reload(self) -> None:
        run = self.match
        if run is None:
            return
        stored = await self.hub.db(self.hub.store.load_match, run.id)
        if stored is not None:
            self.restore_match(stored)
            self.send_state([])

    # ------------------------------------------------------------------ chat and pause
    async def chat(self, player_id: str, text: str) -> None:
        """Store the message with the room (the last ``CHAT_KEPT``), then send it to everyone in the room."""
        self.hub.refuse_muted(player_id)
        async with self.lock:
            self.chat_count += 1
            message = {
                "type": "chat",
                "id": self.chat_count,
                "from": {
                    "player_id": player_id,
                    "name": self.hub.names.get(player_id),
                    "bot": player_id in self.hub.bot_players,
                },
                "text": text,
                "at": logs.now_ms(),
            }
            self.chat_log.append(message)
            del self.chat_log[:-CHAT_KEPT]
            await self.save()
            self.broadcast_from(player_id, message)

    def pause_voters(self) -> set[str]:
        run = self.match
        if run is None or run.over:
            return set()
        status = run.game.seat_status(run.state)
        voters = set()
        for i, s in enumerate(run.seats):
            pid = s.get("player_id")
            if not pid or s.get("left") or i >= len(status) or status[i] is not SeatStatus.PLAYING:
                continue
            voters.add(pid)
        return voters

    async def pause(self, player_id: str, vote: bool) -> None:
        async with self.lock:
            if not self.playing:
                raise ClientError("room/no_match", "no match is on in this room")
            if player_id not in self.pause_voters():
                raise ClientError("pause/not_allowed", "only seated players still in the match may vote a pause")
            if vote:
                self.pause_votes.add(player_id)
            else:
                self.pause_votes.discard(player_id)
            was_paused = self.paused
            self._check_pause()
            self.send_room()
            if self.paused != was_paused:
                self.send_state([])  # the clock's deadline stopped or started again
            self._schedule()

    def _check_pause(self) -> None:
        voters = self.pause_voters()
        self.pause_votes &= voters
        majority = len(self.pause_votes) > len(voters) / 2 if voters else False
        if majority and not self.paused:
            self.paused_until = time.monotonic() + self.hub.pause_limit_s
            if self.match is not None:
                self.match.deadlines.clear()
            logs.event("room.pause", room=self.id, votes=sorted(self.pause_votes))
        elif not majority and self.paused:
            self._unpause()

    def _unpause(self) -> None:
        self.paused_until = None
        self.pause_votes.clear()
        self._reset_clock()
        logs.event("room.resume", room=self.id)

    # ------------------------------------------------------------------ clocks and bots
    @property
    def clock_length_s(self) -> float:
        """How long (real seconds) a seat's turn clock runs: the room's ``clock_s``, scaled by the hub's clock unit."""
        return self.clock_s * self.hub.clock_unit_s

    def _reset_clock(self) -> None:
        """Every awaited seat's clock starts again (a match starts or is rebuilt, a pause ends)."""
        run = self.match
        if run is None:
            return
        run.turn_started.clear()
        run.deadlines.clear()
        self._start_clocks(set(run.game.awaiting(run.state)))

    def _start_clocks(self, seats: set[int]) -> None:
        run = self.match
        if run is None or run.over:
            return
        now, now_ms = time.monotonic(), logs.now_ms()
        for seat in seats:
            run.turn_started[seat] = now
            if self.paused:
                run.deadlines.pop(seat, None)
            else:
                run.deadlines[seat] = now_ms + round(self.clock_length_s * 1000)

    def _bot_turn_due(self, run: MatchRun, seat: int) -> tuple[float, ActionSource] | None:
        """When (monotonic) and why a bot plays ``seat``'s turn."""
        hub = self.hub
        occ = run.seats[seat] if seat < len(run.seats) else {"bot": DEFAULT_LEVEL}
        now = time.monotonic()
        if occ.get("bot") or occ.get("left") or seat in run.game.stand_in_seats(run.state):
            return now + hub.bot_delay_s, ActionSource.BOT
        started = run.turn_started.get(seat, now)
        pid = occ.get("player_id")
        if pid not in self.connected_players():
            since = self.disconnected_at.get(pid or "", started)
            return max(now + hub.bot_delay_s, since + hub.disconnect_grace_s), ActionSource.ABSENT
        if seat in run.covering:  # its clock ran out: the bot finishes this seat's turn
            return now + hub.bot_delay_s, ActionSource.CLOCK
        return started + self.clock_length_s, ActionSource.CLOCK

    def _schedule(self) -> None:
        """(Re)arm the room's one timer: the next bot turn, clock run-out or pause end."""
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        if self._timer is not None and not self._timer.done() and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        run = self.match
        if self.paused_until is not None:
            self._arm(self.paused_until, None, None)
            return
        if run is None or run.over:
            return
        best: tuple[float, int, ActionSource] | None = None
        for seat in sorted(run.game.awaiting(run.state)):
            due = self._bot_turn_due(run, seat)
            if due is not None and (best is None or due[0] < best[0]):
                best = (due[0], seat, due[1])
        if best is not None:
            self._arm(best[0], best[1], best[2])

    def _arm(self, at: float, seat: int | None, reason: ActionSource | None) -> None:
        """Wake at ``at`` (monotonic): a bot plays ``seat`` (for ``reason``), or (no seat) the pause ends."""
        loop = asyncio.get_running_loop()
        self._alarm = loop.call_later(max(0.0, at - time.monotonic()), self._ring, at, seat, reason)

    def _ring(self, at: float, seat: int | None, reason: ActionSource | None) -> None:
        self._alarm = None
        self._timer = asyncio.create_task(self._wake(at, seat, reason))

    async def _wake(self, at: float, seat: int | None, reason: ActionSource | None) -> None:
        try:
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            if seat is None or reason is None:
                async with self.lock:
                    if self.paused_until is not None and time.monotonic() >= self.paused_until - 0.01:
                        self._unpause()
                        self.send_room()
                        self.send_state([])
                        self._schedule()
                return
            await self._bot_play(seat, reason)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # never let a timer die silently
            logs.error("room.timer_failed", err, room=self.id, seat=seat, reason=reason)

    def _player_for(self, run: MatchRun, seat: int) -> Player:
        occ = run.seats[seat] if seat < len(run.seats) else {}
        level = occ.get("bot") or DEFAULT_LEVEL
        key = (seat, level)
        if key not in run.bots:
            kind = level if level in player_kinds() else "random"
            run.bots[key] = make_player(kind, secrets.randbits(32), self.hub.bot_think_ms)
        return run.bots[key]

    async def _bot_play(self, seat: int, reason: ActionSource) -> None:
        async with self.lock:
            run = self.match
            if run is None or run.over or self.paused or seat not in run.game.awaiting(run.state):
                return
            if reason is ActionSource.CLOCK:
                run.covering.add(seat)
            version = run.stored
            player = self._player_for(run, seat)
            state = run.game.clone(run.state)
        try:
            with metrics.BOT_DECISION.labels(run.game.name, player.kind).time():
                action = await self.hub.decide(player, run.game, state, seat)
        except Exception as err:  # a broken bot must not stall the table: play the first legal action
            logs.error("bot.failed", err, room=self.id, match=run.id, seat=seat, kind=player.kind)
            legal = run.game.legal_actions(state, seat)
            if not legal:
                return
            action = legal[0]
        async with self.lock:
            if self.match is not run or run.stored != version or self.paused:
                self._schedule()
                return
            try:
                await self._apply(seat, action, reason)
            except ClientError as err:
                logs.error("bot.illegal", None, room=self.id, seat=seat, code=err.code, cause=err.message)
                fallback = run.game.legal_actions(run.state, seat)
                if fallback and run.stored == version:
                    await self._apply(seat, fallback[0], reason)

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
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def _platform_key(message: dict[str, Any]) -> str | None:
    """``"leave"``, ``"join"`` or ``"show"`` when ``message`` is that platform action, else None."""
    keys = [k for k in message if k != "seat"]
    if len(keys) == 1 and keys[0] in PLATFORM_ACTIONS and message[keys[0]] is True:
        return str(keys[0])
    return None


def _label(game: Game[Any], state: Any, seat: int, action: int) -> str:
    """The action's readable label for the logs; never fails (the engine has not checked the action yet)."""
    try:
        return str(game.describe_action(state, seat, action).get("text", ""))
    except Exception:
        return str(action)
