"""The OpenAPI document of the HTTP API, served at ``GET /api/openapi.json`` and kept in ``docs/openapi.json``.

``python -m sefode.server.openapi`` rewrites ``docs/openapi.json``; ``tests/server/test_server_openapi.py`` checks
that the served document and the file are equal and runs schemathesis against the server with it.
The prose is in ``docs/protocol.md`` and ``docs/accounts-api.md``; the WebSocket is described there only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from sefode.server import PROTOCOL

DOC = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"

_ERROR = {"$ref": "#/components/schemas/Error"}
_OBJECT: dict[str, Any] = {"type": "object"}


def _answer(description: str, schema: dict[str, Any] | None = None, media: str = "application/json") -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if schema is not None:
        out["content"] = {media: {"schema": schema}}
    return out


def _errors(*statuses: int) -> dict[str, Any]:
    text = {
        400: "refused: the error's code says why (e.g. message/invalid)",
        401: "no session (auth/required) or wrong credentials",
        403: "not allowed (e.g. auth/bad_origin, room/not_owner)",
        404: "not found",
        409: "conflict (e.g. match/not_over, account/username_taken)",
        413: "the body is over the size cap (message/too_large)",
        429: "rate limited (rate/limited, auth/rate_limited, room/too_many)",
        503: "busy: the password-hashing pool is full (server/busy); Retry-After says when to try again",
    }
    return {str(s): _answer(text[s], _ERROR) for s in statuses}


def _op(
    summary: str,
    ok: dict[str, Any],
    errors: tuple[int, ...] = (),
    *,
    body: dict[str, Any] | None = None,
    params: list[dict[str, Any]] | None = None,
    auth: bool = False,
    tag: str = "server",
) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "tags": [tag], "responses": {"200": ok, **_errors(*errors)}}
    if body is not None:
        op["requestBody"] = {"required": False, "content": {"application/json": {"schema": body}}}
        op["responses"].update(_errors(413))
    if params:
        op["parameters"] = params
    if auth:
        op["security"] = [{"bearer": []}, {"cookie": []}]
    return op


def _path(name: str, max_length: int = 128) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string", "maxLength": max_length}}


def _query(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema}


def _body(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    return out


_NAME = {"type": "string", "minLength": 1, "maxLength": 24, "description": "NFC text, no control characters"}
_PAGE = [_query("page", {"type": "integer", "minimum": 1}), _query("per_page", {"type": "integer", "minimum": 1})]


_REASON = {"type": "string", "minLength": 1, "maxLength": 500, "description": "why (kept in the audit list)"}
_ID32 = {"type": "string", "maxLength": 32}
_MINUTES = {"type": "integer", "minimum": 1, "nullable": True, "description": "how long; absent or null: for good"}


def _mod(summary: str, answer: str, properties: dict[str, Any], errors: tuple[int, ...] = (400, 401, 403, 404)) -> Any:
    """A moderator's action (``sefode.accounts.mod_routes``): moderators only, a reason required."""
    return {
        "post": _op(
            summary + " (moderators only; logged in the audit list)",
            _answer(answer, _OBJECT),
            errors,
            body=_body({**properties, "reason": _REASON}, ["reason"]),
            auth=True,
            tag="moderation",
        )
    }


