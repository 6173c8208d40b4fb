"""The engine interface expresses simultaneous secret turns: proved with the test-only game in toygame.py."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from toygame import Lances, LancesState

from sefode.engine import (
    Event,
    IllegalAction,
    InvalidOptions,
    MatchOver,
    NotYourTurn,
    game_names,
    get_game,
    register,
    unregister,
)
from sefode.history import export, replay

GAME = Lances()


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    previous = get_game(GAME.name) if GAME.name in game_names() else None  # the installed plugin, usually
    register(GAME)
    yield
    unregister(GAME.name)
    if previous is not None:
        register(previous)


def _fresh(seed: int = 5, rounds: int = 3) -> LancesState:
    return GAME.new_match({"rounds": rounds}, seed)


def _secret_cards(st: LancesState) -> list[int]:
    """Cards not yet revealed: both hands, sealed submissions, the prize deck."""
    return sorted(st.hands[0] + st.hands[1] + st.deck + [p for p in st.pending if p is not None])


def _all_ints(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [i for v in value.values() for i in _all_ints(v)]
    if isinstance(value, list):
        return [i for v in value for i in _all_ints(v)]
    return []


def _play_out(st: LancesState, rng: random.Random, order_first: int | None = None) -> list[Event]:
    events: list[Event] = []
    while GAME.awaiting(st):
        waiting = sorted(GAME.awaiting(st))
        if order_first is not None and order_first in waiting:
            waiting.remove(order_first)
            waiting.insert(0, order_first)
        seat = waiting[0]
        events += GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
    return events


def test_simultaneous_turn_awaits_both_seats() -> None:
    st = _fresh()
    assert GAME.awaiting(st) == frozenset({0, 1})
    assert GAME.legal_actions(st, 0) == st.hands[0] and GAME.legal_actions(st, 1) == st.hands[1]
    GAME.apply(st, 1, st.hands[1][0])
    assert GAME.awaiting(st) == frozenset({0})
    assert GAME.legal_actions(st, 1) == []
    GAME.apply(st, 0, st.hands[0][0])
    assert GAME.awaiting(st) == frozenset({0, 1}), "a new round awaits both seats again"


def test_submission_is_secret_until_both_have_submitted() -> None:
    st = _fresh(seed=9)
    card = st.hands[0][-1]
    before_other = GAME.view(st, 1)
    before_spectator = GAME.view(st, None)
    events = GAME.apply(st, 0, card)
    # The event says only that seat 0 submitted.
    assert events == [{"type": "submitted", "seat": 0}]
    other = GAME.view(st, 1)
    spectator = GAME.view(st, None)
    for before, after in ((before_other, other), (before_spectator, spectator)):
        changed = {k for k in after if after[k] != before[k]}
        # What changed for the others: that seat 0 submitted, and its hand is one card shorter.
        assert changed <= {"submitted", "hand_counts", "awaiting"}, changed
        assert card not in _all_ints({k: after[k] for k in changed})
    assert other["submitted"] == [True, False] and other["my_submission"] is None
    assert spectator["hand"] is None and spectator["my_submission"] is None
    # The submitting seat sees its own sealed card.
    assert GAME.view(st, 0)["my_submission"] == card
    # Revealed once both submitted.
    events = GAME.apply(st, 1, st.hands[1][0])
    reveal = next(e for e in events if e["type"] == "reveal")
    assert reveal["cards"][0] == card
    assert GAME.view(st, None)["history"][0]["cards"][0] == card


def _perturbed(st: LancesState, viewer: int | None, rng: random.Random) -> LancesState:
    """The same match with every card ``viewer`` may not see dealt again (done here, not by the game)."""
    out = GAME.clone(st)
    hidden_seats = [s for s in (0, 1) if s != viewer]
    pool = list(out.deck)
    for s in hidden_seats:
        pool += out.hands[s]
        pool += [p for p in [out.pending[s]] if p is not None]
    rng.shuffle(pool)
    for s in hidden_seats:
        k = len(out.hands[s])
        out.hands[s], pool = sorted(pool[:k]), pool[k:]
        if out.pending[s] is not None:
            out.pending[s], pool = pool[0], pool[1:]
    out.deck = pool
    return out


def test_no_view_or_event_shows_a_secret_card_in_random_matches() -> None:
    rng = random.Random(3)
    for seed in range(60):
        st = _fresh(seed, rounds=rng.randint(1, 5))
        while GAME.awaiting(st):
            seat = rng.choice(sorted(GAME.awaiting(st)))
            events = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
            for event in events:
                if event["type"] == "submitted":
                    assert set(event) == {"type", "seat"}
                if event["type"] == "reveal":
                    assert event["cards"] == list(st.done[-1].cards)
            for viewer in (0, 1, None):
                view = GAME.view(st, viewer)
                if viewer is None:
                    assert view["hand"] is None and view["my_submission"] is None and view["legal"] == []
                else:
                    assert view["hand"] == st.hands[viewer] and view["my_submission"] == st.pending[viewer]
                # Whatever the viewer may not see can be anything: the view does not change.
                for _ in range(3):
                    assert GAME.view(_perturbed(st, viewer, rng), viewer) == view, (seed, viewer)


def test_order_of_submission_does_not_matter() -> None:
    a = _fresh(seed=21)
    b = _fresh(seed=21)
    while GAME.awaiting(a):
        c0, c1 = GAME.legal_actions(a, 0)[-1], GAME.legal_actions(a, 1)[0]
        GAME.apply(a, 0, c0)
        GAME.apply(a, 1, c1)
        GAME.apply(b, 1, c1)
        GAME.apply(b, 0, c0)
        for seat in (0, 1, None):
            assert GAME.view(a, seat) == GAME.view(b, seat)
    assert GAME.outcome(a) == GAME.outcome(b) is not None


def test_tie_is_settled_by_the_seeded_coin() -> None:
    # Force ties by giving both seats the same hands: the coin (seeded) decides, the same way every time.
    winners = []
    for _ in range(2):
        st = _fresh(seed=4, rounds=1)
        st.hands[1] = list(st.hands[0])
        card = st.hands[0][0]
        GAME.apply(st, 0, card)
        events = GAME.apply(st, 1, card)
        reveal = next(e for e in events if e["type"] == "reveal")
        assert reveal["coin"] is True
        winners.append(reveal["winner"])
    assert winners[0] == winners[1]


def test_checked_apply_rejects_a_second_submission() -> None:
    st = _fresh()
    GAME.apply(st, 0, st.hands[0][0])
    snapshot = GAME.view(st, 0), GAME.view(st, 1)
    with pytest.raises(NotYourTurn) as err:
        GAME.apply(st, 0, st.hands[0][0])
    assert err.value.code == "action/already_submitted"
    assert isinstance(err.value, IllegalAction)
    assert "already submitted" in str(err.value)
    assert (GAME.view(st, 0), GAME.view(st, 1)) == snapshot, "a rejected action changes nothing"


@pytest.mark.parametrize("seat", [-1, 2, 7, True, "0", None])
def test_checked_apply_rejects_wrong_seats(seat: Any) -> None:
    st = _fresh()
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, seat, st.hands[0][0])
    assert err.value.code == "action/bad_seat"
    assert "seat must be" in str(err.value)


def test_checked_apply_rejects_a_card_not_held() -> None:
    st = _fresh()
    missing = next(c for c in range(1, 16) if c not in st.hands[0])
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, 0, missing)
    assert err.value.code == "action/card_not_in_hand"
    assert GAME.awaiting(st) == frozenset({0, 1})


def test_checked_apply_rejects_actions_after_the_match() -> None:
    st = _fresh(rounds=1)
    _play_out(st, random.Random(0))
    assert GAME.awaiting(st) == frozenset() and GAME.outcome(st) is not None
    with pytest.raises(MatchOver) as err:
        GAME.apply(st, 0, 1)
    assert err.value.code == "action/match_over"


def test_same_seed_and_actions_give_the_same_match() -> None:
    for seed in range(20):
        a = _fresh(seed, rounds=5)
        events_a = _play_out(a, random.Random(seed))
        b = _fresh(seed, rounds=5)
        events_b = _play_out(b, random.Random(seed))
        assert events_a == events_b
        assert GAME.report(a) == GAME.report(b)
    # And a different seed deals differently.
    assert _fresh(1).hands != _fresh(2).hands


def test_checked_and_fast_paths_agree() -> None:
    rng = random.Random(8)
    a = _fresh(seed=8, rounds=5)
    b = GAME.clone(a)
    while GAME.awaiting(a):
        seat = rng.choice(sorted(GAME.awaiting(a)))
        action = rng.choice(GAME.legal_actions(a, seat))
        GAME.apply(a, seat, action)
        GAME.apply_fast(b, seat, action)
        assert all(GAME.view(a, s) == GAME.view(b, s) for s in (0, 1, None))
    assert GAME.outcome(a) == GAME.outcome(b)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"rounds": 0}, "from 1 to 5"),
        ({"rounds": 6}, "from 1 to 5"),
        ({"rounds": "3"}, "whole number"),
        ({"rounds": True}, "whole number"),
        ({"round": 3}, "unknown option"),
    ],
)
def test_invalid_options_are_rejected_with_a_clear_message(options: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidOptions) as err:
        GAME.new_match(options, 1)
    assert words in str(err.value)
    assert err.value.code == "options/invalid"


def test_resample_keeps_the_seats_information_set() -> None:
    rng = random.Random(12)
    st = _fresh(seed=12, rounds=5)
    GAME.apply(st, 1, st.hands[1][0])  # seat 1's sealed card is hidden from seat 0
    for _ in range(20):
        other = GAME.resample(st, 0, rng)
        assert GAME.infoset_key(other, 0) == GAME.infoset_key(st, 0)
        assert GAME.view(other, 0) == GAME.view(st, 0)
        assert _secret_cards(other) == _secret_cards(st)
        _play_out(other, rng)  # a resampled state plays to the end
    assert GAME.awaiting(st) == frozenset({0}), "resampling does not touch the original"


def test_registered_toy_game_history_replays() -> None:
    st = _fresh(seed=33, rounds=4)
    _play_out(st, random.Random(33), order_first=1)
    history = json.loads(json.dumps(export(GAME, st)))
    assert history["game"] == "lances"
    assert get_game("lances") is GAME
    result = replay(history).result()
    assert result["error"] is None
    assert result["over"] is True
    assert result["placements"] == list(GAME.outcome(st).placements)  # type: ignore[union-attr]
    assert result["rounds"] == GAME.report(st)["rounds"]
    # Registering a game first does not hide the built-in ones.
    assert get_game("fodinha").name == "fodinha"


def test_toy_history_with_a_rejected_action_reports_its_index() -> None:
    st = _fresh(seed=33, rounds=2)
    history = export(GAME, st)
    first = st.hands[0][0]
    history["actions"] = [{"seat": 0, "card": first}, {"seat": 0, "card": st.hands[0][1]}]
    result = replay(history).result()
    assert result["error"] is not None
    assert result["error"]["index"] == 1
    assert result["error"]["code"] == "action/already_submitted"


def test_registering_a_game_first_does_not_hide_the_builtin_games() -> None:
    # In a fresh interpreter, so that nothing has loaded the built-in games yet.
    code = (
        "from sefode.engine import game_names, get_game, register\n"
        "from toygame import Lances\n"
        "register(Lances())\n"
        "print(get_game('fodinha').name, ','.join(game_names()))\n"
    )
    tests_dir = Path(__file__).resolve().parent
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tests_dir), str(tests_dir.parent)])},
    )
    assert proc.returncode == 0, proc.stderr
    first, names = proc.stdout.split()
    assert first == "fodinha"
    assert {"fodinha", "lances"} <= set(names.split(",")), names  # the built-in games (more may be installed)
