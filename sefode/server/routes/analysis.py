"""Move analysis of a finished match on the server (issue 15 §3; ``sefode.analysis``, ``docs/bots.md``).

``POST /api/matches/{id}/analysis?seat=N`` starts the analysis of one seat's decisions (or returns the one already
made: results are cached per match and seat), ``GET`` the same path reports it: ``{"status": "running", "done",
"total"}``, then ``{"status": "done", "analysis": {...}}`` (or ``"failed"`` with ``error``). It runs in a worker thread
of its own (one analysis at a time, so that the tables' bots keep their threads), with a total budget
(``ANALYSIS_BUDGET_S``, spread over the seat's decisions, at most ``sefode analyse``'s default per decision).

``GET /api/rooms/{id}/coach?since=N&until=M`` is the solo coach (the table page's "Dica" after each hand), in a
thread of its own as well (a few seconds a hand, one request at a time per player), so that a tip never waits for an
analysis to finish. The budgets may be set with ``SEFODE_ANALYSIS_BUDGET_S`` and ``SEFODE_COACH_BUDGET_S`` (the
browser tests keep them small), or on ``app.state`` (``analysis_budget_s``, ``coach_budget_s``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sefode.analysis import DEFAULT_THINK_MS, analyse, count_decisions, highlights
from sefode.history import FORMAT, replay
from sefode.server import metrics
from sefode.server.bodies import Analysis, Coach
from sefode.server.limits import client_of
from sefode.server.messages import ClientError
from sefode.server.routes.common import api, hub_of, me, send
from sefode.server.routes.matches import finished_history
from sefode.server.work import FairPool

ANALYSIS_BUDGET_S = 60.0
"""The total search time of one analysis (a 10-hand Se Fode match has about 55 decisions of one seat)."""
CACHE_SIZE = 256
PENDING_MOST = 3
"""Analyses running or waiting at once on this server (each takes up to its budget of search): more is refused."""
PER_CLIENT_MOST = 2
"""Coach requests (or analyses) of one client address running or waiting at once: more is refused at once."""
COACH_QUEUE_MOST = 32
"""Coach requests running or waiting at once on this server: more is refused at once (``server/busy``)."""


@dataclass
class Job:
    total: int
    done: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    task: asyncio.Future[Any] | None = field(default=None, repr=False)

    def answer(self) -> Analysis:
        if self.result is not None:
            return Analysis(status="done", done=self.total, total=self.total, analysis=self.result)
        if self.error is not None:
            return Analysis(status="failed", done=self.done, total=self.total, error=self.error)
        return Analysis(status="running", done=self.done, total=self.total)


@dataclass
class Analyses:
    jobs: dict[tuple[str, int], Job] = field(default_factory=dict)
    coaching: set[str] = field(default_factory=set)
    """Players whose coach request is being answered (one at a time each)."""
    coach_worker: FairPool = field(
        default_factory=lambda: FairPool("sefode-coach", "coaching", per_key=PER_CLIENT_MOST, queue=COACH_QUEUE_MOST)
    )
    """The solo coach's own thread (a few seconds a hand), so that a tip never waits behind a match's analysis; its
    clients (addresses) are served in turn, so that one address's many guests never hold up another's tip."""
    worker: FairPool = field(
        default_factory=lambda: FairPool("sefode-analysis", "analyses", per_key=PER_CLIENT_MOST, queue=PENDING_MOST)
    )
    """The match analyses' own thread, its clients served in turn as the coach's."""


def _analyses(request: Request) -> Analyses:
    state = request.app.state
    found = getattr(state, "analyses", None)
    if not isinstance(found, Analyses):
        found = Analyses()
        state.analyses = found
    return found


def _budget(request: Request, attribute: str, variable: str, default: float) -> float:
    """A search budget in seconds: ``app.state.<attribute>``, else the environment's ``variable``, else ``default``."""
    found = getattr(request.app.state, attribute, None)
    if isinstance(found, int | float):
        return float(found)
    try:
        return float(os.environ.get(variable, default))
    except ValueError:
        return default


def _whole(request: Request, name: str, default: int | None) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return max(0, int(raw))
    except ValueError:
        raise ClientError("message/invalid", f"'{name}' must be a whole number") from None


def _seat(request: Request, history: dict[str, Any]) -> int:
    raw = request.query_params.get("seat", "")
    replayed = replay(history)
    assert replayed.game is not None
    seats = replayed.game.seats(replayed.state)
    try:
        seat = int(raw)
    except ValueError:
        seat = -1
    if not 0 <= seat < seats:
        raise ClientError("message/invalid", f"'seat' must be a seat of this match: 0 to {seats - 1}")
    return seat


