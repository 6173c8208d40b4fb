"""The conformance suite: the checks every game passes, written against ``sefode.engine.Game`` alone (issue 8 §6,
issue 26). Run it for a game with ``pytest --sefode-game NAME`` (``sefode.testing``); each check takes the game's name
as ``sefode_game_name``. Each runs over seeded random playouts with options drawn from the game's own schema
(``GameSpec.options``), so nothing here names a game:

* the plugin loaded, and the spec is complete;
* no crash and no stall: something is legal for every awaited seat unless the match is over;
* termination: one match with every bot level in every seat (random and the game's levels) ends, within the game's
  longest match (``Game.max_decisions``): every way of playing must end, not only random play;
* determinism: the same options, seed and actions give the same match;
* history round-trip: the export replays (``sefode.history.replay`` and the ``sefode replay`` command) to the same
  report and placements;
* clones are independent, and ``resample`` keeps everything the seat has seen;
* no leak: a seat's view, its past of the match (``Game.past``, given while the match runs) and the public events are
  the same across states that differ only in what it cannot see;
* a valid outcome: placements are a competition ranking and agree with the units;
* bad input: actions from outside are refused with a stable code and change nothing;
* the platform's ``state`` message says whether the match is over and each seat's standing, from the game
  (``Game.is_over``, ``Game.seat_status``), so that neither the server nor the shell reads a view for it;
* conventions: the report leaves ``sefode replay``'s own keys alone (``REPORT_RESERVED``) and its ``hands``, if any, is
  a list; every event is a JSON object with a ``type``;
* updates (``sefode.server.patches``): folding the updates of a match gives every seat and the spectators, state
  after state, exactly the full ``state`` message, and each update carries only values of that seat's new state;
* the view schema (when the game declares one) names keys its views have;
* ``from_view`` (when the game has it): a state rebuilt from a seat's view gives it the same decisions;
* catalogues: the game names its spec and its action labels in ``i18n/pt-BR.json`` and ``i18n/en.json``, with the
  same placeholders.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib import resources
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
    get_game,
)
from sefode.fold import STATE_FIELDS
from sefode.history import export, replay
from sefode.server.matchrun import MatchRun
from sefode.server.messages import encode
from sefode.server.patches import Held, Updates
from sefode.server.present import state_common, state_message
from sefode.server.record import BotLevel, MatchSeat
from sefode.testing.found import why_missing

__all__ = [
    "test_a_game_names_its_spec_in_both_catalogues",
    "test_a_seat_that_is_not_awaited_is_refused_and_nothing_changes",
    "test_a_state_rebuilt_from_a_seats_view_gives_it_the_same_decisions",
    "test_action_labels_are_in_the_catalogue_with_their_params",
    "test_actions_from_outside_are_refused_with_a_stable_code_and_change_nothing",
    "test_clones_are_independent_and_resample_keeps_what_the_seat_has_seen",
    "test_every_bot_level_ends_its_match",
    "test_folding_the_updates_gives_every_seat_its_full_state_and_nothing_more",
    "test_no_crash_no_stall_and_a_valid_outcome",
    "test_no_view_or_event_tells_a_seat_what_it_cannot_see",
    "test_same_options_seed_and_actions_give_the_same_match",
    "test_the_exported_history_replays_to_the_same_report",
    "test_the_game_loaded_and_declares_a_complete_spec",
    "test_the_report_and_the_events_keep_the_platforms_conventions",
    "test_the_standing_is_public_has_a_score_per_seat_and_its_round_never_goes_back",
    "test_the_state_message_says_if_the_match_is_over_and_each_seats_standing",
    "test_the_view_schema_names_keys_the_view_has",
    "test_views_of_many_seats_equal_each_seats_view",
]

PLAYOUTS = 10
MAX_DECISIONS = 20_000
CODE = re.compile(r"^[a-z0-9_]+/[a-z0-9_]+$")


def game_under_test(name: str) -> Game[Any]:
    """The registered game ``name``; a skip naming why when it is not (the "plugin loaded" check fails for it)."""
    missing = why_missing(name)
    if missing is not None:
        pytest.skip(f"{missing} (see test_the_game_loaded_and_declares_a_complete_spec)")
    return get_game(name)


TERMINATION_THINK_MS = 5.0
"""The hard level's budget per decision in the termination check (it also stops at ``TERMINATION_ITERATIONS``)."""
TERMINATION_ITERATIONS = 4


