"""The moderation JSON API (``docs/accounts-api.md`` "Moderation"): players' reports, and moderators' actions with
their audit list. The rules are in ``sefode.accounts.moderation``; what every node must know at once goes through
``Hub.apply_moderation`` (in cluster mode it reaches every node, as blocks do).

Every ``/api/mod/...`` route answers 401 without a session and 403 ``mod/forbidden`` to anyone who is not a
moderator; every action needs a ``reason`` and is written to the audit log in the same transaction as its effect.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sefode.accounts import moderation as mod
from sefode.accounts import service
from sefode.accounts.bodies import (
    Audit,
    Banned,
    Kick,
    Kicked,
    Lift,
    ModMe,
    Muted,
    PlayerName,
    Reasoned,
    RenamePlayer,
    RenameRoom,
    Report,
    ReportClosed,
    ReportMade,
    Reports,
    RoomAction,
    RoomClosed,
    RoomRenamed,
    Sanction,
    Unbanned,
    Unmuted,
)
from sefode.accounts.service import AccountError
from sefode.server.routes.accounts import Handler, _api, _body, _hub, _int, _limited, _player, _tx, _typed
from sefode.server.routes.common import send
from sefode.wire import answer_of


async def _moderator(request: Request) -> str:
    player = await _player(request)
    assert player is not None
    await _tx(request, lambda conn: mod.require_moderator(conn, player))
    return player


async def _tell(request: Request, env: dict[str, Any]) -> None:
    hub = _hub(request)
    if hub is not None:
        await hub.apply_moderation(env)


async def _room_ref(request: Request, room_id: object) -> tuple[str, str, str | None]:
    """(id, name, match on) of an open room, held by this node or (cluster mode) by another: the action then reaches
    the node that holds it through ``Hub.apply_moderation``."""
    hub = _hub(request)
    if hub is not None and isinstance(room_id, str) and 0 < len(room_id) <= 32:
        room = hub.rooms.get(room_id)
        if room is not None:
            return room.id, str(room.name), room.match.id if room.match is not None else None
        if await hub.room_exists(room_id):
            stored = await hub.db(hub.store.load_room, room_id)
            if stored is not None:
                data = stored[0]
                return room_id, str(data.get("name") or room_id), data.get("current_match")
    raise AccountError("room/not_found", "there is no such open room", 404)


def _room(request: Request, room_id: object) -> Any:
    hub = _hub(request)
    room = hub.rooms.get(room_id) if hub is not None and isinstance(room_id, str) and len(room_id) <= 32 else None
    if room is None:
        raise AccountError("room/not_found", "there is no such room open on this server", 404)
    return room


# --------------------------------------------------------------------------------------------- reports


@_api
async def report(request: Request) -> Response:
    """A player reports another player at a table (``chat_id``: one of the room's chat messages). The recent chat is
    the server's own copy of the room's chat, never what the client sends."""
    body = await _body(request)
    player = await _player(request)
    assert player is not None
    asked = _typed(body, Report)
    reported, chat_id = asked.player_id, asked.chat_id
    if not reported or len(reported) > 32 or reported == player:
        raise AccountError("report/bad_player", "choose another player at the table to report")
    text = mod.note(asked.note)
    room = _room(request, asked.room_id)
    present = room.connected_players() | room.seated_players() | {room.owner}
    if room.match is not None:
        present |= {s.player_id for s in room.match.seats}
    if player not in present:
        raise AccountError("report/not_in_room", "you can report only players at a table you are at", 403)
    if reported not in present:
        raise AccountError("report/bad_player", "this player is not at this table", 404)
    chat = [dict(m) for m in room.chat_log]
    if chat_id is not None and not any(m.get("id") == chat_id for m in chat):
        raise AccountError("report/no_message", "that message is no longer in the table's chat", 404)
    _limited(request, "report", player)
    match_id = room.match.id if room.match is not None else (room.last_match or {}).get("id")
    report_id = await _tx(
        request, lambda conn: mod.report(conn, player, reported, room.id, match_id, chat_id, chat, text)
    )
    return send(ReportMade(id=report_id))


@_api
async def reports(request: Request) -> Response:
    await _moderator(request)
    limit = _int(request, "limit", 100)
    return send(answer_of({"reports": await _tx(request, lambda conn: mod.open_reports(conn, limit))}, Reports))


@_api
async def close_report(request: Request) -> Response:
    body = await _body(request)
    me = await _moderator(request)
    why = mod.reason(_typed(body, Reasoned).reason)
    report_id = str(request.path_params["report_id"])[:32]

    def run(conn: sa.Connection) -> None:
        reported = mod.close_report(conn, report_id)
        mod.log(conn, me, "close_report", why, player_id=reported, detail={"report": report_id})

    await _tx(request, run)
    return send(ReportClosed(id=report_id, status="closed"))


# --------------------------------------------------------------------------------------------- actions


@_api
async def whoami(request: Request) -> Response:
    """Whether the session's player is a moderator: the page shows the moderators' page in the menu of moderators
    alone, and asks every signed-in page load, so a plain player gets ``false`` rather than an error."""
    player = await _player(request)
    assert player is not None
    moderator = await _tx(request, lambda conn: mod.is_moderator(conn, player))
    return send(ModMe(player_id=player, moderator=moderator))


class _Kind(NamedTuple):
    flag: str
    """the answer's flag (``muted``, ``banned``)"""
    undo: str
    """the audit-log action (and node message) that lifts it"""
    tell_until: bool
    """whether the message to every node (``Hub.apply_moderation``) carries when it runs out"""
    tell_lift: bool
    """whether lifting it is told to every node (a ban's sessions ended when it was imposed)"""


_IMPOSED: dict[str, type[Muted | Banned]] = {"mute": Muted, "ban": Banned}
"""The answer of a sanction imposed, and of one lifted, by kind."""
_LIFTED: dict[str, type[Unmuted | Unbanned]] = {"mute": Unmuted, "ban": Unbanned}
_SANCTIONS = {"mute": _Kind("muted", "unmute", True, True), "ban": _Kind("banned", "unban", False, False)}


def sanction(kind: str) -> Handler:
    """The route that imposes a sanction (``mute``: chat and reactions refused; ``ban``: every session ends and its
    sockets close (4410) at once, logins are refused until it runs out) for ``minutes`` or for good."""
    flag, _undo, tell_until, _tell_lift = _SANCTIONS[kind]

    @_api
    async def impose(request: Request) -> Response:
        body = await _body(request)
        me = await _moderator(request)
        asked = _typed(body, Sanction)
        why, length = mod.reason(asked.reason), mod.minutes(asked.minutes)

        def run(conn: sa.Connection) -> tuple[str, int | None]:
            target = mod.check_target(conn, me, asked.player_id)
            until = mod.sanction(conn, target, kind, length)
            mod.log(conn, me, kind, why, player_id=target, detail={"minutes": length, "until": until})
            return target, until

        target, until = await _tx(request, run)
        await _tell(request, {"op": kind, "p": target, **({"until": until} if tell_until else {})})
        return send(answer_of({"player_id": target, flag: True, "until": until}, _IMPOSED[kind]))

    impose.__name__ = kind
    return impose


def lift(kind: str) -> Handler:
    """The route that lifts a sanction before it runs out."""
    flag, action, _tell_until, tell_lift = _SANCTIONS[kind]

    @_api
    async def undo(request: Request) -> Response:
        body = await _body(request)
        me = await _moderator(request)
        asked = _typed(body, Lift)
        why = mod.reason(asked.reason)

        def run(conn: sa.Connection) -> str:
            target = mod.check_target(conn, me, asked.player_id)
            mod.lift(conn, target, kind)
            mod.log(conn, me, action, why, player_id=target)
            return target

        target = await _tx(request, run)
        if tell_lift:
            await _tell(request, {"op": action, "p": target})
        return send(answer_of({"player_id": target, flag: False}, _LIFTED[kind]))

    undo.__name__ = action
    return undo


@_api
async def kick(request: Request) -> Response:
    body = await _body(request)
    me = await _moderator(request)
    asked = _typed(body, Kick)
    why = mod.reason(asked.reason)
    room_id, _name, _match = await _room_ref(request, asked.room_id)

    def run(conn: sa.Connection) -> str:
        target = mod.check_target(conn, me, asked.player_id)
        mod.log(conn, me, "kick", why, player_id=target, room_id=room_id)
        return target

    target = await _tx(request, run)
    await _tell(request, {"op": "kick", "p": target, "room": room_id})
    return send(Kicked(player_id=target, room_id=room_id, kicked=True))


@_api
async def close_room(request: Request) -> Response:
    body = await _body(request)
    me = await _moderator(request)
    asked = _typed(body, RoomAction)
    why = mod.reason(asked.reason)
    room_id, name, match_id = await _room_ref(request, asked.room_id)

    def run(conn: sa.Connection) -> None:
        mod.close_room(conn, room_id)
        mod.log(conn, me, "close_room", why, room_id=room_id, detail={"name": name, "match": match_id})

    await _tx(request, run)
    await _tell(request, {"op": "close", "room": room_id})
    return send(RoomClosed(room_id=room_id, closed=True, match=match_id))


@_api
async def rename_room(request: Request) -> Response:
    body = await _body(request)
    me = await _moderator(request)
    asked = _typed(body, RenameRoom)
    why = mod.reason(asked.reason)
    room_id, before, _match = await _room_ref(request, asked.room_id)
    name = service.check_name(asked.name)
    await _tx(
        request,
        lambda conn: mod.log(conn, me, "rename_room", why, room_id=room_id, detail={"from": before, "to": name}),
    )
    await _tell(request, {"op": "rename_room", "room": room_id, "name": name})
    return send(RoomRenamed(room_id=room_id, name=name))


@_api
async def rename_player(request: Request) -> Response:
    body = await _body(request)
    me = await _moderator(request)
    asked = _typed(body, RenamePlayer)
    why = mod.reason(asked.reason)
    name = service.check_name(asked.name)

    def run(conn: sa.Connection) -> str:
        target = mod.check_target(conn, me, asked.player_id)
        before = mod._names(conn, {target}).get(target, "?")
        service.rename(conn, target, name)
        mod.log(conn, me, "rename_player", why, player_id=target, detail={"from": before, "to": name})
        return target

    target = await _tx(request, run)
    await _tell(request, {"op": "rename", "p": target, "name": name})
    return send(PlayerName(player_id=target, name=name))


@_api
async def audit(request: Request) -> Response:
    await _moderator(request)
    limit = _int(request, "limit", 100)
    raw = request.query_params.get("before")
    before = _int(request, "before", 0) if raw is not None else None
    return send(answer_of({"entries": await _tx(request, lambda conn: mod.audit(conn, limit, before))}, Audit))


def routes() -> list[Route]:
    return [
        Route("/api/reports", report, methods=["POST"]),
        Route("/api/mod/me", whoami),
        Route("/api/mod/reports", reports),
        Route("/api/mod/reports/{report_id}/close", close_report, methods=["POST"]),
        Route("/api/mod/mute", sanction("mute"), methods=["POST"]),
        Route("/api/mod/unmute", lift("mute"), methods=["POST"]),
        Route("/api/mod/ban", sanction("ban"), methods=["POST"]),
        Route("/api/mod/unban", lift("ban"), methods=["POST"]),
        Route("/api/mod/kick", kick, methods=["POST"]),
        Route("/api/mod/close-room", close_room, methods=["POST"]),
        Route("/api/mod/rename-room", rename_room, methods=["POST"]),
        Route("/api/mod/rename-player", rename_player, methods=["POST"]),
        Route("/api/mod/audit", audit),
    ]
