"""What a room and its parts need from outside: one narrow protocol, ``RoomHost``.

A room (``sefode.server.room``) and its parts (seating, the match driver, the clock, the presenters, the rematch
vote, the reactions) reach the rest of the server only through this protocol: never the hub, its store, its workers
or its placement. The hub (``sefode.server.hub.Hub``) implements it; a test can run a whole match against a host of
its own (``tests/server/test_room_host.py``). ``pyproject.toml`` holds the contract: the room's modules import
neither ``sefode.server.hub`` nor ``sefode.server.cluster``.

The host's members, grouped:

- timing settings, read each time they are needed;
- players: names, which players are bot accounts, blocks and mutes;
- the store: the room's own records, each write fenced for the node that holds the room (``FencedOut`` or
  ``server/moved`` when this node no longer does, see each method);
- awards: what the room tells the awards when a match ends or its last human stands up, and asks of them;
- bots: a bot's decision, off the event loop.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sefode.bots.base import Player
    from sefode.engine import Game
    from sefode.server.record import ActionSource, MatchSeat, RoomSeat
    from sefode.store.db import StoredMatch


class RoomHost(Protocol):
    """Everything a room and its parts ask of the server around them (the hub, or a test's own host)."""

    # ------------------------------------------------------------------ timing settings
    @property
    def bot_delay_s(self) -> float:
        """How long the table's bot waits before it plays a turn."""
        ...

    @property
    def disconnect_grace_s(self) -> float:
        """How long a player who lost their connection keeps their turn before the table's bot plays it."""
        ...

    @property
    def bot_think_ms(self) -> float:
        """How long a table's bot may think over a decision."""
        ...

    @property
    def pause_limit_s(self) -> float:
        """The longest a pause lasts."""
        ...

    @property
    def clock_unit_s(self) -> float:
        """Real seconds per second of a room's turn clock (``clock_s``): 1 but in tests."""
        ...

    # ------------------------------------------------------------------ players
    @property
    def names(self) -> Mapping[str, str]:
        """Players' names by id (the ``room`` message, chat)."""
        ...

    @property
    def bot_players(self) -> Container[str]:
        """The bot accounts known here (marked as bots; never rematch voters)."""
        ...

    async def is_bot_account(self, player_id: str) -> bool:
        """Whether ``player_id`` is a bot account, asking the store about an id not seen before."""
        ...

    def is_blocked(self, blocker: str | None, player_id: str | None) -> bool:
        """Whether ``blocker`` blocked ``player_id``."""
        ...

    def refuse_muted(self, player_id: str) -> None:
        """Raise ``ClientError("chat/muted")`` when a moderator muted ``player_id``."""
        ...

    # ------------------------------------------------------------------ the store
    async def save_room(self, room_id: str, data: dict[str, Any], visibility: str, invite_token: str) -> None:
        """Store the room's record (``record_json``). Fenced out: the room is let go and ``server/moved`` raised."""
        ...

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
        """Store a new match. Fenced out: the room is let go and ``server/moved`` raised."""
        ...

    async def store_match_seats(self, room_id: str, match_id: str, seats: Sequence[MatchSeat]) -> None:
        """Store the match's seats (one left). Fenced out: the room is let go and ``server/moved`` raised."""
        ...

    async def store_actions(
        self, room_id: str, match_id: str, actions: Sequence[tuple[int, dict[str, Any]]], source: ActionSource
    ) -> None:
        """Store a new match's first actions (a start point's, index 0 on), group-committed under one fence;
        ``FencedOut`` when this node may no longer write for the room."""
        ...

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
        """Store one accepted action (with the match's seats when they changed, its outcome when it ended),
        group-committed; returns once committed. ``FencedOut`` when this node may no longer write for the room."""
        ...

    async def fenced_out(self, room_id: str) -> None:
        """A write for the room was fenced out: this node lets the room go (another one holds it now)."""
        ...

    async def load_match(self, match_id: str) -> StoredMatch | None:
        """A stored match, its actions included (to rebuild the match on)."""
        ...

    # ------------------------------------------------------------------ awards
    async def match_ended(self, match_id: str) -> None:
        """A match ended (its outcome stored): medals, tournaments, ratings. May raise; the room goes on."""
        ...

    async def room_emptied(self, room_id: str, seats: Sequence[RoomSeat]) -> None:
        """A human left a seat of the room: when none is left, the room's tournament ends. May raise."""
        ...

    async def tournament_on(self, room_id: str) -> bool:
        """Whether the room plays a tournament now (its matches get no rematch vote). May raise."""
        ...

    # ------------------------------------------------------------------ bots
    async def decide(self, player: Player, game: Game[Any], state: Any, seat: int) -> int:
        """A bot's decision for ``seat``, off the event loop (``state`` is a clone the host may keep)."""
        ...
