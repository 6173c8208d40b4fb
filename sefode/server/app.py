"""The ASGI application: HTTP API, WebSocket ``/ws``, the browser client's files and the rules pages."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import sefode
from sefode.engine import EngineError, get_game
from sefode.history import export, replay
from sefode.server import PROTOCOL, logs
from sefode.server.hub import MAX_REFUSED, Connection, Hub
from sefode.server.messages import LEVELS, MAX_MESSAGE_BYTES, ClientError, parse_message, ref_of
from sefode.store import Store

COOKIE = "sefode_session"
STATIC = Path(sefode.__file__).parent / "web" / "static"
RULES = Path(sefode.__file__).parents[1] / "docs" / "rules"
PLACEHOLDER = (
    "<!doctype html><html lang='pt-BR'><head><meta charset='utf-8'><title>Se Fode</title></head>"
    "<body><h1>Se Fode</h1><p>O cliente ainda não está instalado.</p></body></html>"
)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _token(conn: Request | WebSocket) -> str | None:
    auth = conn.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    query = conn.query_params.get("token")
    if query:
        return query
    return conn.cookies.get(COOKIE)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > 16 * 1024:
        raise ClientError("message/too_large", "the request body is too large")
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        raise ClientError("message/invalid", "the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise ClientError("message/invalid", "the body must be a JSON object")
    return data


def _name(value: Any) -> str:
    if not isinstance(value, str) or not 1 <= len(value.strip()) <= 24:
        raise ClientError("message/invalid", "'name' must be 1 to 24 characters")
    return value.strip()


def _declare_tournament(engine: sa.Engine, room_id: str, matches: int) -> None:
    from sefode.accounts.awarding import create_tournament

    with engine.begin() as conn:
        create_tournament(conn, room_id, matches)


def _extra_routes() -> list[Any]:
    """Routes of optional packages that plug into the server (accounts, leaderboard, tournaments)."""
    try:
        from sefode.accounts.routes import routes as account_routes

        return list(account_routes())
    except ModuleNotFoundError:
        return []
    except Exception as err:  # a broken plug-in must not take the game server down
        logs.error("app.extra_routes_failed", err, package="sefode.accounts")
        return []


def create_app(
    database_url: str | None = None,
    *,
    bot_delay_s: float = 0.8,
    disconnect_grace_s: float = 3.0,
    bot_think_ms: float = 300.0,
    bot_processes: int = 1,
    pause_limit_s: float = 15 * 60,
    static_dir: Path | None = None,
    rules_dir: Path | None = None,
    echo: bool = False,
    log: bool = True,
) -> Starlette:
    """The server. ``database_url`` defaults to ``DATABASE_URL`` or SQLite under the user's data directory.

    ``echo`` adds ``/ws/echo``, a bare WebSocket echo on the same stack, for ``bench/load.py``.
    """
    if log:
        logs.setup_logging()
    store = Store(database_url)
    hub = Hub(
        store,
        bot_delay_s=bot_delay_s,
        disconnect_grace_s=disconnect_grace_s,
        bot_think_ms=bot_think_ms,
        bot_processes=bot_processes,
        pause_limit_s=pause_limit_s,
    )
    static = static_dir or STATIC
    rules_folder = rules_dir or RULES

    async def me(request: Request) -> tuple[str, str]:
        found = await hub.player(_token(request))
        if found is None:
            raise ClientError("auth/required", "create a session first (POST /api/session)")
        return found

    def api(handler: Any) -> Any:
        async def wrapped(request: Request) -> Response:
            try:
                response: Response = await handler(request)
                return response
            except ClientError as err:
                status = {
                    "auth/required": 401,
                    "room/not_found": 404,
                    "room/bad_invite": 404,
                    "match/not_found": 404,
                    "rules/not_found": 404,
                    "match/not_over": 409,
                    "message/too_large": 413,
                }.get(err.code, 400)
                return _error(status, err.code, err.message)
            except EngineError as err:
                return _error(400, err.code, str(err))
            except Exception as err:
                logs.error("http.error", err, path=request.url.path)
                return _error(500, "server/error", "internal error")

        return wrapped

    @api
    async def health(request: Request) -> Response:
        return JSONResponse(
            {"ok": True, "protocol": PROTOCOL, "rooms": len(hub.rooms), "connections": len(hub.connections)}
        )

    @api
    async def session(request: Request) -> Response:
        body = await _body(request)
        name = _name(body.get("name"))
        token = _token(request)
        player_id = await hub.rename(token, name) if token else None
        if player_id is None or token is None:
            token, player_id = await hub.new_session(name)
        response = JSONResponse({"token": token, "player_id": player_id, "name": name})
        response.set_cookie(COOKIE, token, max_age=365 * 24 * 3600, httponly=True, samesite="lax")
        return response

    @api
    async def get_me(request: Request) -> Response:
        player_id, name = await me(request)
        return JSONResponse({"player_id": player_id, "name": name})

    @api
    async def list_rooms(request: Request) -> Response:
        stamp = logs.now_ms()
        rooms = [r.summary() for r in hub.rooms.values() if r.listed(stamp)]
        rooms.sort(key=lambda r: (not r["playing"], -r["connected"], r["name"]))
        return JSONResponse({"rooms": rooms})

    @api
    async def get_room(request: Request) -> Response:
        room = hub.rooms.get(request.path_params["room_id"])
        if room is None:
            raise ClientError("room/not_found", "there is no such room")
        return JSONResponse(room.summary())

    @api
    async def create_room(request: Request) -> Response:
        player_id, _ = await me(request)
        body = await _body(request)
        allowed = {"name", "game", "options", "bots", "clock_s", "visibility", "password", "sit", "tournament"}
        unknown = sorted(set(body) - allowed)
        if unknown:
            raise ClientError("message/invalid", f"unknown key(s) {', '.join(unknown)}")
        name = _name(body.get("name", "Mesa"))
        game = body.get("game", "fodinha")
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise ClientError("message/invalid", "'options' must be a JSON object")
        bots_raw = body.get("bots") or {}
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
        clock_s = body.get("clock_s", 30)
        if isinstance(clock_s, bool) or not isinstance(clock_s, int) or not 5 <= clock_s <= 300:
            raise ClientError("message/invalid", "'clock_s' must be a whole number of seconds from 5 to 300")
        visibility = body.get("visibility", "public")
        if visibility not in ("public", "password", "invite"):
            raise ClientError("message/invalid", "'visibility' is public, password or invite")
        password = body.get("password")
        if visibility == "password" and (not isinstance(password, str) or not 1 <= len(password) <= 128):
            raise ClientError("message/invalid", "a password room needs a 'password' of 1 to 128 characters")
        sit = body.get("sit", True)
        if not isinstance(sit, bool):
            raise ClientError("message/invalid", "'sit' must be true or false")
        tournament = body.get("tournament")
        if tournament is not None and (isinstance(tournament, bool) or tournament not in (3, 5)):
            raise ClientError("message/invalid", "'tournament' is the number of matches of the series: 3 or 5")
        room = await hub.create_room(player_id, name, game, options, bots, clock_s, visibility, password, sit)
        if tournament is not None:
            # Declared with the room (seed 002): the series starts with the room's first match.
            await hub.db(_declare_tournament, hub.store.engine, room.id, tournament)
        return JSONResponse({"room_id": room.id, "invite_token": room.invite_token})

    @api
    async def solo(request: Request) -> Response:
        player_id, name = await me(request)
        body = await _body(request)
        unknown = sorted(set(body) - {"variant", "bots", "level", "teams", "clock_s"})
        if unknown:
            raise ClientError("message/invalid", f"unknown key(s) {', '.join(unknown)}")
        variant = body.get("variant", "sefode")
        count = body.get("bots", 3)
        level = body.get("level", "normal")
        teams = body.get("teams", False)
        clock_s = body.get("clock_s", 60)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 7:
            raise ClientError("message/invalid", "'bots' must be a whole number from 1 to 7")
        if level not in LEVELS:
            raise ClientError("message/invalid", f"'level' is one of {', '.join(LEVELS)}")
        if not isinstance(teams, bool):
            raise ClientError("message/invalid", "'teams' must be true or false")
        if isinstance(clock_s, bool) or not isinstance(clock_s, int) or not 5 <= clock_s <= 300:
            raise ClientError("message/invalid", "'clock_s' must be a whole number of seconds from 5 to 300")
        options = {"variant": variant, "players": count + 1, "teams": teams}
        bots = {seat: level for seat in range(1, count + 1)}
        title = f"Solo: {name}"
        room = await hub.create_room(player_id, title, "fodinha", options, bots, clock_s, "invite", None, True)
        await room.start(player_id)
        return JSONResponse({"room_id": room.id})

    @api
    async def invite(request: Request) -> Response:
        room_id = hub.invites.get(request.path_params["token"])
        if room_id is None:
            raise ClientError("room/bad_invite", "this invite link is not valid")
        return JSONResponse({"room_id": room_id})

    async def finished_history(match_id: str) -> dict[str, Any]:
        """The exported history of a finished match (ClientError while it is on or unknown)."""
        stored = await hub.db(hub.store.load_match, match_id) if len(match_id) <= 64 else None
        if stored is None:
            raise ClientError("match/not_found", "there is no such match")
        if stored.ended_at is None:
            raise ClientError("match/not_over", "the history is published when the match is over")
        game = get_game(stored.game)
        state = game.new_match(stored.options, stored.seed, stored.setup)
        for seat, action_json, _source in stored.actions:
            game.apply(state, seat, game.parse_action(state, seat, action_json))
        return export(game, state)

    @api
    async def history(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        data = await finished_history(match_id)
        return JSONResponse(data, headers={"content-disposition": f'attachment; filename="sefode-{match_id}.json"'})

    @api
    async def match_replay(request: Request) -> Response:
        """The finished match replayed by the engine: the history and ``sefode replay``'s result (every hand open)."""
        data = await finished_history(request.path_params["match_id"])
        return JSONResponse({"history": data, "replay": replay(data).result()})

    @api
    async def rules(request: Request) -> Response:
        variant = request.path_params["variant"]
        path = rules_folder / f"{variant}.md"
        if not variant.replace("-", "").replace("_", "").isalnum() or not path.is_file():
            raise ClientError("rules/not_found", f"there is no rules page for {variant!r}")
        return PlainTextResponse(path.read_text(encoding="utf-8"), media_type="text/markdown; charset=utf-8")

    async def api_not_found(request: Request) -> Response:
        if request.url.path.startswith("/api/rules/"):
            return _error(404, "rules/not_found", "there is no such rules page")
        return _error(404, "api/not_found", f"no API at {request.url.path}")

    async def page(request: Request) -> Response:
        index = static / "index.html"
        if index.is_file():
            return FileResponse(index, media_type="text/html")
        return HTMLResponse(PLACEHOLDER)

    async def ws_endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        found = await hub.player(_token(websocket))
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

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.open()
        try:
            yield
        finally:
            await hub.close()

    routes: list[Any] = [*_extra_routes()]
    if echo:
        routes.append(WebSocketRoute("/ws/echo", echo_endpoint))
    routes += [
        Route("/api/health", health),
        Route("/api/session", session, methods=["POST"]),
        Route("/api/me", get_me),
        Route("/api/rooms", list_rooms),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room_id}", get_room),
        Route("/api/solo", solo, methods=["POST"]),
        Route("/api/invite/{token}", invite),
        Route("/api/matches/{match_id}/history", history),
        Route("/api/matches/{match_id}/replay", match_replay),
        Route("/api/rules/{variant}", rules),
        Route("/api/{rest:path}", api_not_found, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        WebSocketRoute("/ws", ws_endpoint),
        Route("/", page),
        Route("/room/{room_id}", page),
        Route("/invite/{token}", page),
        Route("/rules/{variant}", page),
        Route("/leaderboard", page),
        Route("/account", page),
        Route("/profile", page),
        Route("/players/{player_id}", page),
        Route("/replay/{match_id}", page),
    ]
    if static.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=str(static)), name="static"))
    else:

        async def no_static(request: Request) -> Response:
            return PlainTextResponse("not found", status_code=404)

        routes.append(Route("/static/{path:path}", no_static))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app
