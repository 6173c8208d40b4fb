"""The bodies the account and moderation routes take and give (``sefode.server.routes.accounts``,
``sefode.server.routes.moderation``), typed: the routes decode them through these types (``sefode.wire.decode``) and
``sefode.server.openapi`` derives the document from them. A field of the wrong JSON type is refused with the code the
route's own check gives; keys they do not know are ignored, as these routes always did (a client may send a form's
other fields)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from msgspec import Meta, field

from sefode.accounts.moderation import MAX_MINUTES, MAX_NOTE, MAX_REASON
from sefode.accounts.service import MAX_PASSWORD, MIN_PASSWORD
from sefode.text import NAME_MAX
from sefode.wire import Answer, Body, Refusal

Name = Annotated[str, Meta(extra_json_schema={"minLength": 1, "maxLength": NAME_MAX, "description": "NFC text"})]
Id = Annotated[str, Meta(extra_json_schema={"maxLength": 32})]
Reason = Annotated[
    str,
    Meta(extra_json_schema={"minLength": 1, "maxLength": MAX_REASON, "description": "why (kept in the audit list)"}),
]
Minutes = Annotated[
    Annotated[int, Meta(extra_json_schema={"minimum": 1, "maximum": MAX_MINUTES})] | None,
    Meta(description="how long; absent or null: for good"),
]
_REASON = Refusal("mod/reason_required", "say why: every moderator action needs a reason")
_TARGET = Refusal("mod/unknown_player", "there is no such player", 404)
_ROOM = Refusal("room/not_found", "there is no such open room", 404)
_MINUTES = Refusal("mod/bad_minutes", f"'minutes' is a whole number from 1 to {MAX_MINUTES}, or null")
_NAME = Refusal("message/invalid", f"'name' must be a string of 1 to {NAME_MAX} characters")


class Credentials(Body, forbid_unknown_fields=False):
    username: str
    password: str


class Register(Body, forbid_unknown_fields=False):
    username: str
    password: str
    name: Name | None = None
    refusals: ClassVar[Mapping[str, Refusal]] = {
        "username": Refusal(
            "account/bad_username", "a username is 3 to 24 letters, digits, '_', '.' or '-' (no spaces)"
        ),
        "password": Refusal("account/bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters"),
        "name": _NAME,
    }


class NameBody(Body, forbid_unknown_fields=False):
    name: Name
    refusals: ClassVar[Mapping[str, Refusal]] = {"name": _NAME}


class Password(Body, forbid_unknown_fields=False):
    password: str
    refusals: ClassVar[Mapping[str, Refusal]] = {"password": Refusal("auth/bad_credentials", "wrong password", 401)}


class Someone(Body, forbid_unknown_fields=False):
    """An account, by id (from a table) or by username or nickname (``name``)."""

    name: Annotated[str, Meta(extra_json_schema={"maxLength": 64})] | None = None
    player_id: Id | None = None
    refusals: ClassVar[Mapping[str, Refusal]] = {
        "name": Refusal("friends/bad_name", "type the player's username or nickname"),
        "player_id": Refusal("friends/unknown_player", "there is no such player", 404),
    }


class Invite(Body, forbid_unknown_fields=False):
    player_id: Id
    room_id: Id
    refusals: ClassVar[Mapping[str, Refusal]] = {
        "player_id": Refusal("message/invalid", "'player_id' and 'room_id' are strings"),
        "room_id": Refusal("message/invalid", "'player_id' and 'room_id' are strings"),
    }


class Tournament(Body, forbid_unknown_fields=False):
    matches: Literal[3, 5] | None = None
    refusals: ClassVar[Mapping[str, Refusal]] = {
        "matches": Refusal("tournament/bad_length", "a tournament has 3 or 5 matches")
    }


# ---------------------------------------------------------------------------------------------- moderation


class Report(Body, forbid_unknown_fields=False):
    player_id: Id
    room_id: Id
    chat_id: int | None = None
    note: Annotated[str, Meta(extra_json_schema={"maxLength": MAX_NOTE})] | None = None
    refusals: ClassVar[Mapping[str, Refusal]] = {
        "player_id": Refusal("report/bad_player", "choose another player at the table to report"),
        "room_id": Refusal("room/not_found", "there is no such room open on this server", 404),
        "chat_id": Refusal("message/invalid", "'chat_id' is the id of a chat message, or null"),
        "note": Refusal("report/bad_note", f"a note is text of at most {MAX_NOTE} characters"),
    }


class Reasoned(Body, forbid_unknown_fields=False):
    """A moderator's action: a reason is required, and kept in the audit list."""

    reason: Reason
    refusals: ClassVar[Mapping[str, Refusal]] = {"reason": _REASON}


class Sanction(Reasoned):
    player_id: Id
    minutes: Minutes = None
    refusals: ClassVar[Mapping[str, Refusal]] = {"reason": _REASON, "player_id": _TARGET, "minutes": _MINUTES}


