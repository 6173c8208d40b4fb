"""King bots: legal at every level, the normal heuristics the issue lists, fair by construction."""

from __future__ import annotations

import random

import pytest
from king_helpers import GAME, act, fill, hand, legal, new_match, play, start, turn

from sefode.bots.base import Seen
from sefode.bots.knowledge import hooks_for, policies_for
from sefode.bots.levels import HardPlayer
from sefode.bots.players import make_player
from sefode.games.king.bots import KingHooks, KingPolicies, contract_value, normal_contract
from sefode.games.king.game import CONTRACT
from sefode.games.king.rules import CONTRACT_INDEX, card_code, card_name, mask_of
from sefode.games.king.state import KingState

NORMAL = KingPolicies()


def _normal(st: KingState) -> str:
    seat = turn(st)
    action = NORMAL.normal(st, seat, GAME.legal_actions(st, seat), random.Random(0))
    return card_name(action) if action < 52 else str(GAME.action_json(st, action))


def test_king_hands_the_bots_its_policies_and_search_hooks() -> None:
    assert isinstance(policies_for(GAME), KingPolicies)
    assert isinstance(hooks_for(GAME), KingHooks)
    assert GAME.spec.bot_levels == ("easy", "normal", "hard")


@pytest.mark.parametrize("kind", ["easy", "normal"])
def test_every_decision_of_easy_and_normal_is_legal_through_a_whole_match(kind: str) -> None:
    for seed in range(3):
        st = GAME.new_match({"order": "fixed" if seed == 2 else "choice"}, seed)
        players = [make_player(kind, seed * 4 + s) for s in range(4)]
        while GAME.outcome(st) is None:
            seat = turn(st)
            action = players[seat].choose(Seen(GAME, st, seat))
            assert action in GAME.legal_actions(st, seat)
            GAME.apply(st, seat, action)


def test_hard_decisions_are_legal_and_respect_the_iteration_cap() -> None:
    st = GAME.new_match({}, 4)
    player = HardPlayer(1, think_ms=5000, max_iterations=30)
    for _ in range(30):
        seat = turn(st)
        action = player.choose(Seen(GAME, st, seat))
        assert action in GAME.legal_actions(st, seat)
        if len(GAME.legal_actions(st, seat)) > 1:
            assert sum(player.last_visits.values()) <= 30
        GAME.apply(st, seat, action)


def test_hard_bot_decides_from_what_its_seat_knows_only() -> None:
    # Two states that differ only in the cards seat 1 cannot see give the same decision.
    st = GAME.new_match({}, 8, {"dealer": 0})
    act(st, 1, contract="vazas")
    play(st, hand(st, 1)[0])
    other = GAME.resample(st, 1, random.Random(5))
    assert other.hands[2] != st.hands[2] or other.hands[3] != st.hands[3]
    choices = []
    for state in (st, other):
        player = HardPlayer(3, think_ms=5000, max_iterations=40)
        choices.append(player.choose(Seen(GAME, state, 2)) if turn(state) == 2 else None)
    assert choices[0] == choices[1]


def test_normal_ducks_under_the_winning_card() -> None:
    st = start("vazas", {1: ["Tc"], 2: ["9c", "Jc", "2c", "Kc"]})
    play(st, "Tc")
    assert _normal(st) == "9c"  # the highest club that still loses


def test_normal_sheds_its_most_dangerous_card_when_void() -> None:
    st = start("mulheres", {1: ["2c"], 2: ["Qs", "Qh", "5d"], 0: ["Ks"]}, voids={2: "c"})
    play(st, "2c")
    assert _normal(st) in ("Qs", "Qh")
    st = start("vazas", {1: ["2c"], 2: ["Ad", "3d", "4h"]}, voids={2: "c"})
    play(st, "2c")
    shed = _normal(st)
    assert shed[0] in "AKQ", shed  # a high card, the one likely to take a trick later


def test_normal_keeps_low_cards_for_the_last_tricks_of_duas_ultimas() -> None:
    st = start("duas_ultimas", {1: ["5c"], 2: ["2c", "3c", "Kc"]})
    play(st, "5c")
    assert _normal(st) == "Kc"  # early tricks cost nothing: away with the king, keep the 2 and 3


def test_normal_counts_trumps_and_draws_them_while_it_holds_the_most() -> None:
    spades = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s"]
    st = start("trunfo", {1: [*spades, "2c", "3c"], 2: ["7s", "4s", "3s", "2s"]}, trump="s")
    assert _normal(st)[1] != "s"  # trumps may not be led yet
    st.broken, st.chain = True, None  # as after a trick in which a trump was played
    assert _normal(st) == "As"  # 7 trumps against 6 outstanding: draw them
    st = start("trunfo", {1: ["2s", "3s", "Ac", "Ad"], 2: ["As", "Ks", "Qs"]}, trump="s")
    st.broken, st.chain = True, None
    assert _normal(st) in ("Ac", "Ad")  # 2 low trumps against 11: cash a side ace instead


def test_normal_chooses_trunfo_with_a_long_strong_suit_and_vazas_or_homens_with_few_high_cards() -> None:
    strong = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "Ac", "Kd", "2h", "3h", "4d", "5c"]
    st = new_match([fill({1: strong})])
    choice = normal_contract(st, 1, GAME.legal_actions(st, 1))
    assert choice == CONTRACT + CONTRACT_INDEX["trunfo"]
    act(st, 1, contract="trunfo")
    assert _normal(st) == "{'trump': 's'}"
    weak = ["2s", "3s", "4s", "5s", "2c", "3c", "4c", "5c", "6c", "2d", "3d", "4d", "2h"]
    st = new_match([fill({1: weak})])
    choice = normal_contract(st, 1, [a for a in GAME.legal_actions(st, 1) if a != CONTRACT + CONTRACT_INDEX["trunfo"]])
    assert choice - CONTRACT in (CONTRACT_INDEX["vazas"], CONTRACT_INDEX["homens"], CONTRACT_INDEX["duas_ultimas"])
    hand_mask = mask_of(card_code(c) for c in weak)
    assert contract_value(hand_mask, CONTRACT_INDEX["vazas"]) > contract_value(hand_mask, CONTRACT_INDEX["bolola"])


def test_search_rewards_are_hand_points_against_the_others() -> None:
    hooks = KingHooks()
    st = start("copas", {1: ["2c"], 2: ["5h"], 0: ["Ac"]}, voids={2: "c"})
    root = GAME.clone(st)
    play(st, "2c", "5h")
    play(st, legal(st)[0], "Ac")
    values = hooks.rewards(root, st)
    assert values[0] < 0 and values[1] == values[2] == values[3] > 0 and abs(sum(values)) < 1e-9


def test_rollouts_shed_high_cards_early_in_duas_ultimas_and_duck_late() -> None:
    from sefode.games.king.bots import quick_play

    st = start("duas_ultimas", {1: ["5c"], 2: ["2c", "3c", "Kc"]})
    play(st, "5c")
    assert card_name(quick_play(st, 2, GAME.legal_actions(st, 2))) == "Kc"
    st = start("vazas", {1: ["5c"], 2: ["2c", "3c", "Kc"]})
    play(st, "5c")
    assert card_name(quick_play(st, 2, GAME.legal_actions(st, 2))) == "3c"  # a negative trick: duck under the 5
