"""Rooms: the lobby, one room, creating a room, solo play and invite links."""

from __future__ import annotations

import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sefode.server import logs, text
from sefode.server.hub import Hub
from sefode.server.limits import client_of, limiter_of
from sefode.server.messages import LEVELS, ClientError
from sefode.server.room import Room
from sefode.server.routes.common import api, body, checked, hub_of, me

LOBBY_PAGE = 50
LOBBY_PAGE_MAX = 100


def _open_rooms(hub: Hub, player_id: str) -> int:
    """Rooms of this owner that are still open: a match on, someone in, or created lately (listed or not)."""
    stamp = logs.now_ms()
    return sum(
        1
        for r in hub.rooms.values()
        if r.owner == player_id and (r.playing or r.conns or stamp - r.created_at < 15 * 60 * 1000)
    )


def _may_create(request: Request, hub: Hub, player_id: str) -> None:
    """The per-client rate of new rooms and the cap on a player's open rooms (``sefode.server.limits``)."""
    limiter = limiter_of(request)
    limiter.open_rooms(_open_rooms(hub, player_id))
    limiter.new_room(client_of(request))


def _paging(request: Request) -> tuple[int, int]:
    def number(key: str, default: int, hi: int) -> int:
        raw = request.query_params.get(key)
        if raw is None:
            return default
        if not raw.isdigit() or len(raw) > 9:
            raise ClientError("message/invalid", f"'{key}' must be a whole number from 0 to {hi}")
        value = int(raw)
        if value > hi:
            raise ClientError("message/invalid", f"'{key}' must be a whole number from 0 to {hi}")
        return value

    return number("offset", 0, 10**9), number("limit", LOBBY_PAGE, LOBBY_PAGE_MAX)


def _declare_tournament(engine: sa.Engine, room_id: str, matches: int) -> None:
    from sefode.accounts.awarding import create_tournament

    with engine.begin() as conn:
        create_tournament(conn, room_id, matches)


@api
async def list_rooms(request: Request) -> Response:
    """The lobby, a page at a time: ``?offset=`` (default 0) and ``?limit=`` (default 50, at most 100)."""
    hub = hub_of(request)
    offset, limit = _paging(request)
    stamp = logs.now_ms()
    listed: list[Room] = [r for r in hub.rooms.values() if r.listed(stamp)]
    listed.sort(key=lambda r: (not r.playing, -len(r.connected_players()), r.name, r.id))
    page = [r.summary() for r in listed[offset : offset + limit]]
    following = offset + limit if offset + limit < len(listed) else None
    return JSONResponse({"rooms": page, "total": len(listed), "offset": offset, "limit": limit, "next": following})


@api
async def get_room(request: Request) -> Response:
    room = hub_of(request).rooms.get(request.path_params["room_id"])
    if room is None:
        raise ClientError("room/not_found", "there is no such room")
    return JSONResponse(room.summary())


@api
async def create_room(request: Request) -> Response:
    hub = hub_of(request)
    player_id, _ = await me(request)
    data = await body(request)
    allowed = {"name", "game", "options", "bots", "clock_s", "visibility", "password", "sit", "tournament"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ClientError("message/invalid", f"unknown key(s) {', '.join(unknown)}")
    room_name = checked(text.room_name, data.get("name", "Mesa"))
    game = data.get("game", "fodinha")
    if not isinstance(game, str) or len(game) > 64:
        raise ClientError("message/invalid", "'game' must be the name of a game")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ClientError("message/invalid", "'options' must be a JSON object")
    bots_raw = data.get("bots") or {}
    if not isinstance(bots_raw, dict):
        raise ClientError("message/invalid", "'bots' must map seats to levels")
    bots: dict[int, str] = {}
    for key, level in bots_raw.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise ClientError("message/invalid", f"bots: {key!r} is not a seat number") from None
        if level not in LEVELS:
            raise ClientError("message/invalid", f"bots: a level is one of {', '.join(LEVELS)}")
        bots[seat] = level
    clock_s = data.get("clock_s", 30)
    if isinstance(clock_s, bool) or not isinstance(clock_s, int) or not 5 <= clock_s <= 300:
        raise ClientError("message/invalid", "'clock_s' must be a whole number of seconds from 5 to 300")
    visibility = data.get("visibility", "public")
    if visibility not in ("public", "password", "invite"):
        raise ClientError("message/invalid", "'visibility' is public, password or invite")
    password = data.get("password")
    if visibility == "password":
        password = checked(text.password, password)
    else:
        password = None  # only a password room keeps one
    sit = data.get("sit", True)
    if not isinstance(sit, bool):
        raise ClientError("message/invalid", "'sit' must be true or false")
    tournament = data.get("tournament")
    if tournament is not None and (isinstance(tournament, bool) or tournament not in (3, 5)):
        raise ClientError("message/invalid", "'tournament' is the number of matches of the series: 3 or 5")
    _may_create(request, hub, player_id)
    room = await hub.create_room(player_id, room_name, game, options, bots, clock_s, visibility, password, sit)
    if tournament is not None:
        # Declared with the room (seed 002): the series starts with the room's first match.
        await hub.db(_declare_tournament, hub.store.engine, room.id, tournament)
    return JSONResponse({"room_id": room.id, "invite_token": room.invite_token})


@api
async def solo(request: Request) -> Response:
    hub = hub_of(request)
    player_id, nick = await me(request)
    data = await body(request)
    unknown = sorted(set(data) - {"variant", "bots", "level", "teams", "clock_s"})
    if unknown:
        raise ClientError("message/invalid", f"unknown key(s) {', '.join(unknown)}")
    variant = data.get("variant", "sefode")
    count = data.get("bots", 3)
    level = data.get("level", "normal")
    teams = data.get("teams", False)
    clock_s = data.get("clock_s", 60)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 7:
        raise ClientError("message/invalid", "'bots' must be a whole number from 1 to 7")
    if level not in LEVELS:
        raise ClientError("message/invalid", f"'level' is one of {', '.join(LEVELS)}")
    if not isinstance(teams, bool):
        raise ClientError("message/invalid", "'teams' must be true or false")
    if isinstance(clock_s, bool) or not isinstance(clock_s, int) or not 5 <= clock_s <= 300:
        raise ClientError("message/invalid", "'clock_s' must be a whole number of seconds from 5 to 300")
    _may_create(request, hub, player_id)
    options = {"variant": variant, "players": count + 1, "teams": teams}
    bots = {seat: level for seat in range(1, count + 1)}
    title = f"Solo: {nick}"
    room = await hub.create_room(player_id, title, "fodinha", options, bots, clock_s, "invite", None, True)
    await room.start(player_id)
    return JSONResponse({"room_id": room.id})


@api
async def invite(request: Request) -> Response:
    invite_token = request.path_params["token"]
    room_id = hub_of(request).invites.get(invite_token) if len(invite_token) <= 128 else None
    if room_id is None:
        raise ClientError("room/bad_invite", "this invite link is not valid")
    return JSONResponse({"room_id": room_id})


def routes() -> list[Route]:
    return [
        Route("/api/rooms", list_rooms),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room_id}", get_room),
        Route("/api/solo", solo, methods=["POST"]),
        Route("/api/invite/{token}", invite),
    ]
