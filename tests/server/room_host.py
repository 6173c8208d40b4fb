"""A room's host that is not the hub (``sefode.server.host.RoomHost``): settings, names and an in-memory store.

It holds exactly the protocol's members and nothing more, so a room run against it shows what a room needs from
outside: a room that reached beyond the protocol (the hub's store, workers or placement) would find nothing here.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any, cast

from sefode.bots.base import Player, Seen
from sefode.engine import Game
from sefode.server.host import RoomHost
from sefode.server.messages import ClientError
from sefode.server.record import ActionSource, MatchSeat, RoomSeat, seats_json
from sefode.store.db import StoredMatch
from sefode.store.seats import StoredSeat, stored_seats


def _stored(value: Any) -> Any:
    """What a JSON column gives back: a copy through JSON text."""
    return json.loads(json.dumps(value))


def _seats(seats: Sequence[MatchSeat]) -> list[StoredSeat]:
    """Seats as the store keeps and reads them back (``sefode.store.seats``)."""
    return stored_seats(_stored(seats_json(seats)))


class FakeHost:
    """The host of rooms in a test: every call it gets is what a room needs (``RoomHost``), kept in memory."""

    def __init__(self, names: dict[str, str] | None = None) -> None:
        self._names: dict[str, str] = dict(names or {})
        self._bot_players: set[str] = set()
        self._blocks: set[tuple[str, str]] = set()
        self._muted: set[str] = set()
        self.rooms: dict[str, dict[str, Any]] = {}
        """Room id: its stored record, visibility and invite (as the store's ``rooms`` row holds them)."""
        self.matches: dict[str, StoredMatch] = {}
        self.ended: list[str] = []
        """The matches the host was told ended, in order."""
        self.emptied: list[tuple[str, list[dict[str, Any]]]] = []
        self.decisions = 0

    # ------------------------------------------------------------------ timing settings
    @property
    def bot_delay_s(self) -> float:
        return 0.0

    @property
    def disconnect_grace_s(self) -> float:
        return 0.0

    @property
    def bot_think_ms(self) -> float:
        return 5.0

    @property
    def pause_limit_s(self) -> float:
        return 60.0

    @property
    def clock_unit_s(self) -> float:
        return 1.0

    # ------------------------------------------------------------------ players
    @property
    def names(self) -> dict[str, str]:
        return self._names

    @property
    def bot_players(self) -> set[str]:
        return self._bot_players

    async def is_bot_account(self, player_id: str) -> bool:
        return player_id in self._bot_players

    def is_blocked(self, blocker: str | None, player_id: str | None) -> bool:
        return (blocker or "", player_id or "") in self._blocks

    def refuse_muted(self, player_id: str) -> None:
        if player_id in self._muted:
            raise ClientError("chat/muted", "muted")

    # ------------------------------------------------------------------ the store
    async def save_room(self, room_id: str, data: dict[str, Any], visibility: str, invite_token: str) -> None:
        self.rooms[room_id] = {"data": _stored(data), "visibility": visibility, "invite": invite_token}

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
        self.matches[match_id] = StoredMatch(
            match_id, room_id, number, game, _stored(options), seed, _stored(setup), _seats(seats), None, None, []
        )

    async def store_match_seats(self, room_id: str, match_id: str, seats: Sequence[MatchSeat]) -> None:
        self.matches[match_id] = dataclasses.replace(self.matches[match_id], seats=_seats(seats))

    async def store_actions(
        self, room_id: str, match_id: str, actions: Sequence[tuple[int, dict[str, Any]]], source: ActionSource
    ) -> None:
        for seat, entry in actions:
            self.matches[match_id].actions.append((seat, _stored(entry), str(source)))

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
        match = self.matches[match_id]
        assert index == len(match.actions), "actions are stored in order, each once"
        match.actions.append((seat, _stored(entry), str(source)))
        if seats is not None:
            match = dataclasses.replace(match, seats=_seats(seats))
        if outcome is not None:
            placements = list(outcome["placements"])
            match = dataclasses.replace(match, outcome=_stored(outcome), placements=placements, ended_at=1)
        self.matches[match_id] = match

    async def fenced_out(self, room_id: str) -> None:
        raise AssertionError("a single host never fences a room out")

    async def load_match(self, match_id: str) -> StoredMatch | None:
        return self.matches.get(match_id)

    # ------------------------------------------------------------------ awards
    async def match_ended(self, match_id: str) -> None:
        self.ended.append(match_id)

    async def room_emptied(self, room_id: str, seats: Sequence[RoomSeat]) -> None:
        self.emptied.append((room_id, seats_json(seats)))

    async def tournament_on(self, room_id: str) -> bool:
        return False

    # ------------------------------------------------------------------ bots
    async def decide(self, player: Player, game: Game[Any], state: Any, seat: int) -> int:
        self.decisions += 1
        return player.choose(Seen(game, state, seat))


MEMBERS = frozenset(name for name in vars(RoomHost) if not name.startswith("_"))
"""Every member of the protocol: what a room may ask of its host."""


class OnlyTheProtocol:
    """A host seen through ``RoomHost`` alone: a member the protocol does not name is refused, and noted in
    ``beyond`` (a room's timer would log the refusal and go on; the test reads ``beyond``)."""

    def __init__(self, host: FakeHost) -> None:
        self._host = host
        self.beyond: list[str] = []

    def __getattr__(self, name: str) -> Any:
        if name not in MEMBERS:
            self.beyond.append(name)
            raise AttributeError(f"the room asked its host for {name!r}, which RoomHost does not name")
        return getattr(self._host, name)

    def host(self) -> RoomHost:
        """This view, typed as the protocol (its members are the host's, checked by ``_typed`` below)."""
        return cast("RoomHost", self)


def _typed() -> RoomHost:
    """The type checker's proof that ``FakeHost`` is a ``RoomHost`` (as ``Room(self, ...)`` in the hub is the
    proof for ``Hub``)."""
    host: RoomHost = FakeHost()
    return host
