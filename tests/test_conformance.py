"""One conformance suite for every registered game (issue 8 §6): a new game, plugins included, gets it for free.

Each check runs over seeded random playouts with options drawn from the game's own schema (``GameSpec.options``),
so nothing here names a game:

* no crash and no stall: something is legal for every awaited seat unless the match is over;
* determinism: the same options, seed and actions give the same match;
* history round-trip: the export replays (``sefode.history.replay`` and the ``sefode replay`` command) to the same
  report and placements;
* clones are independent, and ``resample`` keeps everything the seat has seen;
* no leak: a seat's view, and the public events, are the same across states that differ only in what it cannot see;
* a valid outcome: placements are a competition ranking and agree with the units;
* bad input: actions from outside are refused with a stable code and change nothing;
* the platform's ``state`` message says whether the match is over and each seat's standing, from the game
  (``Game.is_over``, ``Game.seat_status``), so that neither the server nor the shell reads a view for it.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sefode.engine import (
    EngineError,
    Game,
    InvalidOptions,
    OptionKind,
    Outcome,
    SeatStatus,
    apply_entry,
    game_names,
    get_game,
)
from sefode.history import export, replay
from sefode.server.matchrun import MatchRun
from sefode.server.present import state_common, state_message

GAMES = game_names()
PLAYOUTS = 10
MAX_DECISIONS = 20_000
CODE = re.compile(r"^[a-z0-9_]+/[a-z0-9_]+$")


def random_options(game: Game[Any], rng: random.Random) -> dict[str, Any]:
    """Options drawn from the game's schema; the game's own rules between options decide what is kept."""
    spec = game.spec
    for _ in range(40):
        raw: dict[str, Any] = {}
        for option in spec.options:
            if not option.applies(raw):
                continue
            if option.key == spec.seats_option:
                raw[option.key] = rng.randint(option.minimum or spec.min_seats, option.maximum or spec.max_seats)
            elif option.kind is OptionKind.BOOL:
                raw[option.key] = rng.random() < 0.5
            elif option.kind is OptionKind.CHOICE:
                raw[option.key] = rng.choice(option.choices)
            elif option.nullable and rng.random() < 0.6:
                raw[option.key] = None
            else:
                low = option.minimum if option.minimum is not None else 0
                high = option.maximum if option.maximum is not None else low + 10
                raw[option.key] = rng.randint(low, min(high, low + 12))
        try:
            return game.validate_options(raw)
        except InvalidOptions:
            continue
    return game.validate_options({})


def playouts(game: Game[Any], seed: int, count: int = PLAYOUTS) -> Iterator[tuple[dict[str, Any], int, Any, list[Any]]]:
    """``count`` random matches: (options, seed, final state, [(seat, action JSON, state before) ...])."""
    rng = random.Random(seed)
    for _ in range(count):
        options = random_options(game, rng)
        match_seed = rng.randrange(1 << 40)
        state = game.new_match(options, match_seed)
        steps: list[Any] = []
        while game.awaiting(state):
            assert len(steps) < MAX_DECISIONS, f"{game.name}: no end after {MAX_DECISIONS} decisions ({options})"
            seat = rng.choice(sorted(game.awaiting(state)))
            legal = game.legal_actions(state, seat)
            assert legal, f"{game.name}: seat {seat} is awaited but has nothing legal ({options})"
            action = rng.choice(legal)
            before = game.clone(state) if len(steps) < 3 or rng.random() < 0.08 else None
            entry = game.action_json(state, action)
            game.apply(state, seat, action)
            steps.append((seat, entry, before))
        yield options, match_seed, state, steps


def views(game: Game[Any], state: Any) -> list[Any]:
    n = game.seats(state)
    return [json.dumps(game.view(state, s), sort_keys=True) for s in [None, *range(n)]]


def check_outcome(game: Game[Any], state: Any, outcome: Outcome) -> None:
    n = game.seats(state)
    places = outcome.placements
    assert len(places) == n
    if outcome.no_winner:
        assert all(p == n for p in places), "a match with no winner places nobody (every seat last)"
    units = outcome.unit_list()
    assert sorted(s for unit in units for s in unit) == list(range(n)), f"units {units} do not partition the seats"
    for unit in units:
        assert len({places[s] for s in unit}) == 1, f"unit {unit} does not share one place: {places}"
    unit_places = [places[unit[0]] for unit in units]
    for place in unit_places:  # a competition ranking of the units (1 2 2 4), partners sharing their place
        better = sum(1 for p in unit_places if p < place)
        assert outcome.no_winner or place == better + 1, f"placements {places} are not a ranking of {units}"
    if outcome.scores is not None:
        assert len(outcome.scores) == n
    json.dumps(outcome.to_json())


@pytest.mark.parametrize("name", GAMES)
def test_no_crash_no_stall_and_a_valid_outcome(name: str) -> None:
    game = get_game(name)
    for _options, _seed, state, steps in playouts(game, seed=1):
        outcome = game.outcome(state)
        assert outcome is not None and not game.awaiting(state)
        check_outcome(game, state, outcome)
        assert steps, "a match needs at least one decision"


@pytest.mark.parametrize("name", GAMES)
def test_views_of_many_seats_equal_each_seats_view(name: str) -> None:
    """``Game.views`` (what the server calls after every action) is ``view`` seat by seat, byte for byte, whatever
    the game builds once for all of them."""
    game = get_game(name)
    for _options, _seed, state, steps in playouts(game, seed=7, count=4):
        for before in [*(b for _seat, _entry, b in steps if b is not None), state]:
            seats = [None, *range(game.seats(before))]
            many = [json.dumps(v) for v in game.views(before, seats)]
            assert many == [json.dumps(game.view(before, s)) for s in seats]
            assert [json.dumps(v) for v in game.views(before, list(reversed(seats)))] == list(reversed(many))


@pytest.mark.parametrize("name", GAMES)
def test_same_options_seed_and_actions_give_the_same_match(name: str) -> None:
    game = get_game(name)
    for options, seed, state, steps in playouts(game, seed=2, count=4):
        again = game.new_match(options, seed)
        for seat, entry, _ in steps:
            apply_entry(game, again, seat, entry)
        assert views(game, again) == views(game, state)
        assert game.history_actions(again) == game.history_actions(state)
        assert json.dumps(game.report(again), sort_keys=True) == json.dumps(game.report(state), sort_keys=True)
        assert game.outcome(again) == game.outcome(state)


@pytest.mark.parametrize("name", GAMES)
def test_the_exported_history_replays_to_the_same_report(name: str, tmp_path: Path) -> None:
    game = get_game(name)
    for index, (_options, _seed, state, _steps) in enumerate(playouts(game, seed=3, count=4)):
        history = export(game, state)
        assert history["format"] == "sefode-history/1" and history["game"] == name
        result = replay(json.loads(json.dumps(history))).result()
        assert result["error"] is None
        outcome = game.outcome(state)
        assert outcome is not None and result["over"] is True
        assert result["placements"] == list(outcome.placements)
        for key, value in game.report(state).items():
            assert result[key] == json.loads(json.dumps(value)), key
        if index == 0:  # the command itself, once per game
            path = tmp_path / f"{name}.json"
            path.write_text(json.dumps(history), encoding="utf-8")
            proc = subprocess.run(
                [sys.executable, "-m", "sefode", "replay", str(path)], capture_output=True, text=True, timeout=120
            )
            assert proc.returncode == 0, proc.stderr
            assert json.loads(proc.stdout) == result


@pytest.mark.parametrize("name", GAMES)
def test_clones_are_independent_and_resample_keeps_what_the_seat_has_seen(name: str) -> None:
    game = get_game(name)
    rng = random.Random(4)
    checked = 0
    for _options, _seed, _state, steps in playouts(game, seed=4, count=6):
        for _seat, _entry, before in steps:
            if before is None or not game.awaiting(before):
                continue
            checked += 1
            seen = views(game, before)
            history = game.history_actions(before)
            copy = game.clone(before)
            actor = min(game.awaiting(copy))
            game.apply(copy, actor, rng.choice(game.legal_actions(copy, actor)))
            assert views(game, before) == seen, "changing a clone changed the original"
            assert game.history_actions(before) == history
            for seat in range(game.seats(before)):
                other = game.resample(before, seat, random.Random(rng.randrange(1 << 30)))
                assert views(game, before) == seen, "resample changed the original"
                assert json.dumps(game.view(other, seat), sort_keys=True) == seen[seat + 1]
                assert game.infoset_key(other, seat) == game.infoset_key(before, seat)
                assert game.awaiting(other) == game.awaiting(before)
                if seat in game.awaiting(before):
                    assert sorted(game.legal_actions(other, seat)) == sorted(game.legal_actions(before, seat))
    assert checked > 0


@pytest.mark.parametrize("name", GAMES)
def test_no_view_or_event_tells_a_seat_what_it_cannot_see(name: str) -> None:
    game = get_game(name)
    rng = random.Random(5)
    checked = 0
    for _options, _seed, _state, steps in playouts(game, seed=5, count=6):
        for _seat, _entry, before in steps:
            if before is None or not game.awaiting(before):
                continue
            n = game.seats(before)
            spectator = json.dumps(game.view(before, None), sort_keys=True)
            for seat in range(n):
                other = game.resample(before, seat, random.Random(rng.randrange(1 << 30)))
                # What every seat sees (the spectator view) is part of what this seat sees, so it cannot move.
                assert json.dumps(game.view(other, None), sort_keys=True) == spectator
                # The same decision in both states: while the seat's view after it cannot tell them apart, the
                # public events cannot either.
                actor = min(game.awaiting(before))
                legal = set(game.legal_actions(before, actor)) & set(game.legal_actions(other, actor))
                if not legal:
                    continue
                action = rng.choice(sorted(legal))
                a, b = game.clone(before), game.clone(other)
                events_a = game.apply(a, actor, action)
                events_b = game.apply(b, actor, action)
                if json.dumps(game.view(a, seat), sort_keys=True) == json.dumps(game.view(b, seat), sort_keys=True):
                    assert events_a == events_b, f"events differ on what seat {seat} cannot see"
                checked += 1
    assert checked > 0


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=12) | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_actions_from_outside_are_refused_with_a_stable_code_and_change_nothing(name: str, data: st.DataObject) -> None:
    game = get_game(name)
    rng = random.Random(data.draw(st.integers(0, 1 << 30)))
    state = game.new_match(random_options(game, rng), rng.randrange(1 << 30))
    for _ in range(data.draw(st.integers(0, 40))):
        if not game.awaiting(state):
            break
        seat = rng.choice(sorted(game.awaiting(state)))
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    seen = views(game, state)
    history = game.history_actions(state)
    n = game.seats(state)
    keys = sorted({k for a in game.legal_actions(state, min(game.awaiting(state) or {0})) for k in
                   game.action_json(state, a)}) or ["play"]
    message = data.draw(
        st.one_of(
            JUNK,
            st.dictionaries(st.sampled_from([*keys, "seat", "leave", "join", "show"]), JUNK, min_size=1, max_size=2),
        )
    )
    seat = data.draw(st.one_of(st.integers(-2, n + 1), JUNK))
    try:
        apply_entry(game, state, seat, message)
    except EngineError as err:
        assert CODE.match(err.code), err.code
        assert str(err)
        assert views(game, state) == seen and game.history_actions(state) == history
        return
    # Accepted: it must have been a legal decision (or a platform action the game offers) of that seat.
    assert isinstance(seat, int) and 0 <= seat <= n
    # A decision by a seat that is not awaited must never be accepted.
    if isinstance(message, dict) and not set(message) & {"leave", "join", "show"}:
        assert game.history_actions(state) != history


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_that_is_not_awaited_is_refused_and_nothing_changes(name: str) -> None:
    game = get_game(name)
    rng = random.Random(7)
    for _options, _seed, _state, steps in playouts(game, seed=7, count=4):
        for _seat, _entry, before in steps:
            if before is None:
                continue
            idle = [s for s in range(game.seats(before)) if s not in game.awaiting(before)]
            awaited = sorted(game.awaiting(before))
            if not idle or not awaited:
                continue
            seen = views(game, before)
            action = rng.choice(game.legal_actions(before, awaited[0]))
            seat = rng.choice(idle)
            if action in game.legal_actions(before, seat):
                continue
            with pytest.raises(EngineError) as err:
                game.apply(before, seat, action)
            assert CODE.match(err.value.code)
            assert views(game, before) == seen


def test_every_registered_game_declares_a_complete_spec() -> None:
    from sefode.engine import LOAD_ERRORS

    assert LOAD_ERRORS == {}, LOAD_ERRORS
    for name in GAMES:
        game = get_game(name)
        spec = game.spec
        assert spec.name == name == game.name
        assert 1 <= spec.min_seats <= spec.max_seats <= 8
        assert spec.title.startswith("game.")
        assert spec.rules_pages()
        keys = [o.key for o in spec.options]
        assert len(keys) == len(set(keys))
        if spec.seats_option is not None:
            assert spec.seats_option in keys
        assert set(spec.summary) <= set(keys)
        defaults = game.validate_options({})
        assert set(defaults) == set(keys)
        json.dumps(spec.to_json())


@pytest.mark.parametrize("name", GAMES)
def test_the_state_message_says_if_the_match_is_over_and_each_seats_standing(name: str) -> None:
    game = get_game(name)
    statuses = {str(x) for x in SeatStatus}
    for options, seed, state, steps in playouts(game, seed=11, count=4):
        states = [game.new_match(options, seed), *(b for _seat, _entry, b in steps if b is not None), state]
        for at in states:
            n = game.seats(at)
            run = MatchRun("m", 1, game, at, seed, options, {}, [{"player_id": None, "bot": "easy"}] * n)
            common = state_common(run)
            for seat in [None, *range(n)]:
                msg = json.loads(json.dumps(state_message(run, seat, [], common)))
                assert msg["over"] is (game.outcome(at) is not None)
                assert len(msg["seat_status"]) == n and set(msg["seat_status"]) <= statuses
                assert msg["seat_status"] == [str(x) for x in game.seat_status(at)]
            awaited = game.awaiting(at)
            assert all(common.seat_status[s] != SeatStatus.OUT for s in awaited), "an eliminated seat is awaited"
        first = game.new_match(options, seed)
        assert set(game.seat_status(first)) == {SeatStatus.PLAYING}
        assert not game.is_over(first) and game.is_over(state)
