"""The OpenAPI document of the HTTP API, served at ``GET /api/openapi.json`` and kept in ``docs/openapi.json``.

The document is derived: every request and answer body is a type (``sefode.server.bodies``,
``sefode.accounts.bodies``), the routes decode requests through those types, and the schemas here are generated from
them (``msgspec.json.schema_components``, written as OpenAPI 3.0). What is listed by hand is only what a type cannot
say: each operation's path, summary, refusal statuses, parameters and whether it needs a session.

``python -m sefode.server.openapi`` rewrites ``docs/openapi.json``; ``tests/server/test_server_openapi.py`` checks
that the served document and the file are equal and runs schemathesis against the server with it.
The prose is in ``docs/protocol.md`` and ``docs/accounts-api.md``; the WebSocket is described there only.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from sefode.accounts import bodies as acc
from sefode.server import PROTOCOL
from sefode.server import bodies as srv

DOC = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
REF = "#/components/schemas/{name}"

_ERRORS = {
    400: "refused: the error's code says why (e.g. message/invalid)",
    401: "no session (auth/required) or wrong credentials",
    403: "not allowed (e.g. auth/bad_origin, room/not_owner)",
    404: "not found",
    409: "conflict (e.g. match/not_over, account/username_taken)",
    413: "the body is over the size cap (message/too_large)",
    429: "rate limited (rate/limited, auth/rate_limited, room/too_many)",
    503: "busy: the password-hashing pool is full (server/busy); Retry-After says when to try again",
}


class Op(NamedTuple):
    """One operation: what a type cannot say about it."""

    summary: str
    answer: str
    """what the 200 answer holds"""
    errors: tuple[int, ...] = ()
    body: type[Any] | None = None
    """the request body's type"""
    params: tuple[dict[str, Any], ...] = ()
    auth: bool = False
    tag: str = "server"
    returns: Any = None
    """the answer's type: an ``Answer`` of ``sefode.server.bodies`` or ``sefode.accounts.bodies`` (or a union, a
    list of them), which the route sends its answer through; ``str`` for an answer that is not JSON (``media``).
    Every JSON operation has one (``tests/server/test_server_openapi.py``)."""
    media: str = "application/json"


def path(name: str, max_length: int = 128) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string", "maxLength": max_length}}


def query(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema}


_PAGE = (query("page", {"type": "integer", "minimum": 1}), query("per_page", {"type": "integer", "minimum": 1}))
_LIMIT = query("limit", {"type": "integer", "minimum": 1})
_MATCH = path("match_id", 64)
_ROOM = path("room_id", 64)
_PLAYER = path("player_id", 32)
_DATA = (path("name", 64), path("key", 64))
_TEXT = "text/markdown"
OpenAPI = dict[str, Any]
"""This document's own type: an OpenAPI 3.0 document (its schema is OpenAPI's, not repeated here)."""


def _mine(summary: str, answer: str, returns: Any, errors: tuple[int, ...], *params: dict[str, Any]) -> Op:
    """An operation on the caller's own things: it needs a session."""
    return Op(summary, answer, errors, params=params, auth=True, returns=returns)


def _server() -> dict[str, dict[str, Op]]:
    return {
        "/api/health": {
            "get": Op(
                "the server is up (cluster mode: the node, its rooms; 503 while it drains; docs/cluster.md)",
                "ok",
                params=(query("cluster", {"type": "string", "description": "set: every live node's presence"}),),
                returns=srv.Health,
            )
        },
        "/api/openapi.json": {"get": Op("this document", "the OpenAPI document", returns=OpenAPI)},
        "/api/session": {
            "post": Op(
                "start a guest session, or rename the current one (a fresh token either way)",
                "the session; sets the sefode_session cookie",
                (400, 403, 429),
                srv.SessionBody,
                returns=srv.Session,
            )
        },
        "/api/me": {"get": Op("who the session is", "the player", (401,), auth=True, returns=srv.Me)},
        "/api/rooms": {
            "get": Op(
                "the lobby, a page at a time",
                "a page of rooms",
                (400,),
                params=(
                    query("offset", {"type": "integer", "minimum": 0}),
                    query("limit", {"type": "integer", "minimum": 0, "maximum": 100}),
                ),
                returns=srv.Lobby,
            ),
            "post": Op(
                "create a room", "the room", (400, 401, 403, 429, 503), srv.RoomBody, auth=True, returns=srv.NewRoom
            ),
        },
        "/api/rooms/{room_id}": {
            "get": Op(
                "one room's summary, with who holds each seat unless the room needs a password the caller lacks;"
                " an invite-only room's needs its invite token (or the caller owning it or holding a seat)",
                "the room",
                (404,),
                params=(_ROOM, query("invite", {"type": "string", "maxLength": 128})),
                returns=srv.RoomSummary,
            )
        },
        "/api/solo": {
            "post": Op(
                "a solo match against bots, started at once",
                "the room",
                (400, 401, 403, 429),
                srv.SoloBody,
                auth=True,
                returns=srv.RoomRef,
            )
        },
        "/api/invite/{token}": {
            "get": Op(
                "the room of an invite link", "the room id", (404,), params=(path("token"),), returns=srv.RoomRef
            )
        },
        "/api/invite/{token}/qr": {
            "get": Op(
                "the QR code of an invite link (SVG), for someone at the same real table to scan",
                "the QR code",
                (404,),
                params=(path("token"),),
                returns=str,
                media="image/svg+xml",
            )
        },
        "/api/rooms/{room_id}/coach": {
            "get": _mine(
                "the solo coach: the hard bot's view of the caller's decisions in the match on (solo tables only)",
                "{seat, since, until, decisions, highlights}",
                srv.Coach,
                (400, 401, 403, 429),
                _ROOM,
                query("since", {"type": "integer", "minimum": 0}),
                query("until", {"type": "integer", "minimum": 0}),
            )
        },
    }


