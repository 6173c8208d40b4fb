"""A room's stored record: its fields declared once, with their types; storing and restoring derive from them.

``RoomRecord`` is what the store keeps of a room (the ``rooms.data`` JSON column). ``Room`` extends it with what
lives only in memory (connections, the match on, clocks), so every stored field is an attribute of the room, typed.
``record_json`` and ``load_record`` go through ``dataclasses.fields(RoomRecord)``: a field added to the record is
stored and restored without being listed anywhere else. The stored format is the one rooms had before the record:
the same keys (``key`` in a field's metadata names the two whose key differs from the attribute), and what older
rows hold (a missing key, a null where there is a default) reads as the default.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import StrEnum
from typing import Any

import msgspec

from sefode.server import logs
from sefode.store.seats import StoredSeat

CHAT_KEPT = 50
"""Chat messages kept with a room and sent again to whoever (re)enters it."""


class Visibility(StrEnum):
    """Who finds a room: listed in the lobby (``public``, ``password``: joining needs it) or not (``invite``)."""

    PUBLIC = "public"
    PASSWORD = "password"
    INVITE = "invite"


class RoomStatus(StrEnum):
    """The ``status`` of the ``room`` message."""

    WAITING = "waiting"
    PLAYING = "playing"
    PAUSED = "paused"


class ActionSource(StrEnum):
    """Who made a match action (stored with it, and in the logs): its seat's player, the table's bot for a bot seat,
    the table's bot because the seat's clock ran out, or because its player is away; or a test's start point
    (``sefode.server.startpoint``: actions applied before the match was shown, only with the test hook on)."""

    HUMAN = "human"
    BOT = "bot"
    CLOCK = "clock"
    ABSENT = "absent"
    START = "start"


class BotLevel(StrEnum):
    """The levels of a table's own bot (``set_seat``, a new room's ``bots``, a solo table): the only levels a seat
    has ever held. A game's ``GameSpec.bot_levels`` names which of them its solo tables offer."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


DEFAULT_LEVEL = BotLevel.NORMAL
"""The level of a seat's bot when none is named (a free seat at the start of a match, a late seat)."""


def _now_ms() -> int:
    return logs.now_ms()


@dataclasses.dataclass(slots=True)
class RoomSeat:
    """A seat of the room between matches: a person (``player_id``), the table's bot of a level (``bot``), or free
    (neither). Stored as ``{"player_id", "bot"}``, derived from the fields (``to_json``, ``from_json``)."""

    player_id: str | None = None
    bot: BotLevel | None = None

    @property
    def taken(self) -> bool:
        """Held by a person or a bot."""
        return bool(self.player_id or self.bot)

    def to_json(self) -> dict[str, Any]:
        result: dict[str, Any] = msgspec.to_builtins(self)
        return result

    @classmethod
    def from_json(cls, data: Any) -> RoomSeat:
        return msgspec.convert(data, cls)


@dataclasses.dataclass(slots=True)
class MatchSeat:
    """A seat of a match: its player (``player_id``) or the table's bot of a level (``bot``), and whether its
    player left the match for good (``left``: the table's bot plays it from then on, their seat in the room stays).
    Stored with the match (``matches.seats``) as ``{"player_id", "bot", "left"}``, derived from the fields."""

    player_id: str | None = None
    bot: BotLevel | None = None
    left: bool = False

    @property
    def playing(self) -> str | None:
        """The player still playing this seat: its player unless they left (None for a bot's seat)."""
        return self.player_id if self.player_id and not self.left else None

    def to_json(self) -> dict[str, Any]:
        result: dict[str, Any] = msgspec.to_builtins(self)
        return result

    @classmethod
    def from_json(cls, data: Any) -> MatchSeat:
        return msgspec.convert(data, cls)


def seats_json(seats: typing.Sequence[RoomSeat | MatchSeat]) -> list[dict[str, Any]]:
    """Seats in their stored (and logged) form: plain JSON, sharing nothing with them."""
    return [seat.to_json() for seat in seats]


def match_seats(data: typing.Iterable[StoredSeat]) -> list[MatchSeat]:
    """A stored match's seats (``StoredMatch.seats``) as the match on holds them."""
    return [MatchSeat.from_json(msgspec.to_builtins(seat)) for seat in data]


@dataclasses.dataclass(eq=False)
class RoomRecord:
    """The stored fields of a room (compared by identity: a ``Room`` is one)."""

    name: str
    game_name: str = dataclasses.field(metadata={"key": "game"})
    options: dict[str, Any]
    owner: str
    visibility: Visibility
    clock_s: int
    seats: list[RoomSeat]
    """Per seat between matches: a person, a table's bot of a level, or free (stored as ``{"player_id", "bot"}``)."""
    password_hash: str | None = None
    teams: list[dict[str, Any]] | None = None
    match_count: int = 0
    current_match: str | None = None
    last_match: dict[str, Any] | None = None
    created_at: int = dataclasses.field(default_factory=_now_ms)
    chat_log: list[dict[str, Any]] = dataclasses.field(default_factory=list, metadata={"key": "chat"})
    """The last ``CHAT_KEPT`` chat messages, oldest first."""
    chat_count: int = 0
    """Chat messages sent in the room so far (the next one's ``id``)."""
    seat_setup: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Per player: their secret choice for the next match (capability ``seat_setup``); never sent to others."""
    outside_bots: bool = False
    """Whether bot accounts (``sefode.accounts.bots``) may sit; the owner chooses when creating the room."""
    kicked: list[str] = dataclasses.field(default_factory=list)
    """Players a moderator removed from this room (``room/kicked``): they neither sit nor watch here again, after a
    restart too."""
    rematch: dict[str, Any] | None = None
    """The rematch vote of the match that ended last (``sefode.server.rematch``): ``{"match", "voters", "accepted",
    "declined", "tournament"}``; None while a match is on or before the first one ends."""

    def __post_init__(self) -> None:
        del self.chat_log[:-CHAT_KEPT]
        self.chat_count = max(self.chat_count, len(self.chat_log))


FIELDS = tuple(dataclasses.fields(RoomRecord))
_KEYS = {f.name: f.metadata.get("key", f.name) for f in FIELDS}
_HINTS = typing.get_type_hints(RoomRecord)
_NULL_IS_DEFAULT = frozenset(
    _KEYS[f.name]
    for f in FIELDS
    if (f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING)
    and not (isinstance(_HINTS[f.name], types.UnionType) and type(None) in typing.get_args(_HINTS[f.name]))
)
"""Stored keys whose null (in rows written before the field was always set) reads as the field's default."""


def record_json(record: RoomRecord) -> dict[str, Any]:
    """The stored form of ``record`` (or of a ``Room``): plain JSON, sharing nothing with the room."""
    return {_KEYS[f.name]: msgspec.to_builtins(getattr(record, f.name)) for f in FIELDS}


def load_record(data: dict[str, Any]) -> RoomRecord:
    """A stored room's record, checked against the fields' types (``msgspec.ValidationError`` when it does not fit).
    Keys the record does not know are left aside (a newer server may store more)."""
    by_name = {name: data[key] for name, key in _KEYS.items() if key in data}
    for name, key in _KEYS.items():
        if key in _NULL_IS_DEFAULT and by_name.get(name, 0) is None:
            del by_name[name]
    return msgspec.convert(by_name, RoomRecord, from_attributes=False)


def copy_record(source: RoomRecord, target: RoomRecord) -> None:
    """Give ``target`` (a ``Room``) every stored field of ``source``."""
    for f in FIELDS:
        setattr(target, f.name, getattr(source, f.name))