async def _job(request: Request, start: bool) -> Job:
    match_id = request.path_params["match_id"]
    history = await finished_history(hub_of(request), match_id)
    seat = _seat(request, history)
    analyses = _analyses(request)
    key = (match_id, seat)
    job = analyses.jobs.get(key)
    if job is not None and (job.error is None or not start):
        return job
    if not start:
        raise ClientError("analysis/not_started", "start the analysis first (POST)")
    pending = sum(1 for j in analyses.jobs.values() if j.task is not None and not j.task.done())
    client = client_of(request)
    if pending >= PENDING_MOST or analyses.worker.held(client) >= PER_CLIENT_MOST:
        metrics.RATE_LIMITED.labels("analyses").inc()
        raise ClientError("rate/limited", "the server is analysing other matches; try again in a minute")
    total = count_decisions(history, seat)
    budget_s = _budget(request, "analysis_budget_s", "SEFODE_ANALYSIS_BUDGET_S", ANALYSIS_BUDGET_S)
    think_ms = min(DEFAULT_THINK_MS, budget_s * 1000.0 / max(1, total))
    job = Job(total=total)
    if len(analyses.jobs) >= CACHE_SIZE:  # forget the oldest finished ones
        for old in [k for k, j in analyses.jobs.items() if j.task is None or j.task.done()][: CACHE_SIZE // 4]:
            analyses.jobs.pop(old, None)
    analyses.jobs[key] = job

    def progress(done: int, _total: int) -> None:
        job.done = done

    def run() -> dict[str, Any]:
        return analyse(history, seat, think_ms, progress=progress)

    async def supervise() -> None:
        try:
            job.result = await analyses.worker.run(client, run)
        except Exception as err:  # reported to the page; a new POST tries again
            job.error = f"{type(err).__name__}: {err}"

    job.task = asyncio.ensure_future(supervise())
    return job


@api
async def start_analysis(request: Request) -> Response:
    await me(request)  # starting a search needs a session (reading a finished one does not)
    return send((await _job(request, True)).answer())


@api
async def analysis_status(request: Request) -> Response:
    return send((await _job(request, False)).answer())


COACH_BUDGET_S = 3.0
"""The solo coach's total search time for one request."""


@api
async def coach(request: Request) -> Response:
    """The solo coach: the hard bot's view of the caller's decisions in the match on, from history index ``since``
    up to (not including) ``until`` (``GET /api/rooms/{id}/coach?since=N&until=M``; the page sends the table's
    versions at the last two ends of a hand), each judged from the caller's information set at that moment. Only at a
    solo table (every other seat a bot), so that it never helps anyone against people. The answer lists the decisions
    (as ``sefode analyse`` does) and ``highlights``, the history indexes of those worth naming (the bid, the mistakes);
    empty when there is nothing to say."""
    hub = hub_of(request)
    player_id, _ = await me(request)
    room = hub.rooms.get(request.path_params["room_id"])
    run = room.match if room is not None else None
    if room is None or run is None:
        raise ClientError("room/no_match", "there is no match at this table")
    seat = run.seat_of(player_id)
    if seat is None:
        raise ClientError("room/not_seated", "you do not play this match")
    if any(not s.bot and s.player_id != player_id for s in run.seats):
        raise ClientError("coach/not_solo", "the coach helps only at a solo table (every other seat a bot)")
    since = _whole(request, "since", 0) or 0
    until = _whole(request, "until", None)
    analyses = _analyses(request)
    if player_id in analyses.coaching:
        metrics.RATE_LIMITED.labels("coach").inc()
        raise ClientError("rate/limited", "the coach is still thinking about your last request")
    game = run.game
    # The server's own copy of the history (with the seed, which never leaves the server): the decisions are rebuilt
    # from it, and each is judged only through a Seen of the caller's seat.
    history = {
        "format": FORMAT,
        "game": game.name,
        "options": dict(run.options),
        "seed": run.seed,
        **run.setup,
        "actions": game.history_actions(run.state),
    }
    total = count_decisions(history, seat, since, until)
    budget_s = _budget(request, "coach_budget_s", "SEFODE_COACH_BUDGET_S", COACH_BUDGET_S)
    think_ms = min(DEFAULT_THINK_MS, budget_s * 1000.0 / max(1, total))
    analyses.coaching.add(player_id)
    try:
        result = await analyses.coach_worker.run(
            client_of(request), lambda: analyse(history, seat, think_ms, since=since, until=until)
        )
    finally:
        analyses.coaching.discard(player_id)
    decisions = result["decisions"]
    return send(Coach(seat=seat, since=since, until=until, decisions=decisions, highlights=highlights(decisions)))


def shutdown(app_state: Any) -> None:
    found = getattr(app_state, "analyses", None)
    if isinstance(found, Analyses):
        for job in found.jobs.values():
            if job.task is not None:
                with contextlib.suppress(Exception):
                    job.task.cancel()
        found.worker.close()
        found.coach_worker.close()


def routes() -> list[Route]:
    return [
        Route("/api/matches/{match_id}/analysis", analysis_status),
        Route("/api/matches/{match_id}/analysis", start_analysis, methods=["POST"]),
        Route("/api/rooms/{room_id}/coach", coach),
    ]
