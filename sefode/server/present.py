"""Pure presenters: the ``state`` message of a seat (or the spectators), from a match and nothing else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sefode.server.matchrun import MatchRun


@dataclass(frozen=True, slots=True)
class Common:
    """What every seat's ``state`` shares."""

    awaiting: list[int]
    deadlines: dict[str, int]
    earliest: int | None
    over: bool
    """The game's say (``Game.is_over``): the server and the shell read no view for it."""
    seat_status: list[str]
    """``Game.seat_status``, one per seat: playing, out or left."""


def state_common(run: MatchRun) -> Common:
    """What every seat's ``state`` shares: the awaited seats, the clocks, the earliest deadline, whether the match
    is over and each seat's standing."""
    deadlines = {str(s): ms for s, ms in sorted(run.deadlines.items())}
    guarded = run.guard() is not None  # the guard against endless play ended it: nobody is awaited any more
    return Common(
        [] if guarded else sorted(run.game.awaiting(run.state)),
        deadlines,
        min(run.deadlines.values(), default=None),
        guarded or run.game.is_over(run.state),
        [str(x) for x in run.game.seat_status(run.state)],
    )


def state_message(
    run: MatchRun, seat: int | None, events: list[dict[str, Any]], common: Common, view: Any = None
) -> dict[str, Any]:
    """The ``state`` message of one seat (None: the spectators), see docs/protocol.md; ``view`` when it is built
    already (``Game.views``)."""
    awaiting = common.awaiting
    game = run.game
    state = run.state
    legal: list[dict[str, Any]] = []
    if seat is not None and seat in awaiting:
        legal = [
            {"action": game.action_json(state, a), "label": game.describe_action(state, seat, a)}
            for a in game.legal_actions(state, seat)
        ]
    own = run.deadlines.get(seat) if seat is not None else None
    return {
        "type": "state",
        "match_id": run.id,
        "version": run.version_for(seat),
        "seat": seat,
        "view": game.view(state, seat) if view is None else view,
        "events": events,
        "deadline": own if own is not None else common.earliest,
        "deadlines": common.deadlines,
        "awaiting": awaiting,
        "legal": legal,
        "over": common.over,
        "seat_status": common.seat_status,
    }