def _games() -> dict[str, dict[str, Op]]:
    return {
        "/api/games": {"get": Op("every registered game's spec", "the games", returns=srv.Games)},
        "/api/me/games/{name}/data": {
            "get": _mine(
                "what the caller keeps of a game (saved decks)",
                "{items: [{key, value, updated_at}]}",
                srv.KeptItems,
                (400, 401),
                _DATA[0],
            )
        },
        "/api/me/games/{name}/data/{key}": {
            "put": Op(
                "keep a value under a key, as the game checks it",
                "the value kept",
                (400, 401, 403, 409, 413),
                srv.KeptValue,
                _DATA,
                auth=True,
                returns=srv.Kept,
            ),
            "delete": _mine("forget what is kept under a key", "deleted", srv.Deleted, (400, 401, 403, 404), *_DATA),
        },
        "/api/rules/{page}": {
            "get": Op(
                "a rules page (Markdown, or HTML with format=html)",
                "the page",
                (404,),
                params=(
                    path("page", 300),
                    query("lang", {"type": "string", "enum": ["pt-BR", "en"]}),
                    query("format", {"type": "string", "enum": ["html", "markdown"]}),
                ),
                returns=str,
                media=_TEXT,
            )
        },
    }


def _matches() -> dict[str, dict[str, Op]]:
    analysis = "{status, done, total, analysis?, error?}"
    seat = query("seat", {"type": "integer"})
    return {
        "/api/matches/{match_id}/history": {
            "get": Op(
                "a finished match's history (sefode-history/1)",
                "the history",
                (404, 409),
                params=(_MATCH,),
                returns=srv.History,
            )
        },
        "/api/matches/{match_id}/replay": {
            "get": Op(
                "a finished match replayed by the engine",
                "history and replay",
                (404, 409),
                params=(_MATCH,),
                returns=srv.Replay,
            )
        },
        "/api/matches/{match_id}/analysis": {
            "get": Op(
                "the progress or result of a finished match's move analysis for one seat (docs/bots.md)",
                analysis,
                (400, 404, 409),
                params=(_MATCH, seat),
                returns=srv.Analysis,
            ),
            "post": Op(
                "start the move analysis of one seat of a finished match (cached per match and seat; a session)",
                analysis,
                (400, 401, 404, 409, 429),
                params=(_MATCH, seat),
                auth=True,
                returns=srv.Analysis,
            ),
        },
    }


def _account(
    summary: str, answer: str, returns: Any, errors: tuple[int, ...], body: type[Any] | None = None, *params: Any
) -> Op:
    return Op(summary, answer, errors, body, params, auth=True, tag="accounts", returns=returns)


