"""Finished matches: the exported history and the engine's replay of it."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sefode.engine import get_game, guard_reason
from sefode.history import export, rebuild, replay
from sefode.server.bodies import History, HistorySeat, Replay
from sefode.server.hub import Hub
from sefode.server.messages import ClientError
from sefode.server.routes.common import api, hub_of
from sefode.store.seats import StoredSeat
from sefode.wire import answer_of


async def finished_history(hub: Hub, match_id: str) -> dict[str, Any]:
    """The exported history of a finished match (ClientError while it is on or unknown)."""
    stored = await hub.db(hub.store.load_match, match_id) if len(match_id) <= 64 else None
    if stored is None:
        raise ClientError("match/not_found", "there is no such match")
    if stored.ended_at is None:
        raise ClientError("match/not_over", "the history is published when the match is over")
    game = get_game(stored.game)
    state = rebuild(game, stored.options, stored.seed, stored.setup, [(s, a) for s, a, _ in stored.actions])
    out = export(game, state)
    guard = guard_reason(game, state, len(stored.actions))
    if guard is not None:  # the guard against endless play ended it (Game.max_decisions): the history says why
        out["result"] = {**game.unfinished_outcome(state).to_json(), "guard": guard}
    accounts = await hub.bot_accounts(s.player_id for s in stored.seats)  # the store for ids not seen here
    bot_names = await hub.db(hub.store.player_names, sorted(accounts)) if accounts else {}
    out["seats"] = [msgspec.to_builtins(seat_kind(i, s, accounts, bot_names)) for i, s in enumerate(stored.seats)]
    answer_of(out, History)  # the history's own keys are as the document says; its setup's differ by game
    return out


def seat_kind(seat: int, held: StoredSeat, bot_players: set[str], names: dict[str, str]) -> HistorySeat:
    """Who held a seat of a stored match, as the export says it (``sefode.history``'s ``seats``): a human (never
    named here), one of the table's bots (its level) or a bot account (its id and name: a bot is always shown as one).
    """
    pid = held.player_id
    if pid and pid in bot_players:
        return HistorySeat(seat=seat, kind="bot_account", player_id=pid, name=names.get(pid))
    if pid:
        return HistorySeat(seat=seat, kind="human")
    return HistorySeat(seat=seat, kind="bot", level=held.bot)


@api
async def history(request: Request) -> Response:
    match_id = request.path_params["match_id"]
    data = await finished_history(hub_of(request), match_id)
    return JSONResponse(data, headers={"content-disposition": f'attachment; filename="sefode-{match_id}.json"'})


@api
async def match_replay(request: Request) -> Response:
    """The finished match replayed by the engine: the history and ``sefode replay``'s result (every hand open)."""
    data = await finished_history(hub_of(request), request.path_params["match_id"])
    out = {"history": data, "replay": replay(data).result()}
    answer_of(out, Replay)
    return JSONResponse(out)


def routes() -> list[Route]:
    return [
        Route("/api/matches/{match_id}/history", history),
        Route("/api/matches/{match_id}/replay", match_replay),
    ]