def _moderation() -> dict[str, Any]:
    return {
        "/api/reports": {
            "post": _op(
                "report a player at a table you are at (chat_id: one of the table's chat messages); the report keeps "
                "the table's recent chat as the server holds it and the match on",
                _answer("{id}", _OBJECT),
                (400, 401, 403, 404, 429),
                body=_body(
                    {
                        "player_id": _ID32,
                        "room_id": _ID32,
                        "chat_id": {"type": "integer", "nullable": True},
                        "note": {"type": "string", "maxLength": 500},
                    },
                    ["player_id", "room_id"],
                ),
                auth=True,
                tag="moderation",
            )
        },
        "/api/mod/me": {
            "get": _op(
                "whether you are a moderator (403 mod/forbidden when not)",
                _answer("{player_id, moderator}", _OBJECT),
                (401, 403),
                auth=True,
                tag="moderation",
            )
        },
        "/api/mod/reports": {
            "get": _op(
                "open reports, oldest first, with the recent chat they kept (moderators only)",
                _answer("{reports: [...]}", _OBJECT),
                (400, 401, 403),
                params=[_query("limit", {"type": "integer", "minimum": 1})],
                auth=True,
                tag="moderation",
            )
        },
        "/api/mod/reports/{report_id}/close": {
            "post": _op(
                "mark a report handled (moderators only; logged)",
                _answer("{id, status}", _OBJECT),
                (400, 401, 403, 404),
                body=_body({"reason": _REASON}, ["reason"]),
                params=[_path("report_id", 32)],
                auth=True,
                tag="moderation",
            )
        },
        "/api/mod/mute": _mod(
            "mute a player: their chat and reactions are refused (chat/muted)",
            "{player_id, muted, until}",
            {"player_id": _ID32, "minutes": _MINUTES},
        ),
        "/api/mod/unmute": _mod("lift a mute", "{player_id, muted}", {"player_id": _ID32}),
        "/api/mod/ban": _mod(
            "ban an account, or a guest by their session: its sessions end and its sockets close (4410) at once, and "
            "logins are refused (auth/banned) until the ban runs out",
            "{player_id, banned, until}",
            {"player_id": _ID32, "minutes": _MINUTES},
        ),
        "/api/mod/unban": _mod("lift a ban", "{player_id, banned}", {"player_id": _ID32}),
        "/api/mod/kick": _mod(
            "remove a player from a room (room/kicked); they do not come back to it while the server runs",
            "{player_id, room_id, kicked}",
            {"player_id": _ID32, "room_id": _ID32},
        ),
        "/api/mod/close-room": _mod(
            "close a room: its match stays stored, its players are told (room_closed)",
            "{room_id, closed, match}",
            {"room_id": _ID32},
        ),
        "/api/mod/rename-room": _mod("rename an offensive room", "{room_id, name}", {"room_id": _ID32, "name": _NAME}),
        "/api/mod/rename-player": _mod(
            "rename an offensive nickname", "{player_id, name}", {"player_id": _ID32, "name": _NAME}
        ),
        "/api/mod/audit": {
            "get": _op(
                "the moderators' actions, newest first: who, what, to whom, why (moderators only)",
                _answer("{entries: [...]}", _OBJECT),
                (400, 401, 403),
                params=[_query("limit", {"type": "integer", "minimum": 1}), _query("before", {"type": "integer"})],
                auth=True,
                tag="moderation",
            )
        },
    }