def unended_levels(game: Game[Any], options: dict[str, Any] | None = None, seed: int = 1) -> dict[str, str]:
    """Per bot level, why one match with that level in every seat did not end (empty: every level's match ended).

    The levels are ``random`` and the game's ``spec.bot_levels``; a match is given the game's longest match
    (``Game.max_decisions``, at most ``MAX_DECISIONS``). The platform would stop such a match with its guard; the
    game should not need it: every way of playing must end."""
    from sefode.bots.base import Player, Seen
    from sefode.bots.levels import HardPlayer
    from sefode.bots.players import make_player, player_kinds

    values = game.validate_options(options or {})
    limit = min(MAX_DECISIONS, game.max_decisions(values))
    problems: dict[str, str] = {}
    for level in ["random", *(lv for lv in game.spec.bot_levels if lv in player_kinds() and lv != "random")]:
        state = game.new_match(values, seed)
        players: dict[int, Player] = {}
        decisions = 0
        while game.awaiting(state) and decisions < limit:
            for seat in sorted(game.awaiting(state)):
                if seat not in players:
                    players[seat] = (
                        HardPlayer(seed + seat, TERMINATION_THINK_MS, TERMINATION_ITERATIONS)
                        if level == "hard"
                        else make_player(level, seed + seat, TERMINATION_THINK_MS)
                    )
                game.apply_fast(state, seat, players[seat].choose(Seen(game, state, seat)))
                decisions += 1
        if game.outcome(state) is None:
            problems[level] = (
                f"a match of {game.name} with {level} bots in every seat (options {values}, seed {seed}) did not end "
                f"after {decisions} decisions: every way of playing must end (docs/writing-a-game.md, the termination "
                "rule); make cycles impossible, or declare max_decisions"
            )
    return problems


def test_every_bot_level_ends_its_match(sefode_game_name: str) -> None:
    """Termination: random play may break a cycle that a policy falls into, so every bot level plays a match."""
    game = game_under_test(sefode_game_name)
    problems = unended_levels(game)
    assert not problems, "\n".join(problems.values())


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
        limit = min(MAX_DECISIONS, game.max_decisions(options))
        while game.awaiting(state):
            assert len(steps) < limit, f"{game.name}: no end after {limit} decisions ({options})"
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


def test_no_crash_no_stall_and_a_valid_outcome(sefode_game_name: str) -> None:
    game = game_under_test(sefode_game_name)
    for _options, _seed, state, steps in playouts(game, seed=1):
        outcome = game.outcome(state)
        assert outcome is not None and not game.awaiting(state)
        check_outcome(game, state, outcome)
        assert steps, "a match needs at least one decision"


def test_views_of_many_seats_equal_each_seats_view(sefode_game_name: str) -> None:
    """``Game.views`` (what the server calls after every action) is ``view`` seat by seat, byte for byte, whatever
    the game builds once for all of them."""
    game = game_under_test(sefode_game_name)
    for _options, _seed, state, steps in playouts(game, seed=7, count=4):
        for before in [*(b for _seat, _entry, b in steps if b is not None), state]:
            seats = [None, *range(game.seats(before))]
            many = [json.dumps(v) for v in game.views(before, seats)]
            assert many == [json.dumps(game.view(before, s)) for s in seats]
            assert [json.dumps(v) for v in game.views(before, list(reversed(seats)))] == list(reversed(many))


def test_same_options_seed_and_actions_give_the_same_match(sefode_game_name: str) -> None:
    game = game_under_test(sefode_game_name)
    for options, seed, state, steps in playouts(game, seed=2, count=4):
        again = game.new_match(options, seed)
        for seat, entry, _ in steps:
            apply_entry(game, again, seat, entry)
        assert views(game, again) == views(game, state)
        assert game.history_actions(again) == game.history_actions(state)
        assert json.dumps(game.report(again), sort_keys=True) == json.dumps(game.report(state), sort_keys=True)
        assert game.outcome(again) == game.outcome(state)


def test_the_exported_history_replays_to_the_same_report(sefode_game_name: str, tmp_path: Path) -> None:
    game = game_under_test(sefode_game_name)
    for index, (_options, _seed, state, _steps) in enumerate(playouts(game, seed=3, count=4)):
        history = export(game, state)
        assert history["format"] == "sefode-history/1" and history["game"] == sefode_game_name
        result = replay(json.loads(json.dumps(history))).result()
        assert result["error"] is None
        outcome = game.outcome(state)
        assert outcome is not None and result["over"] is True
        assert result["placements"] == list(outcome.placements)
        for key, value in game.report(state).items():
            assert result[key] == json.loads(json.dumps(value)), key
        if index == 0:  # the command itself, once per game
            path = tmp_path / f"{sefode_game_name}.json"
            path.write_text(json.dumps(history), encoding="utf-8")
            proc = subprocess.run(
                [sys.executable, "-m", "sefode", "replay", str(path)], capture_output=True, text=True, timeout=120
            )
            assert proc.returncode == 0, proc.stderr
            assert json.loads(proc.stdout) == result


def test_clones_are_independent_and_resample_keeps_what_the_seat_has_seen(sefode_game_name: str) -> None:
    game = game_under_test(sefode_game_name)
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


def test_no_view_or_event_tells_a_seat_what_it_cannot_see(sefode_game_name: str) -> None:
    game = game_under_test(sefode_game_name)
    rng = random.Random(5)
    checked = 0
    for _options, _seed, _state, steps in playouts(game, seed=5, count=6):
        for _seat, _entry, before in steps:
            if before is None or not game.awaiting(before):
                continue
            n = game.seats(before)
            spectator = json.dumps(game.view(before, None), sort_keys=True)
            spectator_past = json.dumps(game.past(before, None), sort_keys=True)
            for seat in range(n):
                other = game.resample(before, seat, random.Random(rng.randrange(1 << 30)))
                # What every seat sees (the spectator view) is part of what this seat sees, so it cannot move.
                assert json.dumps(game.view(other, None), sort_keys=True) == spectator
                # The match's past, given on demand while it runs, holds only what the seat has seen.
                assert json.dumps(game.past(other, None), sort_keys=True) == spectator_past, "the past tells more"
                past = json.dumps(game.past(before, seat), sort_keys=True)
                assert json.dumps(game.past(other, seat), sort_keys=True) == past, f"seat {seat}'s past tells more"
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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_actions_from_outside_are_refused_with_a_stable_code_and_change_nothing(
    sefode_game_name: str, data: st.DataObject
) -> None:
    game = game_under_test(sefode_game_name)
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
    keys = sorted(
        {k for a in game.legal_actions(state, min(game.awaiting(state) or {0})) for k in game.action_json(state, a)}
    ) or ["play"]
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


def test_a_seat_that_is_not_awaited_is_refused_and_nothing_changes(sefode_game_name: str) -> None:
    game = game_under_test(sefode_game_name)
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


def test_the_game_loaded_and_declares_a_complete_spec(sefode_game_name: str) -> None:
    """The plugin loaded (its entry point names a ``Game`` of that name), and its spec is complete."""
    missing = why_missing(sefode_game_name)
    if missing is not None:
        pytest.fail(missing, pytrace=False)
    game = get_game(sefode_game_name)
    spec = game.spec
    assert spec.name == sefode_game_name == game.name
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
    assert game.max_decisions(defaults) >= 1


def _decisions(game: Game[Any], state: Any, seat: int) -> list[str]:
    return sorted(json.dumps(game.action_json(state, a), sort_keys=True) for a in game.legal_actions(state, seat))


def test_a_state_rebuilt_from_a_seats_view_gives_it_the_same_decisions(sefode_game_name: str) -> None:
    """``from_view`` (optional; ``sefode bot`` plays a remote table with it, else at random): a state rebuilt from an
    awaited seat's own view awaits it with the same legal actions, and a bot's choice there is legal in the match."""
    from sefode.bots.base import Seen
    from sefode.bots.players import make_player

    game = game_under_test(sefode_game_name)
    first = game.new_match(game.validate_options({}), 1)
    seat0 = min(game.awaiting(first))
    try:
        game.from_view(json.loads(json.dumps(game.view(first, seat0))), seat0)
    except NotImplementedError:
        # No from_view (optional): ``sefode bot`` plays the game with random legal moves. That fallback is taken on
        # Game.from_view's NotImplementedError; an override that raises it is a from_view left half written.
        assert type(game).from_view is Game.from_view, f"{sefode_game_name} overrides from_view but raises"
        return
    bot = make_player("normal", 1, 5.0)
    checked = 0
    for _options, _seed, _state, steps in playouts(game, seed=13, count=3):
        for seat, _entry, before in steps:
            if before is None:
                continue
            rebuilt = game.from_view(json.loads(json.dumps(game.view(before, seat))), seat)
            legal = _decisions(game, before, seat)
            again = _decisions(game, rebuilt, seat)
            assert seat in game.awaiting(rebuilt) and again == legal, f"seat {seat}: {again} != {legal}"
            chosen = game.action_json(rebuilt, bot.choose(Seen(game, rebuilt, seat)))
            assert json.dumps(chosen, sort_keys=True) in legal
            checked += 1
    assert checked > 0


REPORT_RESERVED = frozenset({"over", "placements", "error", "guard"})
"""Keys of ``sefode replay``'s output that the platform writes; a report with one of them would replace it."""


def test_the_report_and_the_events_keep_the_platforms_conventions(sefode_game_name: str) -> None:
    """The report (merged into ``sefode replay``'s output) leaves the platform's keys alone, and its ``hands``, when it
    has them, is the list of hands played (the arena counts them); every event is a JSON object with a ``type``."""
    game = game_under_test(sefode_game_name)
    rng = random.Random(12)
    for options, seed, state, steps in playouts(game, seed=12, count=3):
        report = json.loads(json.dumps(game.report(state)))
        assert isinstance(report, dict)
        clash = sorted(REPORT_RESERVED & set(report))
        assert not clash, f"report keys {clash} would replace the platform's in sefode replay's output"
        assert "hands" not in report or isinstance(report["hands"], list), "report['hands'] is the list of hands"
        again = game.new_match(options, seed)
        for seat, entry, _before in steps[: 40 + rng.randrange(40)]:
            for event in apply_entry(game, again, seat, entry):
                assert isinstance(event, dict) and isinstance(event.get("type"), str) and event["type"], event
                json.dumps(event)


def view_schema_problems(game: Game[Any], seed: int = 13) -> list[str]:
    """What is wrong with the game's view schema (``GameSpec.view_schema``, for the generic renderer), if it declares
    one: every key it names is in every seat's view, and its ``scores`` is a list with one entry per seat."""
    schema = game.spec.view_schema
    if schema is None:
        return []
    named = sorted({*schema.seats, *schema.suits, *schema.cards, *([schema.scores] if schema.scores else [])})
    states = [state for _o, _s, final, steps in playouts(game, seed=seed, count=2) for state in (steps[0][2], final)]
    problems: set[str] = set()
    for state in states:
        seats = game.seats(state)
        for seat in [None, *range(seats)]:
            view = json.loads(json.dumps(game.view(state, seat)))
            problems.update(f"the view schema names {k!r}, which a view does not have" for k in named if k not in view)
            scores = view.get(schema.scores) if schema.scores else None
            if schema.scores in view and not (isinstance(scores, list) and len(scores) == seats):
                problems.add(f"the view schema's scores {schema.scores!r} is not a list with one entry per seat")
    return sorted(problems)


def test_the_standing_is_public_has_a_score_per_seat_and_its_round_never_goes_back(sefode_game_name: str) -> None:
    """``Game.standing`` (optional; the generic search ends its simulations where a round ends): the same in every
    state a seat cannot tell apart, one finite score per seat, a round number that never decreases."""
    game = game_under_test(sefode_game_name)
    rng = random.Random(6)
    for _options, _seed, final, steps in playouts(game, seed=6, count=3):
        if game.standing(final) is None:
            return  # the game does not say where it stands
        last_round = -(1 << 62)
        for _seat, _entry, before in steps:
            if before is None:
                continue
            standing = game.standing(before)
            assert standing is not None, "a game that gives a standing gives it in every state"
            assert len(standing.scores) == game.seats(before), "one score per seat"
            assert all(abs(x) < float("inf") for x in standing.scores)
            assert standing.round >= last_round, "the round went back"
            last_round = standing.round
            for seat in range(game.seats(before)):
                other = game.resample(before, seat, random.Random(rng.randrange(1 << 30)))
                assert game.standing(other) == standing, f"seat {seat} could tell the standing from hidden cards"


def test_the_view_schema_names_keys_the_view_has(sefode_game_name: str) -> None:
    """A game's view schema (optional) names only keys its views have, and its scores has one entry per seat."""
    assert view_schema_problems(game_under_test(sefode_game_name)) == []


def test_the_state_message_says_if_the_match_is_over_and_each_seats_standing(sefode_game_name: str) -> None:
    game = game_under_test(sefode_game_name)
    statuses = {str(x) for x in SeatStatus}
    for options, seed, state, steps in playouts(game, seed=11, count=4):
        states = [game.new_match(options, seed), *(b for _seat, _entry, b in steps if b is not None), state]
        for at in states:
            n = game.seats(at)
            run = MatchRun("m", 1, game, at, seed, options, {}, [MatchSeat(None, BotLevel.EASY) for _ in range(n)])
            common = state_common(run, 0)
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


def _catalogue(game: Game[Any], lang: str) -> dict[str, str] | None:
    try:
        path = resources.files(game.spec.package) / "i18n" / f"{lang}.json"
    except ModuleNotFoundError:
        return None
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return {str(k): str(v) for k, v in data.items()}


def _spec_keys(game: Game[Any]) -> set[str]:
    spec = game.spec
    keys = {spec.title}
    for option in spec.options:
        keys.add(option.label)
        keys.update(option.choice_labels)
        if option.help:
            keys.add(option.help)
    keys.update(v.title for v in spec.variants)
    return keys


def test_a_game_names_its_spec_in_both_catalogues(sefode_game_name: str) -> None:
    game = game_under_test(sefode_game_name)
    pt, en = _catalogue(game, "pt-BR"), _catalogue(game, "en")
    assert pt is not None and en is not None, f"{game.name} has no i18n/pt-BR.json and i18n/en.json"
    assert set(pt) == set(en)
    for key, text in pt.items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", en[key])), key
    assert game.spec.title == f"game.{game.name}.title"
    missing = sorted(_spec_keys(game) - set(pt))
    assert missing == []


def test_action_labels_are_in_the_catalogue_with_their_params(sefode_game_name: str) -> None:
    """Random playouts: every label of every legal action (what the generic client's buttons show) has its key in
    the game's catalogue (or is the generic label), and the text's placeholders are the label's params."""
    game = game_under_test(sefode_game_name)
    pt = _catalogue(game, "pt-BR") or {}
    rng = random.Random(5)
    seen: set[str] = set()
    for seed in range(4):
        state = game.new_match(game.validate_options({}), seed)
        for _ in range(300):
            awaiting = sorted(game.awaiting(state))
            if not awaiting:
                break
            seat = rng.choice(awaiting)
            actions = game.legal_actions(state, seat)
            for action in actions:
                label = game.describe_action(state, seat, action)
                assert set(label) == {"key", "params", "text"}
                assert isinstance(label["text"], str) and label["text"]
                key = label["key"]
                seen.add(key)
                if key == "action.generic":
                    continue
                assert key in pt, f"{game.name}: label key {key} is not in its catalogue"
                assert set(re.findall(r"\{(\w+)\}", pt[key])) <= set(label["params"]), key
            game.apply(state, seat, rng.choice(actions))
    assert seen


class _Link:
    """A stand-in for a connection that takes updates (``sefode.server.patches.Updates`` reads ``last_join``)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.last_join: dict[str, Any] = {"type": "join", "room": "r", "updates": True}


def _at(doc: Any, path: str) -> Any:
    for key in path.split("/") if path else []:
        doc = doc[int(key) if isinstance(doc, list) else key.replace("~1", "/").replace("~0", "~")]
    return doc


def _beyond(seat: int | None, update: dict[str, Any], full: dict[str, Any]) -> list[str]:
    """Each value ``update`` sets or appends that the seat's new full state does not hold at that path."""
    problems = [
        f"seat {seat}: an update gives {k} what its state does not hold"
        for k in STATE_FIELDS
        if k in update and update[k] != full[k]
    ]
    ops = []
    for path, value in update.get("set", {}).items():
        parent = path[:-2] if path.endswith("/-") else ""
        appends = (path == "-" or path.endswith("/-")) and isinstance(_at(full["view"], parent), list)
        ops.append(["+", parent, value] if appends else ["=", path, value])
    for op in [*ops, *update.get("ops", [])]:
        if op[0] == "=" and _at(full["view"], op[1]) != op[2]:
            problems.append(f"seat {seat}: an update sets {op[1]} to what its state does not hold")
        if op[0] == "+" and _at(full["view"], op[1])[-len(op[2]) :] != op[2]:
            problems.append(f"seat {seat}: an update appends to {op[1]} what its state does not hold")
    for op in update.get("legal", []):
        items = op[2] if op[0] == "+" or op[:2] == ["=", ""] else op[4] if op[0] == "*" else []
        actions = [entry["action"] for entry in full["legal"]]  # an item not {"label", …}: an action alone
        full_items = [item for item in items if isinstance(item, dict) and "label" in item]
        alone = [item for item in items if not (isinstance(item, dict) and "label" in item)]
        if any(item not in full["legal"] for item in full_items) or any(a not in actions for a in alone):
            problems.append(f"seat {seat}: an update gives legal actions its state does not hold")
    return problems


def update_problems(game: Game[Any], options: dict[str, Any], seed: int, steps: list[Any]) -> list[str]:
    """Replay a match as a room sends it, every seat and the spectators on a connection that takes updates; what
    folding the updates gives that differs from the full ``state`` messages, and any value an update carries that
    its seat's new state does not hold at that path."""
    state = game.new_match(options, seed)
    n = game.seats(state)
    run = MatchRun("m", 1, game, state, seed, options, {}, [MatchSeat(None, BotLevel.EASY) for _ in range(n)])
    run.awaiting = game.awaiting(state)
    updates = Updates()
    links: list[_Link] = [_Link(None), *(_Link(s) for s in range(n))]
    held: dict[int | None, Held] = {}
    problems: list[str] = []

    def send(events: list[dict[str, Any]], only: int | str | None = "all") -> None:
        common = state_common(run, 0)
        to = [link for link in links if only == "all" or link.seat == only]
        messages = {link.seat: state_message(run, link.seat, events, common) for link in to}
        for link, text in updates.texts([(link, link.seat) for link in to], messages, encode):
            got = json.loads(text)
            full = json.loads(encode({**messages[link.seat], "seq": updates.seq}))
            if got["type"] == "state":
                held[link.seat] = Held(got)
            else:
                problems.extend(_beyond(link.seat, got, full))
                held[link.seat].fold(got)
            if held[link.seat].state != full:
                problems.append(f"seat {link.seat}: after {run.stored} actions the folded state is not the full one")

    send([])
    for seat, entry, _before in steps:
        events = apply_entry(game, run.state, seat, entry)
        secret = run.secret(seat, events)
        while len(links) - 1 < game.seats(run.state):
            links.append(_Link(len(links) - 1))
            run.seats.append(MatchSeat(None, BotLevel.EASY))
        run.advance(seat, secret)
        send(events, seat if secret else "all")
        if problems:
            break
    return problems


def test_folding_the_updates_gives_every_seat_its_full_state_and_nothing_more(sefode_game_name: str) -> None:
    game = game_under_test(sefode_game_name)
    for options, seed, _state, steps in playouts(game, seed=13, count=3):
        assert update_problems(game, options, seed, steps) == [], f"options {options}, seed {seed}"
