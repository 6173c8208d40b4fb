"""Finished matches: the exported history and the engine's replay of it."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sefode.engine import get_game
from sefode.history import export, rebuild, replay
from sefode.server.hub import Hub
from sefode.server.messages import ClientError
from sefode.server.routes.common import api, hub_of


async def finished_history(hub: Hub, match_id: str) -> dict[str, Any]:
    """The exported history of a finished match (ClientError while it is on or unknown)."""
    stored = await hub.db(hub.store.load_match, match_id) if len(match_id) <= 64 else None
    if stored is None:
        raise ClientError("match/not_found", "there is no such match")
    if stored.ended_at is None:
        raise ClientError("match/not_over", "the history is published when the match is over")
    game = get_game(stored.game)
    state = rebuild(game, stored.options, stored.seed, stored.setup, [(s, a) for s, a, _ in stored.actions])
    return export(game, state)


@api
async def history(request: Request) -> Response:
    match_id = request.path_params["match_id"]
    data = await finished_history(hub_of(request), match_id)
    return JSONResponse(data, headers={"content-disposition": f'attachment; filename="sefode-{match_id}.json"'})


@api
async def match_replay(request: Request) -> Response:
    """The finished match replayed by the engine: the history and ``sefode replay``'s result (every hand open)."""
    data = await finished_history(hub_of(request), request.path_params["match_id"])
    return JSONResponse({"history": data, "replay": replay(data).result()})


def routes() -> list[Route]:
    return [
        Route("/api/matches/{match_id}/history", history),
        Route("/api/matches/{match_id}/replay", match_replay),
    ]
