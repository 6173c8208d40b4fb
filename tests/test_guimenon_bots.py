"""Guimenon bots: legal whole matches at every level, and decisions that never depend on what a seat cannot see
(the other seat's hand, deck or unconfirmed plays)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from sefode.bots.base import Seen
from sefode.bots.players import make_player
from sefode.games.guimenon.bots import (
    MARGIN_WEIGHT,
    GuimenonHooks,
    final_value,
    greedy_plan,
    hooks_of,
    last_turn_plan,
    win_chance,
)
from sefode.games.guimenon.game import CONFIRM, PLACE, TAKE_BACK, Guimenon
from sefode.games.guimenon.rules import CARDSET
from sefode.games.guimenon.state import TURNS, GState

G = Guimenon()


@pytest.fixture(autouse=True)
def _quick_hard_bot() -> Iterator[None]:
    hooks = hooks_of(G)
    saved = hooks.think_ms, hooks.max_samples
    hooks.think_ms, hooks.max_samples = 10_000.0, 2  # bounded by samples, not time: reproducible
    yield
    hooks.think_ms, hooks.max_samples = saved


def play(kinds: list[str], seed: int) -> GState:
    st = G.new_match({}, seed)
    players = [make_player(k, seed + i) for i, k in enumerate(kinds)]
    while G.awaiting(st):
        for seat in sorted(G.awaiting(st)):
            while seat in G.awaiting(st):
                action = players[seat].choose(Seen(G, st, seat))
                assert action in G.legal_actions(st, seat)
                G.apply(st, seat, action)
    return st


@pytest.mark.parametrize("kinds", [["easy", "easy"], ["normal", "easy"], ["hard", "normal"]])
def test_every_level_plays_whole_legal_matches(kinds: list[str]) -> None:
    for seed in range(2):
        st = play(kinds, seed)
        assert st.over and G.outcome(st) is not None


def test_normal_bot_plays_cards_and_prefers_a_board_that_wins() -> None:
    st = play(["normal", "normal"], 5)
    assert len(st.played[0]) >= 4 and len(st.played[1]) >= 4
    fresh = G.new_match({"deck_0": "brasa-viva", "deck_1": "mare-cheia"}, 3)
    fresh.hand[0] = [CARDSET.by_id["fagulha"].index, CARDSET.by_id["cometa-rubro"].index]
    plan = greedy_plan(G, fresh, 0, random.Random(1))
    assert plan == [(CARDSET.by_id["fagulha"].index, 0)], "turn 1: the one card it can pay for, where it can go"


def test_win_chance_is_a_probability_that_rises_with_stars() -> None:
    st = G.new_match({}, 1)
    st.revealed = 3
    low = win_chance(st, 0)
    from guimenon_helpers import put

    put(st, 0, 0, "automato-pesado")
    put(st, 0, 1, "automato-pesado")
    assert 0.0 <= low < win_chance(st, 0) <= 1.0


def two_worlds() -> tuple[GState, GState]:
    """Equal for seat 0; seat 1 confirmed different secret placements from a different hidden hand."""
    a = G.new_match({"deck_0": "veu-de-sombras", "deck_1": "brasa-viva"}, 11)
    for _ in range(2):
        G.apply(a, 0, CONFIRM)
        G.apply(a, 1, CONFIRM)
    b = G.clone(a)
    hidden = a.hand[1] + a.draw[1]
    b.hand[1], b.draw[1] = hidden[len(hidden) - len(a.hand[1]):], hidden[: len(hidden) - len(a.hand[1])]
    for st, pick in ((a, 0), (b, -1)):
        options = [x for x in G.legal_actions(st, 1) if PLACE <= x < TAKE_BACK]
        if options:
            G.apply(st, 1, options[pick])
        G.apply(st, 1, CONFIRM)
    return a, b


@pytest.mark.parametrize("kind", ["easy", "normal", "hard"])
def test_decisions_never_depend_on_the_other_seats_hidden_cards_or_unconfirmed_plays(kind: str) -> None:
    a, b = two_worlds()
    assert G.view(a, 0) == G.view(b, 0)
    first = make_player(kind, 4).choose(Seen(G, a, 0))
    second = make_player(kind, 4).choose(Seen(G, b, 0))
    assert first == second


def test_hard_plan_is_made_once_per_turn_then_played_step_by_step() -> None:
    hooks = GuimenonHooks(G)
    hooks.think_ms, hooks.max_samples = 10_000.0, 1
    st = G.new_match({"deck_0": "jardim-paciente", "deck_1": "veu-de-sombras"}, 2)
    for _ in range(3):
        G.apply(st, 0, CONFIRM)
        G.apply(st, 1, CONFIRM)
    steps: list[int] = []
    while 0 in G.awaiting(st) and len(steps) < 10:
        action = hooks.shortcut(G.resample(st, 0, random.Random(len(steps))), 0, G.legal_actions(st, 0))
        assert action is not None and action in G.legal_actions(st, 0)
        steps.append(action)
        G.apply(st, 0, action)
    assert steps[-1] == CONFIRM and len(hooks._plans) == 1


# ------------------------------------------------------------------------------------------- the last turn
def test_normal_bot_plays_its_last_turn_seed_202_arvore_mae() -> None:
    """Issue 27: seed 202, normal with `jardim-paciente` against hard with `veu-de-sombras`. On turn 6 normal holds
    the Mother Tree with 6 Moon; weighed against the other seat's likely reply it plays it (it used to play the
    Thornbush alone, or nothing, and lose)."""
    st = G.new_match({"deck_0": "jardim-paciente", "deck_1": "veu-de-sombras"}, 202)
    players = [make_player("normal", 202), make_player("hard", 203)]
    mother = CARDSET.by_id["arvore-mae"].index
    placed: list[int] = []
    while G.awaiting(st):
        for seat in sorted(G.awaiting(st)):
            if st.turn == TURNS and seat == 0 and not placed and not st.pending[0]:
                assert mother in st.hand[0] and st.moon[0] == 6, "the position of the issue"
            while seat in G.awaiting(st):
                action = players[seat].choose(Seen(G, st, seat))
                if st.turn == TURNS and seat == 0 and PLACE <= action < TAKE_BACK:
                    placed.append((action - PLACE) // 3)
                G.apply(st, seat, action)
    assert mother in placed, "it plays the Mother Tree on its last turn"
    outcome = G.outcome(st)
    assert outcome is not None and outcome.placements == (1, 2), "and wins"


def test_normal_bot_never_passes_its_last_turn_with_a_card_that_improves_the_result() -> None:
    """On turn 6 a card that changes no Location still counts: ties between results are broken on the Star margin,
    so an affordable card that adds Stars is played rather than confirming with nothing placed."""
    from guimenon_helpers import put, scene

    st = scene(turn=TURNS)
    for li in range(3):
        put(st, 1, li, "automato-pesado")
    st.hand[0] = [CARDSET.by_id["caranguejo-timido"].index]
    st.moon[0] = 6
    old = greedy_plan(G, st, 0, random.Random(1))
    assert old == [], "the old normal turn: no single card changes the result, so nothing"
    plan = last_turn_plan(G, st, 0, random.Random(1))
    assert plan and plan[0][0] == CARDSET.by_id["caranguejo-timido"].index
    action = make_player("normal", 1).choose(Seen(G, st, 0))
    assert PLACE <= action < TAKE_BACK, "the normal bot places it"


def test_final_value_is_the_result_with_the_star_margin_as_tie_break() -> None:
    from guimenon_helpers import put, scene

    st = scene(turn=TURNS)
    put(st, 0, 0, "automato-pesado")
    G.apply(st, 0, CONFIRM)
    G.apply(st, 1, CONFIRM)
    assert st.over
    win = final_value(st, 0)
    assert 1.0 < win < 1.0 + MARGIN_WEIGHT and -MARGIN_WEIGHT < final_value(st, 1) < 0.0
