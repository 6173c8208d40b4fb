"""Rooms: the lobby, one room, creating a room, solo play and invite links."""

from __future__ import annotations

import functools
import io
import secrets

import segno
import sqlalchemy as sa
from msgspec import UNSET
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sefode import text
from sefode.engine import EngineError, game_names, get_game
from sefode.server import logs, startpoint
from sefode.server.bodies import Lobby, NewRoom, RoomBody, RoomRef, RoomSummary, SeatPreview, SoloBody
from sefode.server.hub import Hub
from sefode.server.limits import client_of, limiter_of
from sefode.server.messages import LEVELS, ClientError
from sefode.server.record import Visibility
from sefode.server.room import Room, seat_setups
from sefode.server.routes.common import MAX_BODY_BYTES, api, body, checked, hub_of, me, send, token, typed
from sefode.wire import answer_of

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
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:  # "²".isdigit(), and int() refuses it
            raise ClientError("message/invalid", f"'{key}' must be a whole number from 0 to {hi}")
        value = int(raw)
        if value > hi:
            raise ClientError("message/invalid", f"'{key}' must be a whole number from 0 to {hi}")
        return value

    return number("offset", 0, 10**9), number("limit", LOBBY_PAGE, LOBBY_PAGE_MAX)


def _declare_tournament(engine: sa.Engine, room_id: str, matches: int) -> None:
    from sefode.awards.recording import create_tournament

    with engine.begin() as conn:
        create_tournament(conn, room_id, matches)


@api
async def list_rooms(request: Request) -> Response:
    """The lobby, a page at a time: ``?offset=`` (default 0) and ``?limit=`` (default 50, at most 100)."""
    hub = hub_of(request)
    offset, limit = _paging(request)
    stamp = logs.now_ms()
    if hub.cluster is not None:  # cluster-wide: every owner publishes its rooms (they leave within the lease TTL)
        found = [s for s in await hub.cluster.summaries() if s.pop("listed", False)]
        found.sort(key=lambda r: (not r["playing"], -r["connected"], r["name"], r["id"]))
        summaries = [answer_of({k: v for k, v in s.items() if k != "node"}, RoomSummary) for s in found]
    else:
        listed: list[Room] = [r for r in hub.rooms.values() if r.listed(stamp)]
        listed.sort(key=lambda r: (not r.playing, -len(r.connected_players()), r.name, r.id))
        summaries = [answer_of(r.summary(), RoomSummary) for r in listed]
    page = summaries[offset : offset + limit]
    following = offset + limit if offset + limit < len(summaries) else None
    return send(Lobby(rooms=page, total=len(summaries), offset=offset, limit=limit, next=following))


async def _invite_matches(hub: Hub, room_id: str, invite: str | None) -> bool:
    """Whether ``invite`` (from ``?invite=``) is this room's invite token."""
    if not invite or len(invite) > 128 or not invite.isascii():  # compare_digest takes ASCII text only
        return False
    room = hub.rooms.get(room_id)
    if room is not None:
        return secrets.compare_digest(invite, room.invite_token)
    return await hub.room_of_invite(invite) == room_id


async def _is_member(request: Request, room: Room) -> bool:
    """The caller (by session, if any) owns the room or holds one of its seats: they need no invite."""
    found = await hub_of(request).player(token(request))
    return found is not None and (found[0] == room.owner or found[0] in room.seated_players())


@api
async def get_room(request: Request) -> Response:
    """One room's summary. An invite-only room's needs its invite token (``?invite=``) unless the caller owns it or
    holds a seat: a stranger learns nothing of it (404 ``room/bad_invite``). Whoever may enter without a password
    (a public room, the invite, a member) also gets ``seat_list``: who holds each seat, for the visitor's preview."""
    hub = hub_of(request)
    room_id = request.path_params["room_id"]
    invite = request.query_params.get("invite")
    room = hub.rooms.get(room_id)
    if room is None and hub.cluster is not None:
        found = await hub.cluster.summary(room_id)
        if found is not None:
            found.pop("listed", None)
            found.pop("node", None)
            if found.get("visibility") == Visibility.INVITE and not await _invite_matches(hub, room_id, invite):
                raise ClientError("room/bad_invite", "this room is reachable only by its invite link")
            return send(answer_of(found, RoomSummary))
    if room is None:
        raise ClientError("room/not_found", "there is no such room")
    invited = await _invite_matches(hub, room_id, invite)
    member = invited or await _is_member(request, room)
    if room.visibility is Visibility.INVITE and not member:
        raise ClientError("room/bad_invite", "this room is reachable only by its invite link")
    summary = answer_of(room.summary(), RoomSummary)
    if room.visibility is not Visibility.PASSWORD or member:
        summary.seat_list = answer_of(room.seat_list(), list[SeatPreview])
    return send(summary)


@api
async def create_room(request: Request) -> Response:
    hub = hub_of(request)
    player_id, _ = await me(request)
    data = typed(await body(request), RoomBody)
    room_name = checked(text.room_name, data.name)
    game = default_game() if data.game is UNSET else data.game
    bots: dict[int, str] = {}
    for key, level in (data.bots or {}).items():
        try:
            seat = int(key)
        except ValueError:
            raise ClientError("message/invalid", f"bots: {key!r} is not a seat number") from None
        if level not in LEVELS:
            raise ClientError("message/invalid", f"bots: a level is one of {', '.join(LEVELS)}")
        bots[seat] = level
    options, clock_s, visibility, sit = data.options, data.clock_s, data.visibility, data.sit
    # only a password room keeps one
    password = checked(text.password, data.password) if visibility == "password" else None
    _may_create(request, hub, player_id)
    room = await hub.create_room(player_id, room_name, game, options, bots, clock_s, visibility, password, sit)
    if data.outside_bots:  # bot accounts may sit (sefode.accounts.bots)
        room.outside_bots = True
        await room.save()
    if data.tournament is not None:
        # Declared with the room (seed 002): the series starts with the room's first match.
        await hub.db(_declare_tournament, hub.store.engine, room.id, data.tournament)
    return send(NewRoom(room_id=room.id, invite_token=room.invite_token))