def _accounts() -> dict[str, dict[str, Op]]:
    someone = "{player_id, status}"
    return {
        "/api/account/register": {
            "post": Op(
                "register the session's guest (or a new player)",
                "Me and a fresh token",
                (400, 401, 403, 409, 429, 503),
                acc.Register,
                tag="accounts",
                returns=acc.SignedIn,
            )
        },
        "/api/account/login": {
            "post": Op(
                "log in (a fresh token; the browser's previous one is retired)",
                "Me and the token",
                (400, 401, 403, 429, 503),
                acc.Credentials,
                tag="accounts",
                returns=acc.SignedIn,
            )
        },
        "/api/account/logout": {
            "post": _account("end this session (its WebSockets close with 4410)", "ok", acc.Ok, (401, 403))
        },
        "/api/account/logout-all": {
            "post": _account(
                "end every session of the account (every WebSocket closes with 4410)", "ok", acc.Ok, (400, 401, 403)
            )
        },
        "/api/account/me": {"get": _account("the signed-in player", "Me", acc.Account, (401,))},
        "/api/account/nickname": {
            "post": _account("change the nickname", "the player", acc.PlayerName, (400, 401, 403), acc.NameBody)
        },
        "/api/account/bots": {
            "get": _account(
                "the caller's bot accounts (never their tokens)",
                "{bots: [{bot_id, name, created_at, active, revoked_at}]}",
                acc.Bots,
                (401,),
            ),
            "post": _account(
                "create a bot account (registered players only); its API token is shown only here",
                "{bot_id, name, token}",
                acc.NewBot,
                (400, 401, 403, 409),
                acc.NameBody,
            ),
        },
        "/api/account/bots/{bot_id}/revoke": {
            "post": _account(
                "revoke a bot's token: refused at once, its sockets closed",
                "{bot_id, active}",
                acc.BotActive,
                (401, 404),
                None,
                path("bot_id", 32),
            )
        },
        "/api/account/bots/{bot_id}/token": {
            "post": _account(
                "a new token for a bot (the old one stops working at once)",
                "{bot_id, token}",
                acc.BotToken,
                (401, 404),
                None,
                path("bot_id", 32),
            )
        },
        **_friends(someone),
        "/api/account/delete": {
            "post": _account(
                "delete the account (its chat and seats show an anonymous name; its own rooms' and teams' names reset)",
                "ok",
                acc.Ok,
                (400, 401, 403, 503),
                acc.Password,
            )
        },
        "/api/account/profile": {
            "get": Op("the session's profile", "Profile", (400, 401), params=_PAGE, auth=True, returns=acc.Profile)
        },
    }


def _friends(someone: str) -> dict[str, dict[str, Op]]:
    return {
        "/api/account/friends": {
            "get": _account(
                "the friends panel (accounts only): friends with online and public table, requests both ways, blocks, "
                "invitations to rooms",
                "{friends, incoming, outgoing, blocked, invites}",
                acc.FriendsPanel,
                (401, 403),
            ),
            "post": _account(
                "ask an account to be friends, by username or nickname (name) or by id (from a table); when it had "
                "asked you already you are friends at once",
                "{player_id, status: requested | friends}",
                acc.FriendStatus,
                (400, 401, 403, 404, 409, 429),
                acc.Someone,
            ),
        },
        "/api/account/friends/{player_id}/accept": {
            "post": _account("accept a friend request", someone, acc.FriendStatus, (401, 403, 404, 409), None, _PLAYER)
        },
        "/api/account/friends/{player_id}/decline": {
            "post": _account(
                "decline a friend request, or withdraw your own",
                someone,
                acc.FriendStatus,
                (401, 403, 404),
                None,
                _PLAYER,
            )
        },
        "/api/account/friends/{player_id}/remove": {
            "post": _account("end a friendship (both sides)", someone, acc.FriendStatus, (401, 403, 404), None, _PLAYER)
        },
        "/api/account/friends/{player_id}/record": {
            "get": _account(
                "the record between you and a friend: matches played together per game and who placed ahead",
                "{friend, matches, games: [{game, title, matches, you_ahead, friend_ahead, level}]}",
                acc.FriendRecord,
                (401, 403, 404),
                None,
                _PLAYER,
            )
        },
        "/api/account/relations": {
            "get": _account(
                "what you are to some players (a table's): account or guest, friend, request, blocked",
                "{players: {id: {account, friend, requested, asked_you, blocked}}}",
                acc.Relations,
                (401, 403),
                None,
                query("ids", {"type": "string", "maxLength": 600}),
            )
        },
        "/api/account/blocks": {
            "post": _account(
                "block a player (by id, or an account by name): no chat or reactions of theirs reach you, they cannot "
                "enter your rooms; ends any friendship, request and invitation between you",
                "{player_id, blocked}",
                acc.BlockStatus,
                (400, 401, 403, 404, 409, 429),
                acc.Someone,
            )
        },
        "/api/account/blocks/{player_id}/remove": {
            "post": _account(
                "unblock a player", "{player_id, blocked}", acc.BlockStatus, (401, 403, 404), None, _PLAYER
            )
        },
        "/api/account/invites": {
            "post": _account(
                "invite a friend to a room you are at; it shows on their home page",
                "{id, player_id, room_id}",
                acc.InviteSent,
                (400, 401, 403, 404, 429),
                acc.Invite,
            )
        },
        "/api/account/invites/{invite_id}/dismiss": {
            "post": _account(
                "dismiss an invitation you received",
                "{id, dismissed}",
                acc.InviteDismissed,
                (401, 404),
                None,
                path("invite_id", 32),
            )
        },
    }