class Lift(Reasoned):
    player_id: Id
    refusals: ClassVar[Mapping[str, Refusal]] = {"reason": _REASON, "player_id": _TARGET}


class Kick(Reasoned):
    player_id: Id
    room_id: Id
    refusals: ClassVar[Mapping[str, Refusal]] = {"reason": _REASON, "player_id": _TARGET, "room_id": _ROOM}


class RoomAction(Reasoned):
    room_id: Id
    refusals: ClassVar[Mapping[str, Refusal]] = {"reason": _REASON, "room_id": _ROOM}


class RenameRoom(RoomAction):
    name: Name
    refusals: ClassVar[Mapping[str, Refusal]] = {"reason": _REASON, "room_id": _ROOM, "name": _NAME}


class RenamePlayer(Reasoned):
    player_id: Id
    name: Name
    refusals: ClassVar[Mapping[str, Refusal]] = {"reason": _REASON, "player_id": _TARGET, "name": _NAME}


# ---------------------------------------------------------------------------------------------- answers
# What the account, award and moderation routes answer (``sefode.server.routes.accounts``, ``...routes.moderation``):
# each route sends its answer encoded from one of these (``sefode.wire.Answer``). Rows the rules build in full (a
# profile's matches, the leaderboard's rows, a report) are JSON objects here; their keys are in docs/accounts-api.md.

Row = dict[str, Any]


class Ok(Answer):
    ok: bool


class Account(Answer):
    """The signed-in player."""

    player_id: str
    name: str
    username: str | None
    registered: bool
    medals: dict[str, int]
    trophies: int


class SignedIn(Account):
    """The player and the session's fresh token (also set as the session cookie)."""

    token: str


class PlayerName(Answer):
    player_id: str
    name: str


class BotInfo(Answer):
    bot_id: str
    name: str
    created_at: int
    active: bool
    revoked_at: int | None


class Bots(Answer):
    bots: list[BotInfo]


class NewBot(Answer):
    """A new bot account; its API token is shown only here."""

    bot_id: str
    name: str
    token: str


class BotActive(Answer):
    bot_id: str
    active: bool


class BotToken(Answer):
    bot_id: str
    token: str


class FriendStatus(Answer):
    player_id: str
    status: Literal["requested", "friends", "none"]


class Person(Answer):
    """An account as the friends panel names it (``username``: null for a guest)."""

    player_id: str
    name: str
    username: str | None


class FriendTable(Answer):
    """The public table a friend is at."""

    room_id: str
    name: str
    game: str
    playing: bool


class Friend(Person):
    since: int
    online: bool
    table: FriendTable | None


class Request(Person):
    at: int


class BlockedPlayer(Answer):
    player_id: str
    name: str
    since: int


class Invitation(Answer):
    """An invitation to a room you received."""

    id: str
    from_: PlayerName = field(name="from")
    room_id: str
    room_name: str
    game: str | None
    link: str
    at: int


class FriendsPanel(Answer):
    """The friends panel: friends (online, and at which public table), requests both ways, blocks, invitations."""

    friends: list[Friend]
    incoming: list[Request]
    outgoing: list[Request]
    blocked: list[BlockedPlayer]
    invites: list[Invitation]


class GameRecord(Answer):
    game: str
    title: str | None
    matches: int
    you_ahead: int
    friend_ahead: int
    level: int


class FriendRecord(Answer):
    """The record between you and a friend: matches played together per game and who placed ahead."""

    friend: Person
    matches: int
    games: list[GameRecord]


class Relation(Answer):
    account: bool
    friend: bool
    requested: bool
    asked_you: bool
    blocked: bool


class Relations(Answer):
    players: dict[str, Relation]


class BlockStatus(Answer):
    player_id: str
    blocked: bool


class InviteSent(Answer):
    id: str
    player_id: str
    room_id: str


class InviteDismissed(Answer):
    id: str
    dismissed: bool


class Position(Answer):
    """Where the caller stands on a board (``?me=1``)."""

    player_id: str
    position: int | None


class LeaderRow(Answer):
    rank: int
    player_id: str
    name: str
    gold: int
    silver: int
    bronze: int
    trophies: int
    you: bool


class Leaderboard(Answer):
    board: Literal["medals", "trophies"]
    page: int
    pages: int
    per_page: int
    total: int
    me: Position | None
    rows: list[LeaderRow]


class RatingGame(Answer):
    game: str
    title: str | None


class RatingGames(Answer):
    games: list[RatingGame]


class Skill(Answer):
    """A rating (``rating`` is what tables are sorted by) and the estimate it comes from."""

    rating: float
    mu: float
    sigma: float


class RatingRow(Skill):
    rank: int
    player_id: str
    name: str | None
    matches: int
    you: bool


class PlayerRating(Skill):
    game: str
    title: str | None
    matches: int