@api
async def solo(request: Request) -> Response:
    """A solo table: the caller at seat 0, bots on every other seat, the match started at once.

    Body: ``{"game"?, "options"?, "bots", "level", "clock_s"?}``; option keys of the game may also be given at the
    top level (``{"variant": "7letras"}``, as protocol 1 had them). With the test hook on (``SEFODE_TEST_HOOKS=1``),
    ``"start": {"seed", "actions"}`` starts the match at that point (``sefode.server.startpoint``)."""
    hub = hub_of(request)
    player_id, nick = await me(request)
    hooks_on = startpoint.enabled(request)
    raw = await body(request, startpoint.BODY_BYTES if hooks_on else MAX_BODY_BYTES)
    game_name = raw.get("game", default_game())
    try:
        game = get_game(game_name)
    except EngineError as err:
        raise ClientError(err.code, str(err)) from None
    spec = game.spec
    option_keys = {o.key for o in spec.options} - {spec.seats_option}
    unknown = sorted(set(raw) - {"game", "options", "bots", "level", "clock_s", "start"} - option_keys)
    if unknown:
        raise ClientError("message/invalid", f"unknown key(s) {', '.join(unknown)}")
    data = typed({k: v for k, v in raw.items() if k not in option_keys}, SoloBody)
    options = {**data.options, **{k: v for k, v in raw.items() if k in option_keys}}
    most = spec.max_seats - 1
    count = (min(3, most) if spec.seats_option is not None else most) if data.bots is UNSET else data.bots
    level = "normal" if data.level is UNSET else data.level
    clock_s = data.clock_s
    if not spec.min_seats - 1 <= count <= most:
        raise ClientError("message/invalid", f"'bots' must be a whole number from {spec.min_seats - 1} to {most}")
    if count < 1:
        raise ClientError("message/invalid", "'bots' must be at least 1")
    if level not in spec.bot_levels:
        raise ClientError("message/invalid", f"'level' is one of {', '.join(spec.bot_levels)}")
    if spec.seats_option is not None:
        options[spec.seats_option] = count + 1
    elif count + 1 != spec.min_seats:
        seats = spec.min_seats
        raise ClientError("message/invalid", f"this game is played by {seats}: 'bots' must be {seats - 1}")
    start = startpoint.read(raw["start"], hooks_on) if "start" in raw else None
    if start is not None:  # refused before the room is made: no room is left behind
        normal = game.validate_options(options)
        seats = int(normal[spec.seats_option]) if spec.seats_option is not None else spec.min_seats
        startpoint.check(game, normal, seat_setups(game, normal, start.seed, [None] * seats), start)
    _may_create(request, hub, player_id)
    bots = {seat: level for seat in range(1, count + 1)}
    title = f"Solo: {nick}"
    room = await hub.create_room(player_id, title, game.name, options, bots, clock_s, "invite", None, True)
    await room.start(player_id, start)
    return send(RoomRef(room_id=room.id))


def default_game() -> str:
    """The game of a room or solo table whose request names none: the first one ``GET /api/games`` lists."""
    return game_names()[0]


@api
async def invite(request: Request) -> Response:
    invite_token = request.path_params["token"]
    room_id = await hub_of(request).room_of_invite(invite_token) if len(invite_token) <= 128 else None
    if room_id is None:
        raise ClientError("room/bad_invite", "this invite link is not valid")
    return send(RoomRef(room_id=room_id))


@api
async def invite_qr(request: Request) -> Response:
    """The QR code (SVG) of an invite link, for a person at the same real table to scan. Keyed by the invite token
    itself: whoever asks already holds the link, so it tells nobody anything new (404 ``room/bad_invite`` for a token
    that is no room's). The link is on ``--public-url`` when the server has one, else on the address asked."""
    invite_token = request.path_params["token"]
    room_id = await hub_of(request).room_of_invite(invite_token) if len(invite_token) <= 128 else None
    if room_id is None:
        raise ClientError("room/bad_invite", "this invite link is not valid")
    public: str | None = getattr(request.app.state, "public_url", None)
    origin = public.rstrip("/") if public else f"{request.url.scheme}://{request.url.netloc}"
    return Response(
        qr_svg(f"{origin}/invite/{invite_token}"),
        media_type="image/svg+xml",
        headers={"cache-control": "private, max-age=3600"},
    )


@functools.lru_cache(maxsize=256)
def qr_svg(link: str) -> bytes:
    """The QR code of ``link`` as an SVG image (segno; error correction M, a quiet zone of 4 modules)."""
    out = io.BytesIO()
    qr = segno.make(link, error="m", micro=False)
    qr.save(out, kind="svg", scale=8, border=4, xmldecl=False, svgclass=None, lineclass=None, dark="#000", light="#fff")
    return out.getvalue()


def routes() -> list[Route]:
    return [
        Route("/api/rooms", list_rooms),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room_id}", get_room),
        Route("/api/solo", solo, methods=["POST"]),
        Route("/api/invite/{token}", invite),
        Route("/api/invite/{token}/qr", invite_qr),
    ]