def _awards() -> dict[str, dict[str, Op]]:
    def shown(summary: str, answer: str, returns: Any, errors: tuple[int, ...], *params: dict[str, Any]) -> Op:
        return Op(summary, answer, errors, params=params, tag="accounts", returns=returns)

    board = query("board", {"type": "string", "enum": ["medals", "trophies"]})
    me = query("me", {"type": "string", "enum": ["1", "true"]})
    return {
        "/api/leaderboard": {"get": shown("the leaderboard", "Leaderboard", acc.Leaderboard, (400,), board, *_PAGE)},
        "/api/ratings": {"get": shown("the games that keep a rating table", "the games", acc.RatingGames, ())},
        "/api/ratings/{game}": {
            "get": shown("one game's rating table", "Ratings", acc.Ratings, (400, 404), path("game", 64), *_PAGE, me)
        },
        "/api/players/{player_id}": {
            "get": shown("a player's profile", "Profile", acc.Profile, (400, 404), path("player_id", 64), *_PAGE)
        },
        "/api/matches/{match_id}/group": {
            "get": shown(
                "the running score of the group of people who played a finished match (null: none)",
                "Group score",
                acc.GroupScore,
                (),
                _MATCH,
            )
        },
        "/api/tournaments/{tournament_id}": {
            "get": shown("a tournament", "Tournament", acc.TournamentInfo, (404,), path("tournament_id", 64))
        },
        "/api/rooms/{room_id}/tournament": {
            "get": shown(
                "a room's latest tournament (with missing=null: null when it has none)",
                "Tournament",
                acc.TournamentInfo | None,
                (404,),
                _ROOM,
                query("missing", {"type": "string", "enum": ["null"]}),
            ),
            "post": _account(
                "declare the room a tournament, before its first match",
                "Tournament",
                acc.TournamentInfo,
                (400, 401, 403, 404, 409),
                acc.Tournament,
                _ROOM,
            ),
        },
    }


def _moderation() -> dict[str, dict[str, Op]]:
    def action(summary: str, answer: str, returns: Any, body: type[Any]) -> dict[str, Op]:
        """A moderator's action (``sefode.server.routes.moderation``): moderators only, a reason required."""
        summary += " (moderators only; logged in the audit list)"
        return {"post": Op(summary, answer, (400, 401, 403, 404), body, auth=True, tag="moderation", returns=returns)}

    def look(summary: str, answer: str, returns: Any, errors: tuple[int, ...], *params: dict[str, Any]) -> Any:
        return {"get": Op(summary, answer, errors, params=params, auth=True, tag="moderation", returns=returns)}

    return {
        "/api/reports": {
            "post": Op(
                "report a player at a table you are at (chat_id: one of the table's chat messages); the report keeps "
                "the table's recent chat as the server holds it and the match on",
                "{id}",
                (400, 401, 403, 404, 429),
                acc.Report,
                auth=True,
                tag="moderation",
                returns=acc.ReportMade,
            )
        },
        "/api/mod/me": look("whether you are a moderator", "{player_id, moderator}", acc.ModMe, (401,)),
        "/api/mod/reports": look(
            "open reports, oldest first, with the recent chat they kept (moderators only)",
            "{reports: [...]}",
            acc.Reports,
            (400, 401, 403),
            _LIMIT,
        ),
        "/api/mod/reports/{report_id}/close": {
            "post": Op(
                "mark a report handled (moderators only; logged)",
                "{id, status}",
                (400, 401, 403, 404),
                acc.Reasoned,
                (path("report_id", 32),),
                auth=True,
                tag="moderation",
                returns=acc.ReportClosed,
            )
        },
        "/api/mod/mute": action(
            "mute a player: their chat and reactions are refused (chat/muted)",
            "{player_id, muted, until}",
            acc.Muted,
            acc.Sanction,
        ),
        "/api/mod/unmute": action("lift a mute", "{player_id, muted}", acc.Unmuted, acc.Lift),
        "/api/mod/ban": action(
            "ban an account, or a guest by their session: its sessions end and its sockets close (4410) at once, and "
            "logins are refused (auth/banned) until the ban runs out",
            "{player_id, banned, until}",
            acc.Banned,
            acc.Sanction,
        ),
        "/api/mod/unban": action("lift a ban", "{player_id, banned}", acc.Unbanned, acc.Lift),
        "/api/mod/kick": action(
            "remove a player from a room (room/kicked); they do not come back to it (kept with the room)",
            "{player_id, room_id, kicked}",
            acc.Kicked,
            acc.Kick,
        ),
        "/api/mod/close-room": action(
            "close a room: its match stays stored, its players are told (room_closed)",
            "{room_id, closed, match}",
            acc.RoomClosed,
            acc.RoomAction,
        ),
        "/api/mod/rename-room": action("rename an offensive room", "{room_id, name}", acc.RoomRenamed, acc.RenameRoom),
        "/api/mod/rename-player": action(
            "rename an offensive nickname", "{player_id, name}", acc.PlayerName, acc.RenamePlayer
        ),
        "/api/mod/audit": look(
            "the moderators' actions, newest first: who, what, to whom, why (moderators only)",
            "{entries: [...]}",
            acc.Audit,
            (400, 401, 403),
            _LIMIT,
            query("before", {"type": "integer"}),
        ),
    }


