"""Guest sessions and the server's health: ``/api/health``, ``POST /api/session``, ``/api/me``."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sefode.server import PROTOCOL
from sefode.server.routes.common import COOKIE, api, body, hub_of, me, name, token


@api
async def health(request: Request) -> Response:
    hub = hub_of(request)
    out: dict[str, Any] = {
        "ok": True,
        "protocol": PROTOCOL,
        "rooms": len(hub.rooms),
        "connections": len(hub.connections),
    }
    if hub.cluster is not None:  # cluster mode: which node answered, and the rooms it owns
        out |= {"node": hub.cluster.node, "owned": sorted(hub.cluster.leases), "draining": hub.cluster.draining}
        if hub.cluster.draining:
            return JSONResponse(out, status_code=503)
    return JSONResponse(out)


@api
async def session(request: Request) -> Response:
    hub = hub_of(request)
    data = await body(request)
    nick = name(data.get("name"))
    tok = token(request)
    player_id = await hub.rename(tok, nick) if tok else None
    if player_id is None or tok is None:
        tok, player_id = await hub.new_session(nick)
    response = JSONResponse({"token": tok, "player_id": player_id, "name": nick})
    response.set_cookie(COOKIE, tok, max_age=365 * 24 * 3600, httponly=True, samesite="lax")
    return response


@api
async def get_me(request: Request) -> Response:
    player_id, nick = await me(request)
    return JSONResponse({"player_id": player_id, "name": nick})


def routes() -> list[Route]:
    return [
        Route("/api/health", health),
        Route("/api/session", session, methods=["POST"]),
        Route("/api/me", get_me),
    ]
