"""The WebSocket ``/ws`` (docs/protocol.md) and the bare echo ``/ws/echo`` of ``bench/load.py``.

A connection authenticates with the session cookie, or, without one, with a first message
``{"type": "auth", "token": ...}`` (never a token in the URL). The server closes it with a code of its own when the
session ends (``CLOSE_SESSION_ENDED``), when it floods or the player has too many connections (``CLOSE_LIMIT``), and
when it never authenticates (``CLOSE_AUTH``); ``sefode/web/static/js/ws.js`` explains each code to the player.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from sefode.server import logs, metrics, startpoint
from sefode.server.hub import MAX_REFUSED, Connection, Hub
from sefode.server.limits import Limiter, client_of, limiter_of
from sefode.server.messages import ClientError, parse_message, ref_of
from sefode.server.nodewide import CLOSE_SESSION_ENDED
from sefode.server.routes.common import hub_of, token
from sefode.store.db import token_hash

AUTH_WAIT_S = 10.0
"""How long a connection without a session cookie has to send its ``auth`` message."""
CLOSE_AUTH = 4401
"""Close code: no valid session (never authenticated, or the ``auth`` message named no live session)."""
"""Close code: the session ended (logged out, logged out everywhere, or the account was deleted)."""
CLOSE_LIMIT = 4429
"""Close code: too many messages (flooding) or too many connections for one player."""


async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "code": code, "message": message}))
        await websocket.close(close)


async def _first_auth(hub: Hub, websocket: WebSocket) -> tuple[str, str] | None:
    """Without a session cookie, the first message must be ``{"type": "auth", "token": ...}``."""
    try:
        message = await asyncio.wait_for(websocket.receive(), AUTH_WAIT_S)
    except TimeoutError:
        return None
    if message["type"] == "websocket.disconnect":
        return None
    raw = message.get("text")
    if raw is None:
        raw = message.get("bytes") or b""
    try:
        msg = parse_message(raw)
    except ClientError:
        return None
    if msg["type"] != "auth":
        return None
    found = await hub.player(msg["token"])
    return None if found is None else (found[0], msg["token"])


async def _guarded_join(hub: Hub, conn: Connection, msg: dict[str, Any], limiter: Limiter) -> None:
    """A ``join``: a room password is checked under the per-room and per-client backoff (``limits``); in cluster
    mode by the room's owner, against a backoff shared by every node (``Cluster.password_guard``)."""
    room = hub.rooms.get(msg["room"]) if hub.cluster is None else None
    password = msg.get("password")
    if room is not None and room.visibility == "password" and password:
        try:
            await room.can_enter(conn.player_id, None, msg.get("invite"))
        except ClientError as err:
            if err.code != "room/bad_password":
                raise
            limiter.password_attempt(room.id, conn.client)
            try:
                await room.can_enter(conn.player_id, password, None)
            except ClientError as wrong:
                if wrong.code == "room/bad_password":
                    limiter.password_failed(room.id, conn.client)
                raise
            limiter.password_ok(conn.client)
            # The password was right: enter as one holding the room's link does (it is shown inside the room).
            msg = {**msg, "password": None, "invite": room.invite_token}
    await hub.handle(conn, msg)