def operations() -> dict[str, dict[str, Op]]:
    """Every operation of the HTTP API, by path and method."""
    return {**_server(), **_games(), **_matches(), **_accounts(), **_moderation(), **_awards()}


# ---------------------------------------------------------------------------------------------- the document


def openapi30(node: Any) -> Any:
    """A JSON Schema from msgspec written as OpenAPI 3.0 wants it: ``anyOf [X, null]`` becomes X with
    ``nullable: true`` (a nullable enum lists null among its values; a nullable ``$ref`` is wrapped in ``allOf``), and
    an empty ``required`` goes."""
    if isinstance(node, list):
        return [openapi30(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: openapi30(value) for key, value in node.items() if not (key == "required" and value == [])}
    options = out.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options:
        rest = [o for o in options if o != {"type": "null"}]
        if len(rest) == 1:
            del out["anyOf"]
            found = {"allOf": rest} if "$ref" in rest[0] else rest[0]  # 3.0 ignores a $ref's siblings: wrapped
            out = {**found, **out, "nullable": True}
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
    return out


def _types(ops: dict[str, dict[str, Op]]) -> Iterator[type[Any]]:
    yield srv.Error
    for methods in ops.values():
        for op in methods.values():
            yield from (t for t in (op.body, op.returns) if t is not None and t is not str)


def _operation(op: Op, refs: dict[type[Any], Any]) -> dict[str, Any]:
    if op.returns is str:
        answer: dict[str, Any] = {"type": "string"}
    else:
        answer = openapi30(refs[op.returns]) if op.returns is not None else {"type": "object"}
    errors = (*op.errors, 413) if op.body is not None else op.errors
    responses = {"200": {"description": op.answer, "content": {op.media: {"schema": answer}}}}
    for status in errors:
        responses[str(status)] = {
            "description": _ERRORS[status],
            "content": {"application/json": {"schema": refs[srv.Error]}},
        }
    out: dict[str, Any] = {"summary": op.summary, "tags": [op.tag], "responses": responses}
    if op.body is not None:
        out["requestBody"] = {"required": False, "content": {"application/json": {"schema": refs[op.body]}}}
    if op.params:
        out["parameters"] = list(op.params)
    if op.auth:
        out["security"] = [{"bearer": []}, {"cookie": []}]
    return out


def spec() -> dict[str, Any]:
    """The OpenAPI 3.0 document."""
    ops = operations()
    types = list(dict.fromkeys(_types(ops)))
    refs, schemas = msgspec.json.schema_components(types, ref_template=REF)
    by_type = dict(zip(types, refs, strict=True))
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Se Fode HTTP API",
            "version": PROTOCOL if isinstance(PROTOCOL, str) else str(PROTOCOL),
            "description": "The HTTP half of docs/protocol.md and docs/accounts-api.md. Every refusal is a 4xx "
            'with {"error": {"code", "message"}}; the promises are in docs/security.md. Request and answer bodies '
            "are generated from the server's types (sefode.server.openapi).",
        },
        "paths": {p: {m: _operation(op, by_type) for m, op in methods.items()} for p, methods in ops.items()},
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "cookie": {"type": "apiKey", "in": "cookie", "name": "sefode_session"},
            },
            "schemas": openapi30(dict(sorted(schemas.items()))),
        },
    }


def dumps() -> str:
    return json.dumps(spec(), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    DOC.write_text(dumps(), encoding="utf-8")
    print(f"wrote {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
