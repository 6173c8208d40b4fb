"""The WebSocket ``/ws`` (docs/protocol.md) and the bare echo ``/ws/echo`` of ``bench/load.py``."""

from __future__ import annotations

import asyncio
import contextlib
import json

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from sefode.server import logs
from sefode.server.hub import MAX_REFUSED, Connection
from sefode.server.messages import MAX_MESSAGE_BYTES, ClientError, parse_message, ref_of
from sefode.server.routes.common import hub_of, token


async def ws_endpoint(websocket: WebSocket) -> None:
    hub = hub_of(websocket)
    await websocket.accept()
    found = await hub.player(token(websocket))
    if found is None:
        await websocket.send_text(
            json.dumps({"type": "error", "code": "auth/required", "message": "create a session first"})
        )
        await websocket.close(4401)
        return
    conn = Connection(websocket, found[0])
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
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            if not conn.allow():
                conn.refused += 1
                if conn.refused > MAX_REFUSED:
                    reason = "flooding"
                    logs.warning("conn.flooding", conn=conn.id, player=conn.player_id)
                    break
                conn.error("rate/limited", "too many messages; slow down", None)
                continue
            try:
                msg = parse_message(raw)
                await hub.handle(conn, msg)
            except ClientError as err:
                room_id = conn.room.id if conn.room is not None else None
                logs.event(
                    "ws.refused",
                    conn=conn.id,
                    player=conn.player_id,
                    room=room_id,
                    code=err.code,
                    cause=err.message,
                )
                conn.error(err.code, err.message, ref_of(raw) if len(raw) <= MAX_MESSAGE_BYTES else None)
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
                await websocket.close(4429)
        logs.event("conn.close", conn=conn.id, player=conn.player_id, reason=reason)


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
        if conn.closed is False:
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
