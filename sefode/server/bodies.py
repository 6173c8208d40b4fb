"""The bodies of the server's HTTP routes (``sefode.server.routes``), typed: the routes decode requests through them
(``sefode.wire.decode``) and ``sefode.server.openapi`` derives the document from them. What a value means (a name
under the text rule, a game's options, the bots a game allows) is still checked by the route."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from msgspec import UNSET, Meta, Struct, UnsetType, field

from sefode.server.messages import LEVELS
from sefode.text import NAME_MAX, PASSWORD_MAX, ROOM_NAME_MAX, must_be_text
from sefode.wire import Answer, Body, Refusal


def text_field(lo: int, hi: int, description: str = "NFC text, no control characters (the text rule)") -> Meta:
    """A string under the text rule (``sefode.text``): its length is checked after normalisation, by the rule."""
    return Meta(extra_json_schema={"minLength": lo, "maxLength": hi, "description": description})


Name = Annotated[str, text_field(1, NAME_MAX)]
Level = Annotated[str, Meta(extra_json_schema={"enum": list(LEVELS)})]
Clock = Annotated[int, Meta(ge=5, le=300, description="seconds on each seat's clock")]
_INVALID = "message/invalid"
_CLOCK = Refusal(_INVALID, "'clock_s' must be a whole number of seconds from 5 to 300")


class SessionBody(Body):
    """Start a guest session, or rename the current one."""

    name: Name
    refusals: ClassVar[Mapping[str, Refusal]] = {"name": Refusal(_INVALID, must_be_text("name", 1, NAME_MAX))}


class RoomBody(Body):
    """A new room."""

    name: Annotated[str, text_field(1, ROOM_NAME_MAX)] = "Mesa"
    game: Annotated[str, Meta(max_length=64)] | UnsetType = UNSET
    options: dict[str, Any] = field(default_factory=dict)
    bots: dict[str, Level] | None = None
    clock_s: Clock = 30
    visibility: Literal["public", "password", "invite"] = "public"
    password: Annotated[str, text_field(1, PASSWORD_MAX, "a password room's password")] | None = None
    sit: bool = True
    tournament: Annotated[Literal[3, 5], Meta(description="the number of matches of a tournament")] | None = None
    outside_bots: Annotated[bool, Meta(description="bot accounts may sit (sefode.accounts.bots)")] = False
    refusals: ClassVar[Mapping[str, Refusal]] = {
        "name": Refusal(_INVALID, must_be_text("name", 1, ROOM_NAME_MAX)),
        "game": Refusal(_INVALID, "'game' must be the name of a game"),
        "options": Refusal(_INVALID, "'options' must be a JSON object"),
        "bots": Refusal(_INVALID, "'bots' must map seats to levels"),
        "clock_s": _CLOCK,
        "visibility": Refusal(_INVALID, "'visibility' is public, password or invite"),
        "password": Refusal(_INVALID, must_be_text("password", 1, PASSWORD_MAX)),
        "sit": Refusal(_INVALID, "'sit' must be true or false"),
        "tournament": Refusal(_INVALID, "'tournament' is the number of matches of the series: 3 or 5"),
        "outside_bots": Refusal(_INVALID, "'outside_bots' must be true or false"),
    }


StartHook = Annotated[
    dict[str, Any],
    Meta(
        description="test hook, only on a server started with SEFODE_TEST_HOOKS=1 (else start/disabled): the match "
        "starts from this seed with these [seat, action] pairs already played (sefode.server.startpoint checks it)",
        extra_json_schema={"properties": {"seed": {"type": "integer"}, "actions": {"type": "array"}}},
    ),
]


class SoloBody(Body, forbid_unknown_fields=False):
    """A solo table. A game's option may also be given at the top level (``variant``, as protocol 1 had it)."""

    game: str | UnsetType = UNSET
    options: dict[str, Any] = field(default_factory=dict)
    variant: str | UnsetType = UNSET
    bots: Annotated[int, Meta(extra_json_schema={"minimum": 1, "maximum": 7})] | UnsetType = UNSET
    level: Level | UnsetType = UNSET
    teams: bool | UnsetType = UNSET
    clock_s: Clock = 60
    start: StartHook | UnsetType = UNSET
    refusals: ClassVar[Mapping[str, Refusal]] = {
        "game": Refusal("game/unknown", "'game' must be the name of a game"),
        "options": Refusal(_INVALID, "'options' must be a JSON object"),
        "bots": Refusal(_INVALID, "'bots' must be a whole number of bots"),
        "level": Refusal(_INVALID, "'level' must be a bot level"),
        "clock_s": _CLOCK,
    }