class Ratings(Answer):
    """One game's rating table."""

    board: Literal["ratings"]
    game: str
    title: str | None
    page: int
    pages: int
    per_page: int
    total: int
    me: Position | None
    rows: list[RatingRow]


class Trophy(Answer):
    tournament_id: str
    room_id: str
    matches: int
    awarded_at: int


class MatchPlayer(Answer):
    """Who held a seat of a match in a profile's history (a bot: no id, no name; a deleted account: no name)."""

    seat: int
    player_id: str | None
    name: str | None
    anonymous: bool
    bot: bool
    place: int


class PlayedMatch(Answer):
    """A recorded match in a profile's history."""

    match_id: str
    room_id: str
    game: str
    title: str | None
    ended_at: int | None
    valid: bool
    no_winner: bool
    seat: int
    place: int
    medal: str | None
    tournament_id: str | None
    tournament_match: int | None
    players: list[MatchPlayer]
    history_url: str


class PlayedMatches(Answer):
    """A page of a player's recorded matches, newest first."""

    page: int
    pages: int
    per_page: int
    total: int
    rows: list[PlayedMatch]


class BotTally(Answer):
    """How a player fared against the table's bots of one level."""

    level: str
    matches: int
    ahead: int
    level_with: int
    behind: int


class GameProgress(Answer):
    """A player's progress in one game (``sefode.accounts.progress``): matches, wins, places, against bots."""

    game: str
    title: str | None
    matches: int
    wins: int
    places: Annotated[dict[str, int], Meta(description="how often at each place (1, 2, ...)")]
    bots: list[BotTally]


class GroupMember(Answer):
    player_id: str | None
    name: str | None
    anonymous: bool
    wins: int
    mean_place: float | None


class Group(Answer):
    """The running score of a group of people (two or more) over the matches of one game they played together."""

    game: str
    title: str | None
    matches: int
    players: list[GroupMember]


class MatchGroup(Group):
    match_id: str


class Profile(Answer):
    """A player's profile: medals, ratings, trophies, a page of their matches, their progress per game and groups."""

    player_id: str
    name: Annotated[str | None, Meta(description="null for a deleted account (anonymous)")]
    anonymous: bool
    registered: bool
    bot: bool
    medals: dict[str, int]
    ratings: list[PlayerRating]
    trophies: list[Trophy]
    matches: PlayedMatches
    progress: list[GameProgress]
    groups: list[Group]


class GroupScore(Answer):
    """The running score of the group of people who played a finished match (null: none)."""

    group: MatchGroup | None


class Standing(Answer):
    """A seat's line in a tournament's standings (a bot's: no id, no name)."""

    rank: int
    player_id: str | None
    name: str | None
    anonymous: bool
    bot: bool
    points: int
    firsts: int
    last_place: int | None
    per_match: list[int | None]


class Champion(Answer):
    player_id: str | None
    name: str | None
    bot: bool


class TournamentInfo(Answer):
    """A tournament: its standings, champions and trophies."""

    id: str
    room_id: str
    matches: int
    played: int
    status: str
    valid: bool | None
    created_at: int
    ended_at: int | None
    match_ids: list[str]
    standings: list[Standing]
    champions: list[Champion]
    trophies: list[str]


# ---------------------------------------------------------------------------------------------- moderation answers


class ReportMade(Answer):
    id: str


class Reported(PlayerName):
    username: str | None
    moderator: bool


class OpenReport(Answer):
    """A report: who made it, about whom, at which table and match, the note and the chat it kept."""

    id: str
    reporter: PlayerName
    reported: Reported
    room_id: str
    match_id: str | None
    chat_id: int | None
    note: str
    chat: list[Row]
    at: int


class Reports(Answer):
    """Open reports, oldest first, with the recent chat they kept."""

    reports: list[OpenReport]


class ReportClosed(Answer):
    id: str
    status: Literal["closed"]


class ModMe(Answer):
    player_id: str
    moderator: bool


class Muted(Answer):
    player_id: str
    muted: bool
    until: int | None


class Banned(Answer):
    player_id: str
    banned: bool
    until: int | None


class Unmuted(Answer):
    player_id: str
    muted: bool


class Unbanned(Answer):
    player_id: str
    banned: bool


class Kicked(Answer):
    player_id: str
    room_id: str
    kicked: bool


class RoomClosed(Answer):
    room_id: str
    closed: bool
    match: str | None


class RoomRenamed(Answer):
    room_id: str
    name: str


class AuditEntry(Answer):
    """A moderator's action: who, what, to whom, where, why, and what it set (``detail``)."""

    id: int
    at: int
    moderator: PlayerName
    action: str
    player: PlayerName | None
    room_id: str | None
    reason: str
    detail: Row


class Audit(Answer):
    """The moderators' actions, newest first."""

    entries: list[AuditEntry]
