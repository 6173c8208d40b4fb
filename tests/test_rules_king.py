"""King (seed 001, docs/rulings.md §2): each test is named after the rule it checks.

Hands are dealt with ``king_helpers.fill`` (the cards a test needs, then the rest of the deck in order);
with dealer 0, seat 1 chooses the first contract and leads.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from king_helpers import GAME, act, fill, hand, legal, new_match, play, play_out_hand, start, turn

from sefode.engine import IllegalAction, InvalidOptions, MatchOver
from sefode.games.king.rules import (
    CONTRACTS,
    FIXED_ORDER,
    JK_MASK,
    KH_MASK,
    SALADA,
    TRICK_POINTS,
    card_code,
    mask_of,
    placements,
    trick_points,
)
from sefode.games.king.scoring import _POINTS_BY_NUMBER
from sefode.games.king.state import KingState

NEGATIVE = ["vazas", "homens", "mulheres", "copas", "duas_ultimas", "king", "salada"]
ALL_CONTRACTS = [c.name for c in CONTRACTS]


def _start_any(contract: str, partial: dict[int, list[str]], voids: dict[int, str] | None = None) -> KingState:
    """``start`` with trump diamonds for Trunfo, so that clubs and spades stay plain suits."""
    return start(contract, partial, voids, trump="d" if contract == "trunfo" else None)


def _refused(st: KingState, seat: int, code: str, **message: Any) -> None:
    with pytest.raises(IllegalAction) as err:
        act(st, seat, **message)
    assert err.value.code == code, (err.value.code, str(err.value))


def _records(st: KingState) -> list[dict[str, Any]]:
    hands: list[dict[str, Any]] = GAME.report(st)["hands"]
    return hands


def _random_hand(contract: str, seed: int) -> dict[str, Any]:
    """Hand 1 of a random deal played with random legal cards under ``contract``; its report row."""
    st = GAME.new_match({}, seed, {"dealer": 0})
    act(st, 1, contract=contract)
    if contract == "trunfo":
        act(st, 1, trump="shcd"[seed % 4])
    rng = random.Random(seed)
    while st.hand_no == 1:
        seat = turn(st)
        GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
    return _records(st)[0]


def _taken(row: dict[str, Any], seat: int) -> list[list[str]]:
    return [[c for _, c in t["plays"]] for t in row["tricks"] if t["winner"] == seat]


# ---------------------------------------------------------------- deck, seats, dealer


def test_four_players_52_cards_13_each() -> None:
    st = GAME.new_match({}, 3)
    cards = [c for s in range(4) for c in hand(st, s)]
    assert len(cards) == 52 and len(set(cards)) == 52
    assert {len(hand(st, s)) for s in range(4)} == {13}
    assert GAME.spec.min_seats == GAME.spec.max_seats == 4 and GAME.spec.seats_option is None


def test_ace_is_high() -> None:
    st = _start_any("vazas", {1: ["Kc"], 2: ["Ac"], 3: ["2c"], 0: ["3c"]})
    play(st, "Kc", "Ac", "2c", "3c")
    assert st.tricks[0].winner == 2


def test_first_dealer_is_random_then_rotates_and_seat_after_dealer_chooses_and_leads() -> None:
    dealers = {GAME.new_match({}, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    st = new_match(dealer=2)
    for _ in range(12):
        assert st.chooser == (st.dealer + 1) % 4 and turn(st) == st.chooser
        play_out_hand(st)
    rows = _records(st)
    assert [r["dealer"] for r in rows] == [(2 + i) % 4 for i in range(12)]
    assert [r["chooser"] for r in rows] == [(3 + i) % 4 for i in range(12)]
    assert all(r["tricks"][0]["leader"] == r["chooser"] for r in rows)


def test_trick_winner_leads_the_next_trick() -> None:
    st = _start_any("vazas", {1: ["5c"], 2: ["Kc"], 3: ["2c"], 0: ["3c"]})
    play(st, "5c", "Kc", "2c", "3c")
    assert turn(st) == 2 and st.leader == 2


# ---------------------------------------------------------------- follow suit


@pytest.mark.parametrize("contract", ALL_CONTRACTS)
def test_must_follow_suit_in_every_contract(contract: str) -> None:
    st = _start_any(contract, {1: ["2c"], 2: ["9c", "Ah", "Ks", "Qd"]})
    play(st, "2c")
    assert legal(st) == ["9c"]
    _refused(st, 2, "action/follow_suit", play="Ks")


@pytest.mark.parametrize("contract", ["vazas", "duas_ultimas", "bolola"])
def test_void_player_may_play_any_card_in_vazas_duas_ultimas_and_bolola(contract: str) -> None:
    st = _start_any(contract, {1: ["2c"]}, voids={2: "c"})
    play(st, "2c")
    assert legal(st) == hand(st, 2)


def test_refused_play_changes_nothing() -> None:
    st = _start_any("vazas", {1: ["2c"], 2: ["9c", "Ks"]})
    play(st, "2c")
    before = GAME.view(st, None)
    _refused(st, 2, "action/follow_suit", play="Ks")
    _refused(st, 2, "action/card_not_in_hand", play="2c")
    _refused(st, 3, "action/not_your_turn", play="9c")
    assert GAME.view(st, None) == before


# ---------------------------------------------------------------- Homens


def test_homens_void_must_discard_a_jack_or_king() -> None:
    st = _start_any("homens", {1: ["2c"], 2: ["Jd", "Kh", "5s"]}, voids={2: "c"})
    play(st, "2c")
    men = sorted(c for c in hand(st, 2) if c[0] in "JK")
    assert legal(st) == men and "Jd" in men and "Kh" in men
    _refused(st, 2, "action/must_discard", play="5s")


def test_homens_jack_must_go_under_a_higher_card_of_the_suit_led() -> None:
    spades = {0: ["2s", "3s", "4s", "6s", "7s", "8s"], 3: ["9s", "Ts", "As"]}
    st = _start_any("homens", {1: ["Qs"], 2: ["Js", "Ks", "5s"], 0: spades[0], 3: spades[3]})
    play(st, "Qs")
    assert legal(st) == ["Js"]  # the king is above the queen: not forced
    _refused(st, 2, "action/must_drop_under", play="5s")


def test_homens_king_is_forced_only_under_the_ace() -> None:
    spades = {0: ["2s", "3s", "4s", "6s", "7s", "8s"], 3: ["9s", "Ts", "Qs"]}
    st = _start_any("homens", {1: ["As"], 2: ["Js", "Ks", "5s"], 0: spades[0], 3: spades[3]})
    play(st, "As")
    assert legal(st) == ["Js", "Ks"]
    st = _start_any("homens", {1: ["Ts"], 2: ["Js", "Ks", "5s"], 0: spades[0], 3: ["9s", "As", "Qs"]})
    play(st, "Ts")
    assert legal(st) == ["5s", "Js", "Ks"]


def test_homens_scores_minus_60_per_jack_or_king() -> None:
    for seed in range(5):
        row = _random_hand("homens", seed)
        for seat in range(4):
            men = sum(1 for t in _taken(row, seat) for c in t if c[0] in "JK")
            assert row["points"][seat] == -60 * men
        assert sum(row["points"]) == -480


# ---------------------------------------------------------------- Mulheres


def test_mulheres_void_must_discard_a_queen() -> None:
    st = _start_any("mulheres", {1: ["2c"], 2: ["Qd", "Qh", "5s"]}, voids={2: "c"})
    play(st, "2c")
    assert legal(st) == ["Qd", "Qh"]
    _refused(st, 2, "action/must_discard", play="5s")


def test_mulheres_queen_must_go_under_king_or_ace_of_the_suit_led() -> None:
    rest = {0: ["2s", "3s", "4s", "6s", "7s", "8s"], 3: ["9s", "Ts", "As"]}
    st = _start_any("mulheres", {1: ["Ks"], 2: ["Qs", "Js", "5s"], **rest})
    play(st, "Ks")
    assert legal(st) == ["Qs"]
    st = _start_any("mulheres", {1: ["Js"], 2: ["Qs", "Ks", "5s"], **rest})
    play(st, "Js")
    assert legal(st) == ["5s", "Ks", "Qs"]  # only a jack on the table: the queen is free


def test_mulheres_scores_minus_100_per_queen() -> None:
    for seed in range(5):
        row = _random_hand("mulheres", seed)
        for seat in range(4):
            queens = sum(1 for t in _taken(row, seat) for c in t if c[0] == "Q")
            assert row["points"][seat] == -100 * queens
        assert sum(row["points"]) == -400


# ---------------------------------------------------------------- Copas


def test_copas_void_must_discard_a_heart() -> None:
    st = _start_any("copas", {1: ["2c"], 2: ["5h", "5s"]}, voids={2: "c"})
    play(st, "2c")
    assert legal(st) == sorted(c for c in hand(st, 2) if c[1] == "h")
    _refused(st, 2, "action/must_discard_heart", play="5s")


def test_copas_hearts_may_not_be_led_before_a_heart_is_played() -> None:
    st = _start_any("copas", {1: ["2c", "3h", "4h"]})
    assert "3h" not in legal(st) and "2c" in legal(st)
    _refused(st, 1, "action/no_hearts_lead", play="3h")


def test_copas_hearts_may_be_led_by_a_leader_holding_only_hearts() -> None:
    hearts = [r + "h" for r in "23456789TJQKA"]
    st = _start_any("copas", {1: hearts})
    assert legal(st) == sorted(hearts)


def test_copas_hearts_may_be_led_once_a_heart_has_been_played() -> None:
    st = _start_any("copas", {1: ["2c", "3h", "4h"], 2: ["5h"], 3: ["3c"], 0: ["Ac", "6h", "2s"]}, voids={2: "c"})
    play(st, "2c", "5h", "3c", "Ac")
    assert turn(st) == 0 and "6h" in legal(st)


def test_copas_scores_minus_30_per_heart() -> None:
    for seed in range(5):
        row = _random_hand("copas", seed)
        for seat in range(4):
            hearts = sum(1 for t in _taken(row, seat) for c in t if c[1] == "h")
            assert row["points"][seat] == -30 * hearts
        assert sum(row["points"]) == -390


# ---------------------------------------------------------------- Duas Últimas and Vazas


def test_vazas_scores_minus_50_per_trick_and_plays_13() -> None:
    for seed in range(5):
        row = _random_hand("vazas", seed)
        assert len(row["tricks"]) == 13
        for seat in range(4):
            assert row["points"][seat] == -50 * len(_taken(row, seat))


def test_duas_ultimas_scores_minus_120_the_12th_trick_and_minus_240_the_13th() -> None:
    for seed in range(5):
        row = _random_hand("duas_ultimas", seed)
        assert len(row["tricks"]) == 13
        expected = [0] * 4
        expected[row["tricks"][11]["winner"]] -= 120
        expected[row["tricks"][12]["winner"]] -= 240
        assert row["points"] == expected


# ---------------------------------------------------------------- King (the contract)


def test_king_void_must_discard_the_king_of_hearts_first() -> None:
    st = _start_any("king", {1: ["2c"], 2: ["Kh", "5h", "5s"]}, voids={2: "c"})
    play(st, "2c")
    assert legal(st) == ["Kh"]
    _refused(st, 2, "action/must_discard_kh", play="5h")


def test_king_void_without_the_king_of_hearts_must_discard_a_heart() -> None:
    st = _start_any("king", {1: ["2c"], 2: ["Ah", "5h", "5s"], 3: ["Kh"]}, voids={2: "c"})
    play(st, "2c")
    assert legal(st) == sorted(c for c in hand(st, 2) if c[1] == "h")


def test_king_nothing_is_forced_while_following_suit() -> None:
    st = _start_any("king", {1: ["Ac"], 2: ["Kc", "Qc", "Jc", "2c"]})
    play(st, "Ac")
    assert set(legal(st)) == {c for c in hand(st, 2) if c[1] == "c"}


def test_king_hearts_may_not_be_led_before_a_heart_is_played() -> None:
    st = _start_any("king", {1: ["2c", "3h"]})
    _refused(st, 1, "action/no_hearts_lead", play="3h")


def test_king_scores_minus_320_for_the_king_of_hearts_and_ends_once_it_is_taken() -> None:
    st = _start_any("king", {1: ["2c"], 2: ["Kh"], 0: ["Ac"]}, voids={2: "c", 3: "c", 0: "h"})
    play(st, "2c", "Kh")
    play(st, legal(st)[0], "Ac")
    assert st.hand_no == 2
    row = _records(st)[0]
    assert len(row["tricks"]) == 1 and row["points"] == [-320, 0, 0, 0]


# ---------------------------------------------------------------- Salada


def test_salada_void_must_discard_any_penalty_card_of_the_players_choice() -> None:
    st = _start_any("salada", {1: ["2c"], 2: ["Kh", "5h", "Jd", "Qs", "5s"]}, voids={2: "c"})
    play(st, "2c")
    penalty = sorted(c for c in hand(st, 2) if c[0] in "JQK" or c[1] == "h")
    assert legal(st) == penalty and {"Kh", "5h", "Jd", "Qs"} <= set(penalty)
    _refused(st, 2, "action/must_discard", play="5s")


def test_salada_jack_queen_king_must_go_under_a_higher_card_but_plain_hearts_are_free() -> None:
    rest = {0: ["2d", "3d", "4d", "6d", "7d", "8d"], 3: ["9d", "Td", "Jd"]}
    st = _start_any("salada", {1: ["Ad"], 2: ["Kd", "Qd", "5d"], **rest})
    play(st, "Ad")
    assert legal(st) == ["Kd", "Qd"]
    st = _start_any("salada", {1: ["2c", "5h", "2h", "9h"], 2: ["Qh"], 3: ["3c"], 0: ["Ac", "6h"]}, voids={2: "c"})
    play(st, "2c", "Qh", "3c", "Ac", "6h")
    assert turn(st) == 1
    hearts = sorted(c for c in hand(st, 1) if c[1] == "h")
    assert legal(st) == hearts and {"2h", "5h"} <= set(hearts)


def test_salada_hearts_may_not_be_led_before_a_heart_is_played() -> None:
    st = _start_any("salada", {1: ["2c", "3h"]})
    _refused(st, 1, "action/no_hearts_lead", play="3h")


def test_salada_counts_every_penalty_of_a_card_at_once() -> None:
    assert trick_points(SALADA, KH_MASK, 0) == -15 - 95 - 10 - 20
    cards = mask_of(card_code(c) for c in ("Qs", "Jd", "5h", "2c"))
    assert trick_points(SALADA, cards, 11) == -15 - 30 - 20 - 10 - 40
    assert trick_points(SALADA, mask_of([card_code("2c")]), 12) == -15 - 60
    for seed in range(5):
        row = _random_hand("salada", seed)
        assert len(row["tricks"]) == 13 and sum(row["points"]) == -800


# ---------------------------------------------------------------- Bolola


def test_bolola_mirrors_salada_with_positive_points() -> None:
    for seed in range(5):
        row = _random_hand("bolola", seed)
        assert len(row["tricks"]) == 13 and sum(row["points"]) == 800
    assert trick_points(8, KH_MASK, 0) == 140


def test_bolola_hearts_may_not_be_led_before_a_heart_is_played() -> None:
    st = _start_any("bolola", {1: ["2c", "3h"]})
    _refused(st, 1, "action/no_hearts_lead", play="3h")


def test_bolola_nothing_is_forced_while_following_or_when_void() -> None:
    st = _start_any("bolola", {1: ["Ad"], 2: ["Kd", "Qd", "5d"]})
    play(st, "Ad")
    assert set(legal(st)) == {c for c in hand(st, 2) if c[1] == "d"}


# ---------------------------------------------------------------- Trunfo


def test_trunfo_chooser_names_the_trump_then_leads() -> None:
    st = new_match([fill({})])
    act(st, 1, contract="trunfo")
    assert st.phase == "trump" and turn(st) == 1
    _refused(st, 1, "action/must_name_trump", play="2c")
    act(st, 1, trump="h")
    assert GAME.view(st, None)["trump"] == "h" and turn(st) == 1


def test_trunfo_trump_may_not_be_led_before_a_trump_is_played() -> None:
    st = start("trunfo", {1: ["2c", "3s"]}, trump="s")
    _refused(st, 1, "action/no_trump_lead", play="3s")
    assert all(c[1] != "s" for c in legal(st))


def test_trunfo_trump_may_be_led_by_a_leader_holding_only_trumps() -> None:
    spades = [r + "s" for r in "23456789TJQKA"]
    st = start("trunfo", {1: spades}, trump="s")
    assert legal(st) == sorted(spades)


def test_trunfo_void_player_must_play_a_trump() -> None:
    st = start("trunfo", {1: ["2c"], 2: ["5s", "Ah"]}, voids={2: "c"}, trump="s")
    play(st, "2c")
    assert legal(st) == sorted(c for c in hand(st, 2) if c[1] == "s")
    _refused(st, 2, "action/must_trump", play="Ah")


def test_trunfo_void_player_must_overtrump_when_able() -> None:
    st = start("trunfo", {1: ["2c"], 2: ["5s"], 3: ["3s", "9s", "Ah"]}, voids={2: "cs", 3: "c"}, trump="s")
    # seat 2 holds only the 5 of spades as trump (voids keep the rest of the spades away from it)
    play(st, "2c", "5s")
    higher = sorted(c for c in hand(st, 3) if c[1] == "s" and "23456789TJQKA".index(c[0]) > 3)
    assert "9s" in higher and legal(st) == higher
    _refused(st, 3, "action/must_overtrump", play="3s")


def test_trunfo_void_player_who_cannot_overtrump_plays_any_trump() -> None:
    rest = ["2s", "5s", "6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks"]
    st = start("trunfo", {1: ["2c"], 2: ["As"], 3: ["3s", "4s", "Ah"], 0: rest}, voids={2: "cs", 3: "c"}, trump="s")
    play(st, "2c", "As")
    assert legal(st) == ["3s", "4s"]


def test_trunfo_void_player_without_trumps_plays_any_card() -> None:
    st = start("trunfo", {1: ["2c"]}, voids={2: "cs"}, trump="s")
    play(st, "2c")
    assert legal(st) == hand(st, 2)


def test_trunfo_when_trump_is_led_each_player_must_play_higher_if_able_else_any_trump() -> None:
    # Trick 1 breaks trumps (seat 2, void in clubs, trumps with the 4); seat 2 then leads the 5 of trumps.
    st = start(
        "trunfo",
        {
            1: ["2c", "6s", "7s"],
            2: ["4s", "5s", "8s", "Js", "Qs", "Ks", "As"],
            3: ["3c", "3s", "9s"],
            0: ["Ac", "2s", "Ts"],
        },
        voids={2: "cs", 3: "s", 0: "s", 1: "s"},
        trump="s",
    )
    play(st, "2c", "4s", "3c", "Ac")
    assert st.tricks[0].winner == 2 and turn(st) == 2
    play(st, "5s")
    assert legal(st) == ["9s"]
    _refused(st, 3, "action/must_overtrump", play="3s")
    play(st, "9s")
    assert legal(st) == ["Ts"]
    play(st, "Ts")
    assert legal(st) == ["6s", "7s"]  # nothing above the 10: any trump


def test_trunfo_highest_trump_wins_else_highest_card_of_the_suit_led() -> None:
    st = start("trunfo", {1: ["Ac"], 2: ["2s"], 3: ["Kc"], 0: ["3s"]}, voids={2: "c", 0: "c"}, trump="s")
    play(st, "Ac", "2s", "Kc", "3s")
    assert st.tricks[0].winner == 0
    st = start("trunfo", {1: ["Tc"], 2: ["Ah"], 3: ["Kc"], 0: ["Qc"]}, voids={2: "cs"}, trump="s")
    play(st, "Tc", "Ah", "Kc", "Qc")
    assert st.tricks[0].winner == 3


def test_trunfo_scores_plus_50_per_trick_and_plays_13() -> None:
    for seed in range(5):
        row = _random_hand("trunfo", seed)
        assert len(row["tricks"]) == 13 and sum(row["points"]) == 650
        for seat in range(4):
            assert row["points"][seat] == 50 * len(_taken(row, seat))


# ---------------------------------------------------------------- early end


def test_homens_ends_early_once_all_8_jacks_and_kings_are_taken() -> None:
    st = _start_any(
        "homens",
        {1: ["Jc", "Ks"], 2: ["Kc", "Jh"], 3: ["Jd", "Kh"], 0: ["Kd", "Js"]},
        voids={3: "c", 0: "ch", 1: "h"},
    )
    play(st, "Jc", "Kc", "Jd", "Kd")
    assert st.tricks[0].winner == 2
    play(st, "Jh", "Kh", "Js", "Ks")
    row = _records(st)[0]
    assert len(row["tricks"]) == 2 and st.hand_no == 2
    assert row["points"] == [0, 0, -240, -240]


def test_mulheres_ends_early_once_all_4_queens_are_taken() -> None:
    st = _start_any("mulheres", {1: ["Qc"], 2: ["Qd"], 3: ["Qh"], 0: ["Qs"]}, voids={2: "c", 3: "c", 0: "c"})
    play(st, "Qc", "Qd", "Qh", "Qs")
    row = _records(st)[0]
    assert len(row["tricks"]) == 1 and row["points"] == [0, -400, 0, 0]


@pytest.mark.parametrize("contract,cards", [("copas", "h"), ("king", "Kh"), ("homens", "JK"), ("mulheres", "Q")])
def test_negative_hand_ends_right_after_the_last_punished_card_is_taken(contract: str, cards: str) -> None:
    def punished(card: str) -> bool:
        return card == "Kh" if cards == "Kh" else (card[1] == "h" if cards == "h" else card[0] in cards)

    total = {"h": 13, "Kh": 1, "JK": 8, "Q": 4}[cards]
    early = 0
    for seed in range(30):
        row = _random_hand(contract, seed)
        seen = [sum(1 for _, c in t["plays"] if punished(c)) for t in row["tricks"]]
        assert sum(seen) == total and seen[-1] > 0  # the last trick played took the last punished card
        early += len(row["tricks"]) < 13
    assert early > 0


@pytest.mark.parametrize("contract", ["vazas", "duas_ultimas", "salada", "trunfo", "bolola"])
def test_vazas_duas_ultimas_salada_trunfo_and_bolola_play_all_13_tricks(contract: str) -> None:
    for seed in range(10):
        assert len(_random_hand(contract, seed)["tricks"]) == 13


# ---------------------------------------------------------------- choosing: quotas


def _choose_through(st: KingState, choices: dict[int, str]) -> None:
    """Play hands to the end, choosing ``choices[hand number]`` where given (else the first open one)."""
    while GAME.outcome(st) is None:
        number = st.hand_no
        if number in choices:
            act(st, turn(st), contract=choices[number])
            if choices[number] == "trunfo":
                act(st, turn(st), trump="c")
        play_out_hand(st)
        if max(choices, default=0) <= number:
            return


def test_a_second_trunfo_by_the_same_chooser_is_refused() -> None:
    st = new_match()
    _choose_through(st, {1: "trunfo"})
    while st.hand_no < 5:
        play_out_hand(st)
    assert turn(st) == 1 and st.phase == "choosing"
    _refused(st, 1, "action/quota", contract="trunfo")
    assert "trunfo" not in [GAME.action_json(st, a)["contract"] for a in GAME.legal_actions(st, 1)]


def test_each_pool_contract_is_played_once() -> None:
    st = new_match()
    _choose_through(st, {1: "vazas"})
    assert turn(st) == 2
    _refused(st, 2, "action/contract_played", contract="vazas")
    assert GAME.view(st, 2)["pool_open"] == ["homens", "mulheres", "copas", "duas_ultimas", "king", "salada", "bolola"]


def test_each_player_chooses_two_pool_contracts_and_then_must_choose_trunfo() -> None:
    st = new_match()
    _choose_through(st, {1: "vazas", 2: "trunfo", 3: "trunfo", 4: "trunfo", 5: "bolola"})
    while st.hand_no < 9:
        play_out_hand(st)
    assert turn(st) == 1
    assert GAME.legal_actions(st, 1) == [GAME.parse_action(st, 1, {"contract": "trunfo"})]
    assert "salada" in GAME.view(st, 1)["pool_open"]
    _refused(st, 1, "action/quota", contract="salada")
    assert GAME.view(st, 1)["quotas"][1] == {"trunfo": 1, "pool": 0}


def test_a_match_is_12_hands_each_pool_contract_once_trunfo_four_times_zero_sum() -> None:
    for seed in range(6):
        st = GAME.new_match({}, seed)
        rng = random.Random(seed)
        while GAME.outcome(st) is None:
            seat = turn(st)
            GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
        rows = _records(st)
        assert len(rows) == 12
        counts = Counter(r["contract"] for r in rows)
        assert counts == Counter({**{c: 1 for c in NEGATIVE}, "bolola": 1, "trunfo": 4})
        for seat in range(4):
            mine = [r["contract"] for r in rows if r["chooser"] == seat]
            assert len(mine) == 3 and mine.count("trunfo") == 1
        assert sum(st.totals) == 0
        assert sum(sum(r["points"]) for r in rows if r["contract"] in NEGATIVE) == -3400


def test_a_13th_hand_is_refused() -> None:
    st = new_match()
    while GAME.outcome(st) is None:
        play_out_hand(st)
    with pytest.raises(MatchOver) as err:
        act(st, 1, contract="vazas")
    assert err.value.code == "action/match_over"
    assert GAME.legal_actions(st, 1) == [] and GAME.awaiting(st) == frozenset()


# ---------------------------------------------------------------- fixed order


def test_fixed_order_plays_the_contracts_in_order_with_trunfo_chosen_by_each_seat_in_turn() -> None:
    st = new_match(order="fixed", dealer=3)
    assert st.phase == "playing"
    _refused(st, 0, "action/fixed_order", contract="bolola")
    while GAME.outcome(st) is None:
        if st.phase == "trump":
            act(st, turn(st), trump="h")
        play_out_hand(st)
    rows = _records(st)
    assert [r["contract"] for r in rows] == [CONTRACTS[c].name for c in FIXED_ORDER]
    trunfo = [r for r in rows if r["contract"] == "trunfo"]
    assert sorted(r["chooser"] for r in trunfo) == [0, 1, 2, 3]
    assert all(r["trump"] == "h" for r in trunfo)
    assert not any("contract" in a for a in GAME.history_actions(st))
    assert sum(1 for a in GAME.history_actions(st) if "trump" in a) == 4


def test_fixed_order_trunfo_hand_waits_for_the_trump() -> None:
    st = new_match(order="fixed")
    while st.hand_no < 8:
        play_out_hand(st)
    assert st.phase == "trump" and turn(st) == st.chooser
    _refused(st, st.chooser, "action/must_name_trump", play=hand(st, st.chooser)[0])


# ---------------------------------------------------------------- placements


def test_placements_highest_total_wins_and_ties_share_the_place() -> None:
    assert placements([100, 50, 50, -200]) == [1, 2, 2, 4]
    assert placements([0, 0, 0, 0]) == [1, 1, 1, 1]
    st = GAME.new_match({}, 11)
    rng = random.Random(11)
    while GAME.outcome(st) is None:
        seat = turn(st)
        GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
    outcome = GAME.outcome(st)
    assert outcome is not None
    assert list(outcome.placements) == placements(st.totals)
    assert (
        outcome.scores == tuple(st.totals) and not outcome.no_winner and outcome.unit_list() == [(0,), (1,), (2,), (3,)]
    )


# ---------------------------------------------------------------- options


def test_options_order_defaults_to_choice_and_takes_fixed() -> None:
    assert GAME.validate_options({}) == {"order": "choice"}
    assert GAME.validate_options({"order": "fixed"}) == {"order": "fixed"}


@pytest.mark.parametrize(
    "raw,words",
    [
        ({"players": 4}, ["unknown option", "players", "this game takes order"]),
        ({"order": "random"}, ["'order' must be one of", "choice", "fixed", "random"]),
        ({"order": True}, ["'order' must be one of"]),
        ([("order", "fixed")], ["options must be a JSON object"]),
    ],
)
def test_any_other_option_is_refused_with_a_message_that_says_why(raw: Any, words: list[str]) -> None:
    with pytest.raises(InvalidOptions) as err:
        GAME.new_match(raw, 1)
    for word in words:
        assert word in str(err.value)


@pytest.mark.parametrize(
    "deals,words",
    [
        ([{"hands": [["2c"]] * 4}], ["seat 0 must get 13 cards"]),
        ([{"hands": [[c + "c" for c in "23456789TJQKA"]] * 4}], ["dealt twice"]),
        ([{"hands": fill({})["hands"][:3]}], ["lists 3 seats"]),
        ([{"hands": [["Xx"] * 13] * 4}], ["not a card of the 52-card deck"]),
    ],
)
def test_bad_preset_deals_are_refused(deals: list[Any], words: list[str]) -> None:
    with pytest.raises(InvalidOptions) as err:
        GAME.new_match({}, 1, {"deals": deals})
    for word in words:
        assert word in str(err.value)


# ---------------------------------------------------------------- views


def test_views_hide_every_hand_but_the_seats_own() -> None:
    st = GAME.new_match({}, 5)
    for seat in range(4):
        hands = GAME.view(st, seat)["hands"]
        assert [h is not None for h in hands] == [s == seat for s in range(4)]
    spectator = GAME.view(st, None)
    assert spectator["hands"] == [None] * 4 and "legal" not in spectator and spectator["reasons"] == {}


def test_view_shows_the_score_sheet_quotas_open_contracts_and_penalty_counters() -> None:
    st = _start_any("copas", {1: ["2c"], 2: ["5h"], 0: ["Ac"]}, voids={2: "c"})
    play(st, "2c", "5h")
    play(st, legal(st)[0], "Ac")
    view = GAME.view(st, 0)
    assert view["contract"] == "copas" and view["taken"][0]["hearts"] == 1 and view["points"][0] == -30
    assert view["quotas"][1] == {"trunfo": 1, "pool": 1}
    assert "copas" not in view["pool_open"]
    play_out_hand(st)
    view = GAME.view(st, None)
    assert len(view["sheet"]) == 1 and view["sheet"][0]["contract"] == "copas"
    assert sum(view["sheet"][0]["points"]) == -390 and view["totals"] == view["sheet"][0]["totals"]


def test_view_says_why_each_dimmed_card_may_not_be_played() -> None:
    st = _start_any("vazas", {1: ["2c"], 2: ["9c", "Ks"]})
    play(st, "2c")
    reasons = GAME.view(st, 2)["reasons"]
    assert "9c" not in reasons and reasons["Ks"] == "king.reason.follow_suit"
    assert GAME.view(st, 3)["reasons"] == {}


def test_events_never_show_a_card_before_it_is_played() -> None:
    st = GAME.new_match({}, 9)
    rng = random.Random(9)
    shown: set[str] = set()
    while GAME.outcome(st) is None:
        seat = turn(st)
        action = rng.choice(GAME.legal_actions(st, seat))
        events = GAME.apply(st, seat, action)
        if action < 52:
            shown.add(GAME.action_json(st, action)["play"])
        text = repr(events)
        for card in (c for s in range(4) for c in (GAME.view(st, s)["hands"][s] or [])):
            assert f"'{card}'" not in text or card in shown


# ---------------------------------------------------------------- resampling respects shown voids


def _resample_many(st: KingState, seat: int, times: int = 200) -> list[KingState]:
    rng = random.Random(1)
    return [GAME.resample(st, seat, rng) for _ in range(times)]


def test_resample_respects_every_void_a_seat_has_shown() -> None:
    st = _start_any("vazas", {1: ["2c"]}, voids={2: "c"})
    play(st, "2c", hand(st, 2)[0])
    clubs = mask_of(card_code(r + "c") for r in "23456789TJQKA")
    for other in _resample_many(st, 0):
        assert other.hands[2] & clubs == 0
        assert other.hands[0] == st.hands[0]
        assert [h.bit_count() for h in other.hands] == [h.bit_count() for h in st.hands]
        assert other.hands[1] | other.hands[2] | other.hands[3] == st.hands[1] | st.hands[2] | st.hands[3]
    # Without that knowledge seat 2 would often be dealt clubs: the constraint is doing the work.
    fresh = _start_any("vazas", {1: ["2c"]}, voids={2: "c"})
    assert any(o.hands[2] & clubs for o in _resample_many(fresh, 0, 50))


def test_resample_respects_a_forced_discard_a_seat_did_not_make() -> None:
    # Copas: seat 2 is void in clubs and discards a spade, so it holds no heart either.
    st = _start_any("copas", {1: ["2c"], 2: ["5s"]}, voids={2: "ch"})
    play(st, "2c", "5s")
    hearts = mask_of(card_code(r + "h") for r in "23456789TJQKA")
    for other in _resample_many(st, 3):
        assert other.hands[2] & hearts == 0
        assert other.hands[2] & mask_of(card_code(r + "c") for r in "23456789TJQKA") == 0


def test_resample_respects_a_skipped_forced_play_when_following() -> None:
    # Homens: the queen of spades is led and seat 2 plays the 5: it holds no jack of spades (forced under it).
    st = _start_any("homens", {1: ["Qs"], 2: ["5s", "Ks"], 3: ["Js"]})
    play(st, "Qs", "5s")
    js = mask_of([card_code("Js")])
    for other in _resample_many(st, 0):
        assert other.hands[2] & js == 0


def test_resample_never_fails_under_heavy_constraints() -> None:
    for seed in range(40):
        st = GAME.new_match({}, seed, {"dealer": 0})
        act(st, 1, contract="salada")
        rng = random.Random(seed)
        for _ in range(rng.randrange(10, 40)):
            seat = turn(st)
            GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
        for observer in range(4):
            for other in _resample_many(st, observer, 5):
                for s in range(4):
                    assert other.hands[s] & st.excluded[s] == 0 or s == observer
                    assert other.hands[s].bit_count() == st.hands[s].bit_count()
                assert other.hands[observer] == st.hands[observer]


def test_jacks_and_kings_mask_holds_eight_cards() -> None:
    assert JK_MASK.bit_count() == 8


# ---------------------------------------------------------------- engine tables


def test_points_by_trick_number_alone_match_the_point_functions() -> None:
    """``scoring._POINTS_BY_NUMBER`` stands for ``TRICK_POINTS`` in the contracts whose points do not depend on the
    trick's cards (Vazas, Duas últimas, Trunfo): equal for any four cards and trick number."""
    rng = random.Random(7)
    by_number = {c.name for c in CONTRACTS if _POINTS_BY_NUMBER[c.index] is not None}
    assert by_number == {"vazas", "duas_ultimas", "trunfo"}
    for c in CONTRACTS:
        table = _POINTS_BY_NUMBER[c.index]
        if table is None:
            continue
        for number in range(13):
            for _ in range(20):
                cards = mask_of(rng.sample(range(52), 4))
                assert TRICK_POINTS[c.index](cards, number) == table[number]


def test_king_trick_event_names_who_took_it_and_its_points_and_every_view_holds_the_trick_its_plays_made() -> None:
    """A King ``trick`` event says who took the trick and its points, and no more: its cards came in the ``play``
    events since the trick before, in order, and after the action every seat's view (and the spectator's) holds that
    trick whole as its ``last_trick``, which the table draws."""
    checked = 0
    for seed in range(3):
        st = GAME.new_match(GAME.validate_options({}), seed)
        rng = random.Random(seed)
        played: list[list[Any]] = []
        while GAME.outcome(st) is None and checked < 300:
            (seat,) = GAME.awaiting(st)
            last = None
            for event in GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat))):
                if event["type"] == "play":
                    played.append([event["seat"], event["card"]])
                elif event["type"] == "trick":
                    assert set(event) == {"type", "winner", "points"}, event
                    last = {"leader": played[0][0], "plays": played, "winner": event["winner"]}
                    played = []
            if last is not None:
                for viewer in [*range(4), None]:
                    view = GAME.view(st, viewer)
                    taken = view["last_trick"]
                    assert {k: taken[k] for k in ("leader", "plays", "winner")} == last, (seed, viewer)
                checked += 1
    assert checked >= 300