class KeptValue(Body):
    """What a game keeps for a player under a key, as the game checks it."""

    value: Any
    refusals: ClassVar[Mapping[str, Refusal]] = {"value": Refusal(_INVALID, 'the body is {"value": ...}')}


# ---------------------------------------------------------------------------------------------- answers


class ErrorDetail(Struct):
    code: str
    message: str


class Error(Struct):
    """Every refusal: a 4xx whose code says why (docs/protocol.md)."""

    error: ErrorDetail


class Health(Answer):
    """The server is up; in cluster mode also which node answered, the rooms it owns and whether it drains."""

    ok: bool
    protocol: int
    rooms: int
    connections: int
    node: str | UnsetType = UNSET
    owned: list[str] | UnsetType = UNSET
    draining: bool | UnsetType = UNSET
    cluster: Annotated[Any, Meta(description="every live node's presence (?cluster=1)")] | UnsetType = UNSET


class Session(Answer):
    token: str
    player_id: str
    name: str


class Me(Answer):
    """Who a session is."""

    player_id: str
    name: str


class SeatPreview(Answer):
    """Who holds a seat, for a visitor's preview (no player ids): a player's name, a bot's level, or neither."""

    seat: int
    name: str | None
    bot: str | None
    bot_account: bool


class RoomSummary(Answer):
    """A room's line in the lobby (``sefode.server.present.summary``)."""

    id: str
    name: str
    game: str
    variant: Any
    options: dict[str, Any]
    seats: int
    seats_taken: int
    bots: int
    playing: bool
    visibility: Literal["public", "password", "invite"]
    spectators: int
    connected: int
    seat_list: list[SeatPreview] | UnsetType = UNSET


class Lobby(Answer):
    """A page of the lobby."""

    rooms: list[RoomSummary]
    total: int
    offset: int
    limit: int
    next: int | None


class NewRoom(Answer):
    room_id: str
    invite_token: str


class RoomRef(Answer):
    room_id: str


class Coach(Answer):
    """The solo coach's view of the caller's decisions (``sefode.analysis``)."""

    seat: int
    since: int
    until: int | None
    decisions: list[dict[str, Any]]
    highlights: list[int]


class Analysis(Answer):
    """The progress or result of a finished match's move analysis for one seat."""

    status: Literal["running", "done", "failed"]
    done: int
    total: int
    analysis: dict[str, Any] | UnsetType = UNSET
    error: str | UnsetType = UNSET


class Variant(Answer):
    id: str
    title: str
    rules: str


class GameInfo(Answer):
    """A registered game's spec (``GameSpec.to_json``) and where its browser module and catalogues are served."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    seats_option: str | None
    turns: str
    information: str
    capabilities: list[str]
    bot_levels: list[str]
    options: list[dict[str, Any]]
    variants: list[Variant]
    rules: list[str]
    summary: list[str]
    view_schema: dict[str, Any] | None
    client: str | None
    i18n: dict[str, str] | None


class Games(Answer):
    games: list[GameInfo]


class KeptItem(Answer):
    key: str
    value: Any
    updated_at: int


class KeptItems(Answer):
    items: list[KeptItem]


class Kept(Answer):
    key: str
    value: Any


class Deleted(Answer):
    deleted: str


class HistorySeat(Answer):
    """Who held a seat of a finished match: a human (never named), one of the table's bots (its level) or a bot
    account (its id and name)."""

    seat: int
    kind: Literal["human", "bot", "bot_account"]
    player_id: str | UnsetType = UNSET
    name: str | UnsetType | None = UNSET
    level: str | UnsetType | None = UNSET


class History(Struct, kw_only=True):
    """A finished match's history (``sefode-history/1``, docs/protocol.md). Besides these keys it holds what the game
    deals the match from (its setup: they differ by game), so the route checks its answer through this type and
    sends the history itself."""

    format: str
    game: str
    options: dict[str, Any]
    seed: int | UnsetType = UNSET
    actions: list[Any]
    result: dict[str, Any] | UnsetType = UNSET
    seats: list[HistorySeat]


class Replay(Struct, kw_only=True):
    """A finished match replayed by the engine: its history and ``sefode replay``'s result (every hand open)."""

    history: History
    replay: dict[str, Any]