async def ws_endpoint(websocket: WebSocket) -> None:
    hub = hub_of(websocket)
    limiter = limiter_of(websocket)
    await websocket.accept()
    tok = token(websocket)
    found = await hub.player(tok)
    if found is not None and tok is not None:
        player_id = found[0]
    else:
        authed = await _first_auth(hub, websocket)
        if authed is None:
            await _refuse(websocket, "auth/required", "create a session first", CLOSE_AUTH)
            return
        player_id, tok = authed
    if _at_cap(hub, player_id, limiter):
        metrics.RATE_LIMITED.labels("connections").inc()
        await _refuse(websocket, "rate/limited", "too many connections for this player", CLOSE_LIMIT)
        return
    limits = limiter.limits
    # With test hooks on, a ``start`` message may carry a start point larger than a message's usual cap.
    start_bytes = startpoint.BODY_BYTES if startpoint.enabled(websocket) else None
    conn = Connection(websocket, player_id, limits.connection_messages_burst, limits.connection_messages_per_s)
    conn.session = token_hash(tok)
    conn.client = client_of(websocket)
    hub.connections.add(conn)
    logs.event("conn.open", conn=conn.id, player=conn.player_id)
    sender = asyncio.create_task(_sender(conn, websocket))
    hub.hello(conn)
    reason = "closed"
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if conn.closed:  # the session ended meanwhile: nothing more is handled
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            if not conn.allow() or not limiter.message(conn.player_id):
                conn.refused += 1
                if conn.refused > MAX_REFUSED:
                    reason = "flooding"
                    logs.warning("conn.flooding", conn=conn.id, player=conn.player_id)
                    break
                metrics.RATE_LIMITED.labels("messages").inc()
                # The ref comes back (as with every refusal) so that a client can send the refused message again.
                conn.error("rate/limited", "too many messages; slow down", ref_of(raw))
                continue
            try:
                msg = parse_message(raw, start_bytes)
                if msg["type"] == "auth":
                    await _reauth(hub, conn, msg, limiter)
                elif msg["type"] == "join":
                    await _guarded_join(hub, conn, msg, limiter)
                else:
                    await hub.handle(conn, msg)
            except ClientError as err:
                metrics.REFUSED.labels(err.code).inc()
                room_id = conn.room.id if conn.room is not None else None
                logs.event(
                    "ws.refused",
                    conn=conn.id,
                    player=conn.player_id,
                    room=room_id,
                    code=err.code,
                    cause=err.message,
                )
                conn.error(err.code, err.message, ref_of(raw))
            except Exception as err:
                logs.error("ws.handler_failed", err, conn=conn.id, player=conn.player_id)
                conn.error("server/error", "internal error; nothing was changed", ref_of(raw))
    except WebSocketDisconnect:
        pass
    except Exception as err:
        reason = "error"
        logs.error("ws.failed", err, conn=conn.id, player=conn.player_id)
    finally:
        await hub.disconnect(conn)
        conn.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            conn.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sender, 2.0)
        if reason == "flooding":
            with contextlib.suppress(Exception):
                await websocket.close(CLOSE_LIMIT)
        if conn.close_code == CLOSE_SESSION_ENDED:
            reason = "session_ended"
        elif conn.close_code is not None:
            reason = f"closed_{conn.close_code}"
        logs.event("conn.close", conn=conn.id, player=conn.player_id, reason=reason)


def _at_cap(hub: Hub, player_id: str, limiter: Limiter) -> bool:
    """Whether the player already holds as many open connections as the limit allows."""
    held = sum(1 for c in hub.connections if c.player_id == player_id and not c.closed)
    return held >= limiter.limits.connections_per_player


async def _reauth(hub: Hub, conn: Connection, msg: dict[str, Any], limiter: Limiter) -> None:
    """An ``auth`` message on an open connection: the same player's token is a no-op (the page sends it even when
    its cookie already authenticated); another player's is taken only before the connection joined a room, and only
    while that player is under the cap of connections (the socket becomes one of theirs)."""
    found = await hub.player(msg["token"])
    if found is None:
        raise ClientError("auth/required", "this token is not a live session")
    if found[0] != conn.player_id:
        if conn.room is not None:
            raise ClientError("auth/mismatch", "this connection already plays as another player")
        if _at_cap(hub, found[0], limiter):
            raise ClientError("rate/limited", "too many connections for this player")
        conn.player_id = found[0]
    conn.session = token_hash(msg["token"])
    hub.hello(conn)


async def _sender(conn: Connection, websocket: WebSocket) -> None:
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                if not conn.queue.empty():
                    continue
                break
            await websocket.send_text(text)
    except Exception as err:
        if not conn.closed:
            logs.event("conn.send_failed", conn=conn.id, cause=f"{type(err).__name__}: {err}")
    finally:
        if conn.close_code is not None:
            with contextlib.suppress(Exception):
                await websocket.close(conn.close_code)
        elif conn.closed is False:
            conn.closed = True
            with contextlib.suppress(Exception):
                await websocket.close(1011)


async def echo_endpoint(websocket: WebSocket) -> None:
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        pass


def routes() -> list[WebSocketRoute]:
    return [WebSocketRoute("/ws", ws_endpoint)]


def echo_routes() -> list[WebSocketRoute]:
    return [WebSocketRoute("/ws/echo", echo_endpoint)]