def spec() -> dict[str, Any]:
    """The OpenAPI 3.0 document."""
    session = _body({"name": _NAME}, ["name"])
    room = _body(
        {
            "name": {"type": "string", "minLength": 1, "maxLength": 24},
            "game": {"type": "string", "maxLength": 64},
            "options": _OBJECT,
            "bots": {"type": "object", "additionalProperties": {"type": "string", "enum": ["easy", "normal", "hard"]}},
            "clock_s": {"type": "integer", "minimum": 5, "maximum": 300},
            "visibility": {"type": "string", "enum": ["public", "password", "invite"]},
            "password": {"type": "string", "minLength": 1, "maxLength": 128},
            "sit": {"type": "boolean"},
            "tournament": {"type": "integer", "enum": [3, 5]},
        }
    )
    solo = _body(
        {
            "game": {"type": "string"},
            "options": _OBJECT,
            "variant": {"type": "string"},
            "bots": {"type": "integer", "minimum": 1, "maximum": 7},
            "level": {"type": "string", "enum": ["easy", "normal", "hard"]},
            "teams": {"type": "boolean"},
            "clock_s": {"type": "integer", "minimum": 5, "maximum": 300},
            "start": {
                "type": "object",
                "description": "test hook, only on a server started with SEFODE_TEST_HOOKS=1 (else start/disabled): "
                "the match starts from this seed with these [seat, action] pairs already played",
                "properties": {"seed": {"type": "integer"}, "actions": {"type": "array"}},
            },
        }
    )
    credentials = _body({"username": {"type": "string"}, "password": {"type": "string"}}, ["username", "password"])
    register = _body({"username": {"type": "string"}, "password": {"type": "string"}, "name": _NAME})
    paths: dict[str, Any] = {
        "/api/health": {
            "get": _op(
                "the server is up (cluster mode: the node, its rooms; 503 while it drains; docs/cluster.md)",
                _answer("ok", _OBJECT),
                params=[_query("cluster", {"type": "string", "description": "set: every live node's presence"})],
            )
        },
        "/api/openapi.json": {"get": _op("this document", _answer("the OpenAPI document", _OBJECT))},
        "/api/session": {
            "post": _op(
                "start a guest session, or rename the current one (a fresh token either way)",
                _answer("the session; sets the sefode_session cookie", {"$ref": "#/components/schemas/Session"}),
                (400, 403, 429),
                body=session,
            )
        },
        "/api/me": {"get": _op("who the session is", _answer("the player", _OBJECT), (401,), auth=True)},
        "/api/rooms": {
            "get": _op(
                "the lobby, a page at a time",
                _answer("a page of rooms", {"$ref": "#/components/schemas/Lobby"}),
                (400,),
                params=[
                    _query("offset", {"type": "integer", "minimum": 0}),
                    _query("limit", {"type": "integer", "minimum": 0, "maximum": 100}),
                ],
            ),
            "post": _op(
                "create a room",
                _answer("the room", _OBJECT),
                (400, 401, 403, 429, 503),
                body=room,
                auth=True,
            ),
        },
        "/api/rooms/{room_id}": {
            "get": _op(
                "one room's summary, with who holds each seat unless the room needs a password the caller lacks;"
                " an invite-only room's needs its invite token (or the caller owning it or holding a seat)",
                _answer("the room", _OBJECT),
                (404,),
                params=[_path("room_id", 64), _query("invite", {"type": "string", "maxLength": 128})],
            )
        },
        "/api/solo": {
            "post": _op(
                "a solo match against bots, started at once",
                _answer("the room", _OBJECT),
                (400, 401, 403, 429),
                body=solo,
                auth=True,
            )
        },
        "/api/invite/{token}": {
            "get": _op("the room of an invite link", _answer("the room id", _OBJECT), (404,), params=[_path("token")])
        },
        "/api/invite/{token}/qr": {
            "get": _op(
                "the QR code of an invite link (SVG), for someone at the same real table to scan",
                _answer("the QR code", {"type": "string"}, "image/svg+xml"),
                (404,),
                params=[_path("token")],
            )
        },
        "/api/matches/{match_id}/history": {
            "get": _op(
                "a finished match's history (sefode-history/1)",
                _answer("the history", _OBJECT),
                (404, 409),
                params=[_path("match_id", 64)],
            )
        },
        "/api/matches/{match_id}/replay": {
            "get": _op(
                "a finished match replayed by the engine",
                _answer("history and replay", _OBJECT),
                (404, 409),
                params=[_path("match_id", 64)],
            )
        },
        "/api/matches/{match_id}/analysis": {
            "get": _op(
                "the progress or result of a finished match's move analysis for one seat (docs/bots.md)",
                _answer("{status, done, total, analysis?, error?}", _OBJECT),
                (400, 404, 409),
                params=[_path("match_id", 64), _query("seat", {"type": "integer"})],
            ),
            "post": _op(
                "start the move analysis of one seat of a finished match (cached per match and seat; a session)",
                _answer("{status, done, total, analysis?, error?}", _OBJECT),
                (400, 401, 404, 409, 429),
                params=[_path("match_id", 64), _query("seat", {"type": "integer"})],
                auth=True,
            ),
        },
        "/api/rooms/{room_id}/coach": {
            "get": _op(
                "the solo coach: the hard bot's view of the caller's decisions in the match on (solo tables only)",
                _answer("{seat, since, until, decisions, highlights}", _OBJECT),
                (400, 401, 403, 429),
                params=[
                    _path("room_id", 64),
                    _query("since", {"type": "integer", "minimum": 0}),
                    _query("until", {"type": "integer", "minimum": 0}),
                ],
                auth=True,
            )
        },
        "/api/games": {"get": _op("every registered game's spec", _answer("the games", _OBJECT))},
        "/api/me/games/{name}/data": {
            "get": _op(
                "what the caller keeps of a game (saved decks)",
                _answer("{items: [{key, value, updated_at}]}", _OBJECT),
                (400, 401),
                params=[_path("name", 64)],
                auth=True,
            )
        },
        "/api/me/games/{name}/data/{key}": {
            "put": _op(
                "keep a value under a key, as the game checks it",
                _answer("the value kept", _OBJECT),
                (400, 401, 403, 409, 413),
                body=_body({"value": {}}, ["value"]),
                params=[_path("name", 64), _path("key", 64)],
                auth=True,
            ),
            "delete": _op(
                "forget what is kept under a key",
                _answer("deleted", _OBJECT),
                (400, 401, 403, 404),
                params=[_path("name", 64), _path("key", 64)],
                auth=True,
            ),
        },
        "/api/rules/{page}": {
            "get": _op(
                "a rules page (Markdown, or HTML with format=html)",
                _answer("the page", {"type": "string"}, "text/markdown"),
                (404,),
                params=[
                    _path("page", 300),
                    _query("lang", {"type": "string", "enum": ["pt-BR", "en"]}),
                    _query("format", {"type": "string", "enum": ["html", "markdown"]}),
                ],
            )
        },
        "/api/account/register": {
            "post": _op(
                "register the session's guest (or a new player)",
                _answer("Me and a fresh token", _OBJECT),
                (400, 401, 403, 409, 429, 503),
                body=register,
                tag="accounts",
            )
        },
        "/api/account/login": {
            "post": _op(
                "log in (a fresh token; the browser's previous one is retired)",
                _answer("Me and the token", _OBJECT),
                (400, 401, 403, 429, 503),
                body=credentials,
                tag="accounts",
            )
        },
        "/api/account/logout": {
            "post": _op(
                "end this session (its WebSockets close with 4410)",
                _answer("ok", _OBJECT),
                (401, 403),
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/logout-all": {
            "post": _op(
                "end every session of the account (every WebSocket closes with 4410)",
                _answer("ok", _OBJECT),
                (400, 401, 403),
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/me": {
            "get": _op("the signed-in player", _answer("Me", _OBJECT), (401,), auth=True, tag="accounts")
        },
        "/api/account/nickname": {
            "post": _op(
                "change the nickname",
                _answer("the player", _OBJECT),
                (400, 401, 403),
                body=_body({"name": _NAME}, ["name"]),
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/bots": {
            "get": _op(
                "the caller's bot accounts (never their tokens)",
                _answer("{bots: [{bot_id, name, created_at, active, revoked_at}]}", _OBJECT),
                (401,),
                auth=True,
                tag="accounts",
            ),
            "post": _op(
                "create a bot account (registered players only); its API token is shown only here",
                _answer("{bot_id, name, token}", _OBJECT),
                (400, 401, 403, 409),
                body=_body({"name": _NAME}, ["name"]),
                auth=True,
                tag="accounts",
            ),
        },
        "/api/account/bots/{bot_id}/revoke": {
            "post": _op(
                "revoke a bot's token: refused at once, its sockets closed",
                _answer("{bot_id, active}", _OBJECT),
                (401, 404),
                params=[_path("bot_id", 32)],
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/bots/{bot_id}/token": {
            "post": _op(
                "a new token for a bot (the old one stops working at once)",
                _answer("{bot_id, token}", _OBJECT),
                (401, 404),
                params=[_path("bot_id", 32)],
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/friends": {
            "get": _op(
                "the friends panel (accounts only): friends with online and public table, requests both ways, blocks, "
                "invitations to rooms",
                _answer("{friends, incoming, outgoing, blocked, invites}", _OBJECT),
                (401, 403),
                auth=True,
                tag="accounts",
            ),
            "post": _op(
                "ask an account to be friends, by username or nickname (name) or by id (from a table); when it had "
                "asked you already you are friends at once",
                _answer("{player_id, status: requested | friends}", _OBJECT),
                (400, 401, 403, 404, 409, 429),
                body=_body(
                    {"name": {"type": "string", "maxLength": 64}, "player_id": {"type": "string", "maxLength": 32}}
                ),
                auth=True,
                tag="accounts",
            ),
        },
        "/api/account/friends/{player_id}/accept": {
            "post": _op(
                "accept a friend request",
                _answer("{player_id, status}", _OBJECT),
                (401, 403, 404, 409),
                params=[_path("player_id", 32)],
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/friends/{player_id}/decline": {
            "post": _op(
                "decline a friend request, or withdraw your own",
                _answer("{player_id, status}", _OBJECT),
                (401, 403, 404),
                params=[_path("player_id", 32)],
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/friends/{player_id}/remove": {
            "post": _op(
                "end a friendship (both sides)",
                _answer("{player_id, status}", _OBJECT),
                (401, 403, 404),
                params=[_path("player_id", 32)],
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/friends/{player_id}/record": {
            "get": _op(
                "the record between you and a friend: matches played together per game and who placed ahead",
                _answer("{friend, matches, games: [{game, title, matches, you_ahead, friend_ahead, level}]}", _OBJECT),
                (401, 403, 404),
                params=[_path("player_id", 32)],
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/relations": {
            "get": _op(
                "what you are to some players (a table's): account or guest, friend, request, blocked",
                _answer("{players: {id: {account, friend, requested, asked_you, blocked}}}", _OBJECT),
                (401, 403),
                params=[_query("ids", {"type": "string", "maxLength": 600})],
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/blocks": {
            "post": _op(
                "block a player (by id, or an account by name): no chat or reactions of theirs reach you, they cannot "
                "enter your rooms; ends any friendship, request and invitation between you",
                _answer("{player_id, blocked}", _OBJECT),
                (400, 401, 403, 404, 409, 429),
                body=_body(
                    {"name": {"type": "string", "maxLength": 64}, "player_id": {"type": "string", "maxLength": 32}}
                ),
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/blocks/{player_id}/remove": {
            "post": _op(
                "unblock a player",
                _answer("{player_id, blocked}", _OBJECT),
                (401, 403, 404),
                params=[_path("player_id", 32)],
                auth=True,
                tag="accounts",
            )
        },
        **_moderation(),
        "/api/account/invites": {
            "post": _op(
                "invite a friend to a room you are at; it shows on their home page",
                _answer("{id, player_id, room_id}", _OBJECT),
                (400, 401, 403, 404, 429),
                body=_body(
                    {"player_id": {"type": "string", "maxLength": 32}, "room_id": {"type": "string", "maxLength": 32}},
                    ["player_id", "room_id"],
                ),
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/invites/{invite_id}/dismiss": {
            "post": _op(
                "dismiss an invitation you received",
                _answer("{id, dismissed}", _OBJECT),
                (401, 404),
                params=[_path("invite_id", 32)],
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/delete": {
            "post": _op(
                "delete the account (its chat and seats show an anonymous name; its own rooms' and teams' names reset)",
                _answer("ok", _OBJECT),
                (400, 401, 403, 503),
                body=_body({"password": {"type": "string"}}, ["password"]),
                auth=True,
                tag="accounts",
            )
        },
        "/api/account/profile": {
            "get": _op("the session's profile", _answer("Profile", _OBJECT), (400, 401), params=_PAGE, auth=True)
        },
        "/api/leaderboard": {
            "get": _op(
                "the leaderboard",
                _answer("Leaderboard", _OBJECT),
                (400,),
                params=[_query("board", {"type": "string", "enum": ["medals", "trophies"]}), *_PAGE],
                tag="accounts",
            )
        },
        "/api/ratings": {
            "get": _op("the games that keep a rating table", _answer("the games", _OBJECT), tag="accounts")
        },
        "/api/ratings/{game}": {
            "get": _op(
                "one game's rating table",
                _answer("Ratings", _OBJECT),
                (400, 404),
                params=[_path("game", 64), *_PAGE, _query("me", {"type": "string", "enum": ["1", "true"]})],
                tag="accounts",
            )
        },
        "/api/players/{player_id}": {
            "get": _op(
                "a player's profile",
                _answer("Profile", _OBJECT),
                (400, 404),
                params=[_path("player_id", 64), *_PAGE],
                tag="accounts",
            )
        },
        "/api/matches/{match_id}/group": {
            "get": _op(
                "the running score of the group of people who played a finished match (null: none)",
                _answer("Group score", _OBJECT),
                (),
                params=[_path("match_id", 64)],
                tag="accounts",
            )
        },
        "/api/tournaments/{tournament_id}": {
            "get": _op(
                "a tournament",
                _answer("Tournament", _OBJECT),
                (404,),
                params=[_path("tournament_id", 64)],
                tag="accounts",
            )
        },
        "/api/rooms/{room_id}/tournament": {
            "get": _op(
                "a room's latest tournament",
                _answer("Tournament", _OBJECT),
                (404,),
                params=[_path("room_id", 64)],
                tag="accounts",
            ),
            "post": _op(
                "declare the room a tournament, before its first match",
                _answer("Tournament", _OBJECT),
                (400, 401, 403, 404, 409),
                body=_body({"matches": {"type": "integer", "enum": [3, 5]}}),
                params=[_path("room_id", 64)],
                auth=True,
                tag="accounts",
            ),
        },
    }
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Se Fode HTTP API",
            "version": PROTOCOL if isinstance(PROTOCOL, str) else str(PROTOCOL),
            "description": "The HTTP half of docs/protocol.md and docs/accounts-api.md. Every refusal is a 4xx "
            'with {"error": {"code", "message"}}; the promises are in docs/security.md.',
        },
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "cookie": {"type": "apiKey", "in": "cookie", "name": "sefode_session"},
            },
            "schemas": {
                "Error": _body(
                    {"error": _body({"code": {"type": "string"}, "message": {"type": "string"}}, ["code", "message"])},
                    ["error"],
                ),
                "Session": _body(
                    {"token": {"type": "string"}, "player_id": {"type": "string"}, "name": {"type": "string"}},
                    ["token", "player_id", "name"],
                ),
                "Lobby": _body(
                    {
                        "rooms": {"type": "array", "items": _OBJECT},
                        "total": {"type": "integer"},
                        "offset": {"type": "integer"},
                        "limit": {"type": "integer"},
                        "next": {"type": "integer", "nullable": True},
                    },
                    ["rooms", "total", "offset", "limit", "next"],
                ),
            },
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
