"""Start points, a test hook: a match that begins at a chosen point instead of at its first action.

A start point is ``{"seed": n, "actions": [[seat, action JSON], ...]}``: the match is dealt from ``seed`` and the
actions are applied through the engine, each checked as a played action is (``parse_action`` then ``apply``), before
anyone sees the match; they are stored as its first actions with the source ``start``, so that its history, its
replay and a room rebuilt from the store agree. Bots play on from there. Tests compute start points with the engine
(``tests/start_points.py``) so that a layout test begins at the hand it checks instead of playing up to it.

The field rides in ``POST /api/solo`` (a solo table) or in a room owner's WebSocket ``start`` message (a room of
several humans starts at that point; ``Hub.handle`` reads it on the node that holds the room, and the room applies
it before anything is stored). Off by default: only a server started with ``SEFODE_TEST_HOOKS=1``
(``create_app(test_hooks=True)``) takes the field; any other refuses it with ``start/disabled``. Nothing here knows a
game: it goes through the ``Game`` interface.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection

from sefode.engine import PLATFORM_ACTIONS, EngineError, Game, check_seat
from sefode.server.matchrun import MatchRun
from sefode.server.messages import ClientError

MAX_ACTIONS = 20_000
"""The most actions a start point may carry."""
BODY_BYTES = 2 * 1024 * 1024
"""The request body cap of a solo table's creation, and of a ``start`` message, while the hook is on (a start point at
hand 20 of a long match is more than the usual 16 KiB body or 4 KiB message)."""
SETTING = "SEFODE_TEST_HOOKS"


@dataclass(frozen=True)
class StartPoint:
    seed: int
    actions: tuple[tuple[int, Mapping[str, Any]], ...]


def enabled(conn: HTTPConnection) -> bool:
    """Whether this server takes test hooks (``create_app(test_hooks=...)``)."""
    return bool(getattr(conn.app.state, "test_hooks", False))


def read(raw: object, hooks_on: bool) -> StartPoint:
    """The request's ``start`` field, checked for shape (its actions are checked by :func:`play`)."""
    if not hooks_on:
        raise ClientError("start/disabled", f"'start' is a test hook: this server was not started with {SETTING}=1")
    if not isinstance(raw, dict) or set(raw) - {"seed", "actions"} or "seed" not in raw:
        raise ClientError("message/invalid", '\'start\' is {"seed": n, "actions": [[seat, action], ...]}')
    seed = raw["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ClientError("message/invalid", "start: 'seed' must be a whole number from 0 to 2**63 - 1")
    actions = raw.get("actions", [])
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise ClientError("message/invalid", f"start: 'actions' must be a list of at most {MAX_ACTIONS} actions")
    pairs: list[tuple[int, Mapping[str, Any]]] = []
    for index, pair in enumerate(actions):
        ok = isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], dict)
        if not ok or isinstance(pair[0], bool) or not isinstance(pair[0], int):
            raise ClientError("message/invalid", f"start: action {index} must be [seat, action object]")
        if set(pair[1]) & set(PLATFORM_ACTIONS):
            raise ClientError("message/invalid", f"start: action {index}: only game actions may be given")
        pairs.append((pair[0], pair[1]))
    return StartPoint(seed, tuple(pairs))


def play(game: Game[Any], state: Any, start: StartPoint) -> Iterator[tuple[int, dict[str, Any], list[dict[str, Any]]]]:
    """Apply the start point's actions to ``state`` (a new match dealt from ``start.seed``), in order, each checked
    as a played action is; yield each one's seat, JSON (as a played action is stored) and events, after applying it.
    ClientError ``start/refused`` at the first one the engine refuses (saying which, and why), ``start/over`` when
    they end the match: a start point leaves it on."""
    for index, (seat, entry) in enumerate(start.actions):
        try:
            checked = check_seat(seat, game.seats(state))
            action = game.parse_action(state, checked, entry)
            events = game.apply(state, checked, action)
            normal = game.action_json(state, action)  # as ``play.apply`` stores a played action
        except EngineError as err:
            raise ClientError("start/refused", f"start: action {index} was refused ({err.code}): {err}") from None
        yield checked, normal, events
    if game.outcome(state) is not None:
        raise ClientError("start/over", "start: these actions end the match; a start point must leave it on")


def check(game: Game[Any], options: dict[str, Any], setup: dict[str, Any] | None, start: StartPoint) -> None:
    """A dry run of ``start`` on a match of its own (before a room is made for it): ClientError if it is refused."""
    try:
        state = game.new_match(options, start.seed, setup)
    except EngineError as err:
        raise ClientError(err.code, str(err)) from None
    for _ in play(game, state, start):
        pass


def play_into(run: MatchRun, start: StartPoint) -> list[tuple[int, dict[str, Any]]]:
    """Apply ``start`` to a new match's ``run`` and count each action as the room counts a played one (versions,
    the recap; ``Room.restore_match`` replays the same way); return the ``(seat, JSON)`` pairs to store."""
    entries: list[tuple[int, dict[str, Any]]] = []
    for seat, entry, events in play(run.game, run.state, start):
        secret = run.secret(seat, events)
        if not secret:
            run.record(events)
        run.advance(seat, secret)
        entries.append((seat, entry))
    return entries
