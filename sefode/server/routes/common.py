"""Helpers shared by the route modules: the ``api`` wrapper, errors, the session token, ``me`` and body reading."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from sefode.engine import EngineError
from sefode.server import logs
from sefode.server.hub import Hub
from sefode.server.messages import ClientError

COOKIE = "sefode_session"
Handler = Callable[[Request], Awaitable[Response]]

STATUS = {
    "auth/required": 401,
    "room/not_found": 404,
    "room/bad_invite": 404,
    "match/not_found": 404,
    "rules/not_found": 404,
    "match/not_over": 409,
    "message/too_large": 413,
}
"""HTTP status of a ClientError code (400 when not listed)."""


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def hub_of(conn: HTTPConnection) -> Hub:
    hub: Hub = conn.app.state.hub
    return hub


def static_dir(conn: HTTPConnection) -> Path:
    path: Path = conn.app.state.static_dir
    return path


def token(conn: HTTPConnection) -> str | None:
    auth = conn.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    query = conn.query_params.get("token")
    if query:
        return query
    return conn.cookies.get(COOKIE)


async def me(request: Request) -> tuple[str, str]:
    """The caller's ``(player_id, name)``; ClientError ``auth/required`` without a session."""
    found = await hub_of(request).player(token(request))
    if found is None:
        raise ClientError("auth/required", "create a session first (POST /api/session)")
    return found


async def body(request: Request) -> dict[str, Any]:
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


def name(value: Any) -> str:
    if not isinstance(value, str) or not 1 <= len(value.strip()) <= 24:
        raise ClientError("message/invalid", "'name' must be 1 to 24 characters")
    return value.strip()


def api(handler: Handler) -> Handler:
    """Turn ClientError and EngineError into JSON 4xx answers, and anything else into a logged 500."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except ClientError as err:
            return error(STATUS.get(err.code, 400), err.code, err.message)
        except EngineError as err:
            return error(400, err.code, str(err))
        except Exception as err:
            logs.error("http.error", err, path=request.url.path)
            return error(500, "server/error", "internal error")

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped
