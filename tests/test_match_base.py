"""The base match state (``sefode/match.py``): every game in the project keeps its seed, generator, options, seats,
phase and log there, and answers "is it over?", its options, seed, seats and history from them through ``MatchGame``."""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any

import pytest
from cycling_game import Cycle
from toygame import Lances

from sefode.engine import Game, get_game
from sefode.games.fodinha.state import Phase as FodinhaPhase
from sefode.games.king.state import Phase as KingPhase
from sefode.match import OVER, MatchGame, MatchState, Phase, randbelow, sample_range, seeded_random, shuffle
from sefode.testing.suite import random_options

BUILT_IN = ("fodinha", "king", "trash", "guimenon")


def games() -> list[Game[Any]]:
    return [*(get_game(name) for name in BUILT_IN), Lances(), Cycle()]


def ids(game: Game[Any]) -> str:
    return game.name


@pytest.mark.parametrize("phases", [Phase, FodinhaPhase, KingPhase])
def test_every_phase_enum_has_an_over_member_that_ends_the_match(phases: type[StrEnum]) -> None:
    assert phases["OVER"] == OVER
    assert len({str(p) for p in phases}) == len(phases)


@pytest.mark.parametrize("game", games(), ids=ids)
def test_every_game_answers_from_the_base_fields_through_the_whole_match(game: Game[Any]) -> None:
    assert isinstance(game, MatchGame)
    rng = random.Random(8)
    for _ in range(4):
        options = random_options(game, rng)
        if game.name == "cycle":
            options = game.validate_options({**options, "endless": False})
        seed = rng.randrange(1 << 30)
        state = game.new_match(options, seed)
        assert isinstance(state, MatchState) and isinstance(state.rng, random.Random)
        assert game.options(state) == options and game.options(state) is not state.options
        assert game.match_seed(state) == seed
        decisions = 0
        while True:
            assert game.seats(state) == state.seats
            # One answer to "is it over?": the phase, the base member, the platform's method and the outcome agree.
            over = state.phase == OVER
            assert state.over is over is game.is_over(state) is (game.outcome(state) is not None)
            assert game.history_actions(state) == [{"seat": s, **game.action_json(state, a)} for s, a in state.log]
            assert len(state.log) == decisions
            awaited = sorted(game.awaiting(state))
            assert bool(awaited) is not over
            if not awaited:
                break
            seat = rng.choice(awaited)
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            decisions += 1
        assert game.options(state) == options


@pytest.mark.parametrize("game", games(), ids=ids)
def test_a_clone_draws_what_the_state_would_draw_next_from_a_generator_of_its_own(game: Game[Any]) -> None:
    state = game.new_match(game.validate_options({}), 12)
    state.rng.random()
    copy = game.clone(state)
    assert copy.rng is not state.rng and copy.log is not state.log and copy.log == state.log
    assert (copy.options, copy.seed, copy.seats, copy.phase) == (state.options, state.seed, state.seats, state.phase)
    drawn = [copy.rng.random() for _ in range(5)]
    assert [state.rng.random() for _ in range(5)] == drawn
    copy.rng.random()
    assert copy.rng.random() != state.rng.random()  # independent: each has moved on by its own draws


# The match's chance (``sample_range``, ``shuffle``): the games deal through these instead of ``random.Random``'s own
# methods, and must draw exactly what those draw, or every seed would deal other cards (and stored histories, whose
# deals come from their seed, would replay other matches).
@pytest.mark.parametrize("n", [*range(1, 90), 200, 1000])
def test_sample_range_draws_what_random_sample_draws(n: int) -> None:
    # Both of CPython's methods: a pool (small populations, or many picks) and a set of picks (few from many).
    for k in sorted({0, 1, 2, 3, 4, 5, 6, 7, n // 3, n // 2, n - 1, n}):
        if not 0 <= k <= n:
            continue
        for seed in range(12):
            ours, theirs = random.Random(seed), random.Random(seed)
            assert sample_range(ours, n, k) == theirs.sample(range(n), k), (n, k, seed)
            assert ours.getstate() == theirs.getstate(), "the generator must be left where sample leaves it"


@pytest.mark.parametrize("size", [0, 1, 2, 3, 13, 40, 52, 80, 300])
def test_shuffle_draws_what_random_shuffle_draws(size: int) -> None:
    for seed in range(25):
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, reference = list(range(size)), list(range(size))
        shuffle(ours, mine)
        theirs.shuffle(reference)
        assert mine == reference, (size, seed)
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("seed", [0, 1, -1, 5, 777, 2**40, -(2**70), 10**30])
def test_seeded_random_is_random_random(seed: int) -> None:
    ours, theirs = seeded_random(seed), random.Random(seed)
    assert ours.getstate() == theirs.getstate()
    assert [ours.random() for _ in range(5)] == [theirs.random() for _ in range(5)]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 9, 40, 1000])
def test_randbelow_draws_what_randrange_draws(n: int) -> None:
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        assert [randbelow(ours, n) for _ in range(10)] == [theirs.randrange(n) for _ in range(10)]
        assert ours.getstate() == theirs.getstate()
