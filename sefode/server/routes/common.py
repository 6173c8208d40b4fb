"""Helpers shared by the route modules: the ``api`` wrapper, errors, the session token, ``me`` and body reading."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from sefode import text
from sefode.engine import EngineError
from sefode.server import logs
from sefode.server.deadlines import body_timeout_s
from sefode.server.hub import Hub
from sefode.server.messages import ClientError
from sefode.wire import BadBody, Body, decode, encoded

B = TypeVar("B", bound=Body)

COOKIE = "sefode_session"
MAX_BODY_BYTES = 16 * 1024
"""A request body is at most this long; a longer one is refused (413) before more of it is read."""
Handler = Callable[[Request], Awaitable[Response]]

STATUS = {
    "auth/required": 401,
    "room/not_found": 404,
    "room/bad_invite": 404,
    "match/not_found": 404,
    "rules/not_found": 404,
    "match/not_over": 409,
    "auth/bot_scope": 403,
    "analysis/not_started": 404,
    "data/not_found": 404,
    "data/full": 409,
    "message/too_large": 413,
    "request/timeout": 408,
    "rate/limited": 429,
    "room/too_many": 429,
    "server/busy": 503,
}
"""HTTP status of a ClientError code (400 when not listed)."""


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def send(value: object, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A JSON answer encoded from its type (an ``Answer`` of ``sefode.server.bodies`` or ``sefode.accounts.bodies``,
    a list of them, or null): what the OpenAPI document says it is (``sefode.server.openapi``)."""
    return Response(encoded(value), status_code=status, media_type="application/json", headers=headers)


def hub_of(conn: HTTPConnection) -> Hub:
    hub: Hub = conn.app.state.hub
    return hub


def static_dir(conn: HTTPConnection) -> Path:
    path: Path = conn.app.state.static_dir
    return path


def token(conn: HTTPConnection) -> str | None:
    """The session token: ``Authorization: Bearer`` or the session cookie (never the URL, which logs keep)."""
    auth = conn.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return conn.cookies.get(COOKIE)


def cookie_secure(conn: HTTPConnection) -> bool:
    """Whether cookies get ``Secure``: the request came over HTTPS, or ``--public-url`` is an https URL."""
    public: str | None = getattr(conn.app.state, "public_url", None)
    return conn.url.scheme in ("https", "wss") or bool(public and public.lower().startswith("https://"))


def set_session_cookie(request: Request, response: Response, tok: str, max_age: int = 365 * 24 * 3600) -> None:
    response.set_cookie(
        COOKIE, tok, max_age=max_age, httponly=True, samesite="lax", secure=cookie_secure(request), path="/"
    )


async def me(request: Request) -> tuple[str, str]:
    """The caller's ``(player_id, name)``; ClientError ``auth/required`` without a session."""
    hub = hub_of(request)
    found = await hub.player(token(request))
    if found is None:
        raise ClientError("auth/required", "create a session first (POST /api/session)")
    if found[0] in hub.bot_players:
        raise ClientError("auth/bot_scope", "a bot account's token is for playing over the WebSocket only")
    return found


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    """The request body, streamed: ClientError ``message/too_large`` as soon as it is known to exceed ``limit``
    (a declared Content-Length over it is refused before any of the body is read), ``request/timeout`` when it has
    not all arrived within the body deadline (``sefode.server.deadlines``), ``request/aborted`` when the client went
    away before sending it all (logged as an event, not as an error: nobody is there to answer)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not (declared.isascii() and declared.isdigit()) or int(declared) > limit):
        raise ClientError("message/too_large", f"a request body is at most {limit} bytes")
    try:
        async with asyncio.timeout(body_timeout_s()):
            return await _stream(request, limit)
    except TimeoutError:
        raise ClientError("request/timeout", "the request body was too slow to arrive") from None
    except ClientDisconnect:
        logs.event("http.client_gone", path=request.url.path)
        raise ClientError("request/aborted", "the client went away before sending the whole body") from None


async def _stream(request: Request, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ClientError("message/too_large", f"a request body is at most {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def body(request: Request, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The JSON object of the request body, under the size cap ``limit`` and the text rule (``sefode.text``)."""
    raw = await read_body(request, limit)
    try:
        data = text.loads(raw or b"{}", where="body")
    except text.TextError as err:
        raise ClientError("message/invalid", err.message) from None
    if not isinstance(data, dict):
        raise ClientError("message/invalid", "the body must be a JSON object")
    return data


def typed(data: dict[str, Any], kind: type[B]) -> B:
    """A request body (``body``) as its type (``sefode.server.bodies``); ClientError when it does not fit."""
    try:
        return decode(data, kind)
    except BadBody as err:
        raise ClientError(err.refusal.code, err.refusal.message) from None


def checked(rule: Callable[[object], str], value: object) -> str:
    """``rule(value)`` with a TextError turned into ClientError (its code: ``message/invalid`` unless it says)."""
    try:
        return rule(value)
    except text.TextError as err:
        raise ClientError(err.code, err.message) from None


def name(value: Any) -> str:
    return checked(text.name, value)


def api(handler: Handler) -> Handler:
    """Turn ClientError and EngineError into JSON 4xx answers, and anything else into a logged 500."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except ClientError as err:
            response = error(STATUS.get(err.code, 400), err.code, err.message)
            if err.code == "server/busy":
                response.headers["retry-after"] = "2"
            return response
        except EngineError as err:
            return error(400, err.code, str(err))
        except Exception as err:
            logs.error("http.error", err, path=request.url.path)
            return error(500, "server/error", "internal error")

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped
