"""Guest sessions and the server's health: ``/api/health``, ``POST /api/session``, ``/api/me``."""

from __future__ import annotations

import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sefode.server import PROTOCOL
from sefode.server.bodies import Health, Me, Session, SessionBody
from sefode.server.limits import client_of, limiter_of
from sefode.server.routes.common import api, body, hub_of, me, name, send, set_session_cookie, token, typed


@api
async def health(request: Request) -> Response:
    hub = hub_of(request)
    out = Health(ok=True, protocol=PROTOCOL, rooms=len(hub.rooms), connections=len(hub.connections))
    if hub.cluster is not None:  # cluster mode: which node answered, and the rooms it owns
        out.node, out.owned, out.draining = hub.cluster.node, sorted(hub.cluster.leases), hub.cluster.draining
        if request.query_params.get("cluster"):  # ?cluster=1: every live node's presence (not for every probe)
            out.cluster = await hub.cluster.presence()
        if hub.cluster.draining:
            return send(out, status=503)
    return send(out)


def _rotate(engine: sa.Engine, tok: str) -> str | None:
    from sefode.accounts.service import rotate_token

    with engine.begin() as conn:
        session = rotate_token(conn, tok)
    return None if session is None else session.token


@api
async def session(request: Request) -> Response:
    """Start a guest session, or rename the current one. Either way the answer carries a token the server has just
    issued: a token the browser already held is retired (no session fixation), an unknown one is ignored."""
    hub = hub_of(request)
    nick = name(typed(await body(request), SessionBody).name)
    limiter_of(request).new_session(client_of(request))
    old = token(request)
    found = await hub.player(old) if old else None
    fresh = await hub.db(_rotate, hub.store.engine, old) if found is not None and old else None
    if old:
        hub.sessions.pop(old, None)
    player_id = await hub.rename(fresh, nick) if fresh else None
    if player_id is None or fresh is None:
        fresh, player_id = await hub.new_session(nick)
    response = send(Session(token=fresh, player_id=player_id, name=nick))
    set_session_cookie(request, response, fresh)
    return response


@api
async def get_me(request: Request) -> Response:
    player_id, nick = await me(request)
    return send(Me(player_id=player_id, name=nick))


def routes() -> list[Route]:
    return [
        Route("/api/health", health),
        Route("/api/session", session, methods=["POST"]),
        Route("/api/me", get_me),
    ]
