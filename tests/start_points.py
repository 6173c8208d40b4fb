"""Start points for tests (the server's test hook, ``sefode.server.startpoint``): a match that begins where a test
needs it, e.g. at hand 20 with seat 0 to bid, instead of playing 20 hands in the page to get there.

:func:`start_point` plays a match in-process with the engine, from a seed, taking legal actions (seeded random by
default) until a predicate holds, and returns the ``{"seed", "actions"}`` a server started with
``SEFODE_TEST_HOOKS=1`` takes as ``"start"`` when creating a solo table (``POST /api/solo``). The server deals the
same match from the same seed (solo tables: no seat's secret choice, so every seat gets the game's default) and
checks and applies the same actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from sefode.engine import Game, get_game
from sefode.server.room import seat_setups

Predicate = Callable[[Game[Any], Any], bool]
"""``(game, state)``: whether the match has reached the point the test starts at."""
Policy = Callable[[Game[Any], Any, int, list[Any], random.Random], Any]
"""``(game, state, seat, legal actions, rng)``: the action ``seat`` takes."""


def random_policy(game: Game[Any], state: Any, seat: int, legal: list[Any], rng: random.Random) -> Any:
    return rng.choice(legal)


def new_state(game: Game[Any], options: Mapping[str, Any], seed: int, setups: list[Any] | None = None) -> Any:
    """The match a solo table deals from ``seed`` (options normalised as the server does); ``setups``: each seat's
    secret choice (a deck) as a room holds it, None for the game's default (a solo table: every seat's)."""
    normal = game.validate_options(dict(options))
    seats = int(normal[game.spec.seats_option]) if game.spec.seats_option is not None else game.spec.min_seats
    return game.new_match(normal, seed, seat_setups(game, normal, seed, setups or [None] * seats))


def start_point(
    game_name: str,
    options: Mapping[str, Any],
    until: Predicate,
    *,
    seed: int = 1,
    policy: Policy = random_policy,
    max_actions: int = 20_000,
    setups: list[Any] | None = None,
) -> dict[str, Any]:
    """The start point ``{"seed", "actions": [[seat, action JSON], ...]}`` of the match of ``game_name`` with
    ``options`` (its seats option included) dealt from ``seed`` (and ``setups``: see :func:`new_state`), played by
    ``policy`` until ``until`` holds. AssertionError if the match ends (or ``max_actions`` pass) first: try another
    seed or policy."""
    game = get_game(game_name)
    state = new_state(game, options, seed, setups)
    rng = random.Random(seed)
    actions: list[list[Any]] = []
    while not until(game, state):
        assert game.outcome(state) is None, f"the match ended before the start point (seed {seed})"
        assert len(actions) < max_actions, f"no start point within {max_actions} actions (seed {seed})"
        seat = min(game.awaiting(state))
        action = policy(game, state, seat, game.legal_actions(state, seat), rng)
        game.apply(state, seat, action)
        actions.append([seat, game.action_json(state, action)])
    return {"seed": seed, "actions": actions}


def before_the_end(
    game_name: str,
    options: Mapping[str, Any],
    *,
    seat: int = 0,
    turns: int = 1,
    where: Predicate | None = None,
    seed: int = 1,
    policy: Policy = random_policy,
) -> dict[str, Any]:
    """A start point near the end of the match ``policy`` plays from ``seed``: just before the ``turns``-th last
    decision of ``seat`` (awaited alone, and ``where`` holding). The page then plays on from there; it may play
    differently from ``policy``, so the end is near, not a given number of turns away."""
    whole = start_point(
        game_name, options, lambda game, state: game.outcome(state) is not None, seed=seed, policy=policy
    )
    game = get_game(game_name)
    state = new_state(game, options, seed)
    marks: list[int] = []
    for index, (actor, entry) in enumerate(whole["actions"]):
        if game.awaiting(state) == {seat} and (where is None or where(game, state)):
            marks.append(index)
        game.apply(state, actor, game.parse_action(state, actor, entry))
    assert len(marks) >= turns, f"seat {seat} has {len(marks)} such decisions in the match (seed {seed})"
    return {"seed": seed, "actions": whole["actions"][: marks[-turns]]}


def first_seed(find: Callable[[int], dict[str, Any] | None], seeds: range = range(1, 200)) -> dict[str, Any]:
    """The first start point ``find(seed)`` gives (None: not this seed), for a point only some deals reach."""
    for seed in seeds:
        found = find(seed)
        if found is not None:
            return found
    raise AssertionError(f"no seed in {seeds} gives the start point")
