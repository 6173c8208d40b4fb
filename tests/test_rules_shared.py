"""docs/rulings.md §1 rules shared by Se Fode and 7 Letras, each test named after its rule.

Situations are built with preset deals and played through the checked path (``parse_action`` + ``apply``).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fodinha_helpers import (
    GAME,
    act,
    bids,
    deal,
    hand_record,
    legal_json,
    new_match,
    play_out_hand,
    plays,
    tricks,
    turn,
)

from sefode.engine import IllegalAction, InvalidOptions, NotYourTurn
from sefode.games.fodinha.cards import truco_name
from sefode.games.fodinha.state import FodinhaState

COMMON_ORDER = ["3", "2", "A", "K", "J", "Q", "7", "6", "5", "4"]
FIXED = {"4c", "7h", "As", "7d"}
VARIANTS = ("sefode", "7letras")


def _common_card(rank: str, taken: set[str]) -> str:
    for suit in "hsdc":
        card = rank + suit
        if card not in FIXED and card not in taken:
            taken.add(card)
            return card
    raise AssertionError(rank)


def _vira_away_from(ranks: set[str], taken: set[str]) -> str:
    """A vira whose manilha rank is none of ``ranks`` (and which is not a dealt card)."""
    order = "4567QJKA23"
    for i, rank in enumerate(order):
        manilha = order[(i + 1) % len(order)]
        if manilha not in ranks and rank + "d" not in taken:
            return rank + "d"
    raise AssertionError(ranks)


def _one_card_duel(variant: str, seat0: str, seat1: str, vira: str | None = None) -> dict[str, object]:
    """Two players, one card each, dealer 0 (so seat 1 bids first). Returns the hand record."""
    st = new_match(variant, 2, dealer=0, deals=[deal([[seat0], [seat1]], vira)])
    bids(st, {1: 0, 0: 0})
    return hand_record(st, 1)


# ---------------------------------------------------------------- card order


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("stronger,weaker", list(itertools.pairwise(COMMON_ORDER)))
def test_common_order_3_2_A_K_J_Q_7_6_5_4_strong_to_weak(variant: str, stronger: str, weaker: str) -> None:
    taken: set[str] = set()
    strong_card, weak_card = _common_card(stronger, taken), _common_card(weaker, taken)
    vira = _vira_away_from({stronger, weaker}, taken) if variant == "7letras" else None
    # Whoever holds the stronger card wins, whatever the seat or the play order.
    assert tricks(_one_card_duel(variant, strong_card, weak_card, vira))[0][2] == 0
    assert tricks(_one_card_duel(variant, weak_card, strong_card, vira))[0][2] == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_common_order_suit_is_irrelevant_equal_ranks_are_equal_strength(variant: str) -> None:
    vira = "5d" if variant == "7letras" else None  # manilha 6: Kc and Kh stay common
    record = _one_card_duel(variant, "Kc", "Kh", vira)
    assert tricks(record)[0][2] is None


# ---------------------------------------------------------------- bids and the pé rule


@pytest.mark.parametrize("variant", VARIANTS)
def test_bids_go_from_the_seat_after_the_dealer_to_the_dealer_last(variant: str) -> None:
    vira = "Kc" if variant == "7letras" else None
    st = new_match(
        variant, 4, dealer=2, deals=[None, deal([["3c", "4h"], ["3h", "5h"], ["2d", "5d"], ["Qc", "Jc"]], vira)]
    )
    play_out_hand(st)
    seen = []
    for _ in range(4):
        seat = turn(st)
        seen.append(seat)
        act(st, seat, bid=0 if len(seen) < 4 else 1)
    # Hand 2 is dealt by seat 3 (the next seat after the first dealer 2).
    assert st.dealer == 3
    assert seen == [0, 1, 2, 3]


@pytest.mark.parametrize("variant", VARIANTS)
def test_bids_range_from_0_to_the_number_of_cards(variant: str) -> None:
    vira = "Kc" if variant == "7letras" else None
    st = new_match(variant, 3, dealer=0, deals=[None, deal([["3c", "4h"], ["3h", "5h"], ["2d", "5d"]], vira)])
    play_out_hand(st)
    assert st.size == 2
    assert legal_json(st, turn(st)) == [{"bid": 0}, {"bid": 1}, {"bid": 2}]
    with pytest.raises(IllegalAction, match="from 0 to 2"):
        act(st, turn(st), bid=3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pe_rule_forbids_dealer_bid_that_makes_sum_equal_cards(variant: str) -> None:
    vira = "Kc" if variant == "7letras" else None
    hands = [["3c", "4h", "5c"], ["3h", "5h", "6c"], ["2d", "5d", "6h"]]
    st = new_match(variant, 3, dealer=0, deals=[None, None, deal(hands, vira)])
    play_out_hand(st)
    play_out_hand(st)
    assert st.size == 3 and st.dealer == 2
    act(st, 0, bid=1)
    act(st, 1, bid=1)
    assert turn(st) == 2
    # 1 + 1 + x = 3 is forbidden for x = 1; the others are allowed.
    assert legal_json(st, 2) == [{"bid": 0}, {"bid": 2}, {"bid": 3}]
    assert GAME.view(st, 2)["forbidden_bid"] == 1
    with pytest.raises(IllegalAction, match="pé") as err:
        act(st, 2, bid=1)
    assert err.value.code == "action/foot_rule"
    assert st.bids[2] == -1
    act(st, 2, bid=2)
    assert st.phase == "playing"


@pytest.mark.parametrize("variant", VARIANTS)
def test_pe_rule_allows_every_bid_when_the_sum_already_exceeds_the_cards(variant: str) -> None:
    vira = "Kc" if variant == "7letras" else None
    st = new_match(variant, 3, dealer=0, deals=[None, deal([["3c", "4h"], ["3h", "5h"], ["2d", "5d"]], vira)])
    play_out_hand(st)
    act(st, turn(st), bid=2)
    act(st, turn(st), bid=1)
    assert legal_json(st, turn(st)) == [{"bid": 0}, {"bid": 1}, {"bid": 2}]


# ---------------------------------------------------------------- tricks


@pytest.mark.parametrize("variant", VARIANTS)
def test_first_trick_is_led_by_the_seat_after_the_dealer(variant: str) -> None:
    vira = "Kc" if variant == "7letras" else None
    hands = [["3c", "4h"], ["3h", "5h"], ["2d", "5d"], ["Qc", "Jc"]]
    st = new_match(variant, 4, dealer=3, deals=[None, deal(hands, vira)])
    play_out_hand(st)
    assert st.dealer == 0
    bids(st, {1: 0, 2: 0, 3: 0, 0: 0})
    assert turn(st) == 1 and GAME.view(st, None)["leader"] == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_trick_winner_leads_the_next_trick(variant: str) -> None:
    vira = "Kc" if variant == "7letras" else None  # manilha A
    hands = [["3c", "4h"], ["Qh", "5h"], ["2d", "5d"]]
    st = new_match(variant, 3, dealer=2, deals=[None, deal(hands, vira)])
    play_out_hand(st)
    assert st.dealer == 0
    bids(st, {1: 0, 2: 0, 0: 0})
    plays(st, (1, "Qh"), (2, "2d"), (0, "4h"))
    assert turn(st) == 2
    plays(st, (2, "5d"), (0, "3c"), (1, "5h"))
    assert [t[2] for t in tricks(hand_record(st, 2))] == [2, 0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_winner_is_the_strongest_surviving_card(variant: str) -> None:
    vira = "4d" if variant == "7letras" else None  # manilha 5, not dealt
    st = new_match(variant, 4, dealer=3, deals=[deal([["Kc"], ["2h"], ["Kh"], ["Qd"]], vira)])
    bids(st, {0: 0, 1: 0, 2: 0, 3: 0})
    # 2h is the strongest card and survives.
    assert tricks(hand_record(st, 1))[0][2] == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_tricks_won_count_the_accumulated_value(variant: str) -> None:
    vira = "4d" if variant == "7letras" else None  # manilha 5
    hands = [["Kc", "Qc", "3c"], ["Kh", "Qh", "2h"]]
    st = new_match(variant, 2, dealer=1, deals=[None, None, deal(hands, vira)])
    play_out_hand(st)
    play_out_hand(st)
    assert st.size == 3 and st.dealer == 1
    bids(st, {0: 1, 1: 1})
    plays(st, (0, "Kc"), (1, "Kh"))  # cancelled: bolo 1
    plays(st, (0, "Qc"), (1, "Qh"))  # cancelled: bolo 2
    assert GAME.view(st, 0)["trick_value"] == 3
    plays(st, (0, "3c"), (1, "2h"))
    record = hand_record(st, 3)
    assert [t[3] for t in tricks(record)] == [1, 2, 3]
    assert [t[2] for t in tricks(record)] == [None, None, 0]
    assert record["won"] == [3, 0]


# ---------------------------------------------------------------- mão na testa


@pytest.mark.parametrize("variant", VARIANTS)
def test_mao_na_testa_each_seat_sees_every_card_but_its_own(variant: str) -> None:
    vira = "Kc" if variant == "7letras" else None
    st = new_match(variant, 3, dealer=0, deals=[deal([["3c"], ["3h"], ["2d"]], vira)])
    assert st.size == 1
    assert GAME.view(st, 0)["hands"] == [None, ["3h"], ["2d"]]
    assert GAME.view(st, 1)["hands"] == [["3c"], None, ["2d"]]
    assert GAME.view(st, 2)["hands"] == [["3c"], ["3h"], None]
    # A spectator is not at the table: no forehead card is shown to it.
    assert GAME.view(st, None)["hands"] == [None, None, None]


@pytest.mark.parametrize("variant", VARIANTS)
def test_mao_na_testa_bids_are_blind_and_cards_play_automatically_in_order(variant: str) -> None:
    vira = "Kc" if variant == "7letras" else None
    st = new_match(variant, 3, dealer=1, deals=[deal([["3c"], ["3h"], ["2d"]], vira)])
    # Only bids are asked for: the legal actions never contain a card.
    for seat in (2, 0, 1):
        assert turn(st) == seat
        assert all("bid" in a for a in legal_json(st, seat))
        events = act(st, seat, bid=0)
    autos = [e for e in events if e["type"] == "play"]
    assert [(e["seat"], e["card"], e["auto"]) for e in autos] == [(2, "2d", True), (0, "3c", True), (1, "3h", True)]
    assert tricks(hand_record(st, 1))[0][1] == [(2, "2d"), (0, "3c"), (1, "3h")]
    assert not any("play" in a for a in GAME.history_actions(st))


@pytest.mark.parametrize("variant", VARIANTS)
def test_mao_na_testa_own_card_is_not_playable_by_hand(variant: str) -> None:
    vira = "Kc" if variant == "7letras" else None
    st = new_match(variant, 2, dealer=0, deals=[deal([["3c"], ["3h"]], vira)])
    with pytest.raises(IllegalAction, match="bid"):
        act(st, 1, play="3h")


# ---------------------------------------------------------------- dealer


@pytest.mark.parametrize("variant", VARIANTS)
def test_first_dealer_is_drawn_from_the_seed(variant: str) -> None:
    dealers = []
    for seed in range(40):
        a = GAME.new_match({"variant": variant, "players": 4}, seed)
        b = GAME.new_match({"variant": variant, "players": 4}, seed)
        assert a.dealer == b.dealer  # same seed, same draw
        dealers.append(a.dealer)
        assert GAME.history_setup(a) == {"dealer": a.dealer}
    assert set(dealers) == {0, 1, 2, 3}


@pytest.mark.parametrize("variant", VARIANTS)
def test_dealer_rotates_to_the_next_seat_still_alive(variant: str) -> None:
    st = new_match(variant, 3, dealer=2, max_cards=1)
    seen = [st.dealer]
    for _ in range(4):
        play_out_hand(st)
        seen.append(st.dealer)
    assert seen == [2, 0, 1, 2, 0]


def test_dealer_rotation_skips_seats_that_are_out() -> None:
    st = new_match("sefode", 4, dealer=0, lives=1, deals=[deal([["3c"], ["4h"], ["2d"], ["Qc"]])])
    bids(st, {1: 1, 2: 0, 3: 0, 0: 1})  # seat 1 (4h) bids a win and loses: out
    assert st.alive == [True, False, True, True]
    assert st.dealer == 2
    while GAME.outcome(st) is None:
        before, alive = st.dealer, list(st.alive)
        play_out_hand(st, bid=1)
        if GAME.outcome(st) is None:
            expected = next(s for s in ((before + k) % 4 for k in range(1, 5)) if st.alive[s] or s == before)
            assert st.dealer == expected, (before, alive, st.alive)


# ---------------------------------------------------------------- voided hand


def test_voided_hand_restores_lives_keeps_size_and_passes_the_deal_sefode() -> None:
    # Two players with one life each; equal cards cancel, both bid 1, both would go out.
    st = new_match("sefode", 2, dealer=0, lives=1, deals=[deal([["3c"], ["3h"]])])
    bids(st, {1: 1, 0: 1})
    record = hand_record(st, 1)
    assert record["void"] is True
    assert record["score"] == [1, 1]
    assert record["out"] == []
    assert st.score == [1, 1] and st.alive == [True, True]
    assert GAME.outcome(st) is None
    # Same size (1, not the 2 the cycle would give) and the next dealer.
    assert st.hand_no == 2 and st.size == 1 and st.dealer == 1


def test_voided_hand_restores_points_keeps_size_and_passes_the_deal_7letras() -> None:
    # One-card rounds only (max_cards 1); both declare a win with cards that cancel: both miss every time.
    same = [deal([["Kc"], ["Kh"]], "4d") for _ in range(8)]
    st = new_match("7letras", 2, dealer=0, max_cards=1, deals=same)
    for _ in range(6):
        bids(st, {0: 1, 1: 1})
    assert st.score == [6, 6]
    dealer = st.dealer
    bids(st, {0: 1, 1: 1})
    record = hand_record(st, 7)
    assert record["void"] is True and record["score"] == [6, 6] and record["out"] == []
    assert st.score == [6, 6] and st.alive == [True, True] and GAME.outcome(st) is None
    assert st.size == 1 and st.dealer == 1 - dealer


def test_voided_hand_keeps_a_size_above_one() -> None:
    # 2 players, 1 life; hand 2 (2 cards) cancels twice: both bid 1, both win nothing.
    st = new_match("sefode", 2, dealer=0, lives=2, deals=[deal([["3c"], ["2h"]]), deal([["Kc", "Qc"], ["Kh", "Qh"]])])
    bids(st, {1: 1, 0: 1})  # seat 1 loses a life
    assert st.size == 2 and st.dealer == 1 and st.score == [2, 1]
    # Hand 2: both tricks cancel; seat 0 bids 2 (-2), seat 1 bids 1 (-1): both would go out.
    bids(st, {0: 2, 1: 1})
    plays(st, (0, "Kc"), (1, "Kh"), (0, "Qc"), (1, "Qh"))
    record = hand_record(st, 2)
    assert record["void"] is True and record["score"] == [2, 1] and record["out"] == []
    assert st.score == [2, 1] and GAME.outcome(st) is None
    assert st.size == 2 and st.dealer == 0 and st.hand_no == 3


# ---------------------------------------------------------------- placements


def test_placement_last_standing_is_first_and_earlier_outs_are_worse() -> None:
    st = new_match(
        "sefode",
        3,
        dealer=0,
        lives=1,
        deals=[deal([["3c"], ["4h"], ["2d"]]), deal([["3c"], ["4h"], ["2d"]])],
    )
    bids(st, {1: 1, 2: 1, 0: 1})  # seat 1 loses with 4h while bidding 1; seat 0 wins; seat 2 misses too
    assert st.alive == [True, False, False]
    assert GAME.outcome(st) is not None
    # Seats 1 and 2 went out in the same hand with the same lives: they share 2nd.
    assert list(GAME.outcome(st).placements) == [1, 2, 2]  # type: ignore[union-attr]


def test_placement_same_hand_ties_ordered_by_what_is_left_sefode() -> None:
    # 3 players, 2 lives: seat 1 loses a life in hand 1; in hand 2 (2 cards) seats 0 and 1 both miss by 2,
    # so seat 0 ends on 0 and seat 1 on -1: both out, seat 0 placed above seat 1.
    st = new_match(
        "sefode",
        3,
        dealer=2,
        lives=2,
        deals=[deal([["4h"], ["5h"], ["3c"]]), deal([["4d", "5d"], ["6d", "Qd"], ["3h", "2h"]])],
    )
    bids(st, {0: 0, 1: 1, 2: 1})  # seat 1 bids 1 and loses: 1 life left
    assert st.score == [2, 1, 2] and st.dealer == 0
    bids(st, {1: 2, 2: 2, 0: 2})  # seat 2 makes both; seat 1 misses by 2 (-1), seat 0 misses by 2 (0)
    plays(st, (1, "6d"), (2, "3h"), (0, "4d"), (2, "2h"), (0, "5d"), (1, "Qd"))
    record = hand_record(st, 2)
    assert record["score"] == [0, -1, 2]
    assert sorted(record["out"]) == [0, 1]
    assert list(GAME.outcome(st).placements) == [2, 3, 1]  # type: ignore[union-attr]


def test_placement_exact_ties_share_with_competition_ranking_1_2_2_4() -> None:
    st = new_match(
        "sefode",
        4,
        dealer=0,
        lives=1,
        deals=[deal([["3c"], ["4h"], ["2d"], ["Kh"]]), deal([["4h"], None, ["3c"], ["5h"]])],
    )
    # Hand 1: seat 1 bids a win with the weakest card and goes out alone.
    bids(st, {1: 1, 2: 0, 3: 0, 0: 1})
    assert st.alive == [True, False, True, True]
    # Hand 2 (one card again), dealt by seat 2: seats 3 and 0 bid a win and lose to seat 2's 3c.
    assert st.dealer == 2 and st.size == 1
    bids(st, {3: 1, 0: 1, 2: 1})
    assert hand_record(st, 2)["score"] == [0, None, 1, 0]
    assert list(GAME.outcome(st).placements) == [2, 4, 1, 2]  # type: ignore[union-attr]


# ---------------------------------------------------------------- leaving on purpose


def test_leaving_on_purpose_bot_finishes_the_hand_then_the_seat_is_out() -> None:
    st = new_match("sefode", 3, dealer=0, deals=[None, deal([["3c", "4h"], ["3h", "5h"], ["2d", "5d"]])])
    play_out_hand(st)
    assert st.dealer == 1 and turn(st) == 2
    events = act(st, 2, leave=True)
    assert events == [{"type": "leave", "seat": 2}]
    assert GAME.stand_in_seats(st) == frozenset({2})
    # The seat still takes its turns in this hand (a bot plays them).
    assert turn(st) == 2
    bids(st, {2: 1, 0: 0, 1: 0})
    plays(st, (2, "2d"), (0, "4h"), (1, "3h"))
    plays(st, (1, "5h"), (2, "5d"), (0, "3c"))
    assert st.alive == [True, True, False]
    assert hand_record(st, 2)["out"] == [2]
    assert GAME.stand_in_seats(st) == frozenset()
    assert 2 not in st.order


def test_leaving_on_purpose_places_the_leaver_below_everyone_alive_at_that_moment() -> None:
    # 4 players, 1 life. Seat 3 goes out in hand 1; seat 0 leaves in hand 2 while having all its lives.
    st = new_match("sefode", 4, dealer=0, lives=1, deals=[deal([["3c"], ["3h"], ["2d"], ["4h"]])])
    bids(st, {1: 0, 2: 1, 3: 1, 0: 0})  # 3c and 3h cancel, 2d wins; seat 3 (4h) bids 1 and loses
    assert st.alive == [True, True, True, False]
    act(st, 0, leave=True)
    play_out_hand(st, bid=1)
    while GAME.outcome(st) is None:
        play_out_hand(st, bid=1)
    placements = list(GAME.outcome(st).placements)  # type: ignore[union-attr]
    assert placements[3] == 4  # out before the leave: below the leaver
    assert placements[0] == 3  # below everyone alive when it left
    assert sorted(placements[1:3]) == [1, 2]


@pytest.mark.parametrize("variant", VARIANTS)
def test_leaving_on_purpose_places_the_leaver_below_a_seat_going_out_in_the_same_hand(variant: str) -> None:
    # Seat 2 leaves in hand 1; seat 1 loses its last life (or takes its seventh point) in the same hand.
    vira = "Kc" if variant == "7letras" else None
    hands = [["3c"], ["4h"], ["2d"]]
    if variant == "sefode":
        st = new_match("sefode", 3, dealer=0, lives=1, deals=[deal(hands)])
    else:
        st = new_match("7letras", 3, dealer=0, max_cards=1, deals=[deal(hands, vira)] * 7)
        for _ in range(6):
            bids(st, {1: 1, 2: 0, 0: 1})  # seat 1 misses every round
        assert st.score == [0, 6, 0]
    act(st, 2, leave=True)
    bids(st, {1: 1, 2: 0, 0: 1})
    assert GAME.outcome(st) is not None
    assert list(GAME.outcome(st).placements) == [1, 2, 3]  # type: ignore[union-attr]


def test_leaving_on_purpose_is_refused_twice_and_for_a_seat_already_out() -> None:
    st = new_match("sefode", 3, dealer=0, lives=1, deals=[deal([["3c"], ["4h"], ["2d"]])])
    bids(st, {1: 1, 2: 0, 0: 1})
    assert not st.alive[1]
    with pytest.raises(IllegalAction, match="out"):
        act(st, 1, leave=True)
    act(st, 0, leave=True)
    with pytest.raises(IllegalAction, match="already left"):
        act(st, 0, leave=True)


# ---------------------------------------------------------------- views and the trick history


@pytest.mark.parametrize("variant", VARIANTS)
def test_view_shows_own_hand_only_and_never_the_seed_or_deck(variant: str) -> None:
    vira = "Kc" if variant == "7letras" else None
    hands = [["3c", "4h"], ["3h", "5h"], ["2d", "5d"]]
    st = new_match(variant, 3, dealer=0, seed=987654321, deals=[None, deal(hands, vira)])
    play_out_hand(st)
    for seat in range(3):
        view = GAME.view(st, seat)
        assert view["hands"] == [hands[s] if s == seat else None for s in range(3)]
        assert "match_tricks" not in view  # the match's past comes on demand (Fodinha.past)
        text = json.dumps({k: v for k, v in view.items() if k != "last_hand"})
        assert "987654321" not in text and "seed" not in text
        # No card appears but the seat's own, the vira and the names of the manilhas.
        allowed = set(hands[seat]) | set(view["manilhas"] or []) | ({view["vira"]} if view["vira"] else set())
        assert set(re.findall(r'"([4567QJKA23][chsd])"', text)) <= allowed
    assert GAME.view(st, None)["hands"] == [None, None, None]
    if variant == "7letras":
        assert GAME.view(st, None)["vira"] == "Kc"  # in rounds of 2+ cards the vira is face up


@pytest.mark.parametrize("variant", VARIANTS)
def test_tricks_of_the_match_are_grouped_under_their_winners_in_the_past(variant: str) -> None:
    vira = "4d" if variant == "7letras" else None  # manilha 5
    hands = [["Kc", "Qc", "3c"], ["Kh", "Qh", "2h"]]
    st = new_match(variant, 2, dealer=1, deals=[None, None, deal(hands, vira)])
    play_out_hand(st)
    play_out_hand(st)
    earlier = {key: len(value) for key, value in GAME.past(st, 0)["match_tricks"].items()}
    bids(st, {0: 1, 1: 1})
    plays(st, (0, "Kc"), (1, "Kh"))
    during = GAME.past(st, 1)["match_tricks"]
    assert [t["plays"] for t in during["pending"]] == [[[0, "Kc"], [1, "Kh"]]]
    plays(st, (0, "Qc"), (1, "2h"))
    plays(st, (1, "Qh"), (0, "3c"))
    grouped = GAME.past(st, None)["match_tricks"]
    hand3 = {key: [t["plays"] for t in value if t["hand"] == 3] for key, value in grouped.items()}
    # The cancelled trick was taken (with the bolo) by seat 1 and is shown under it.
    assert hand3["1"] == [[[0, "Kc"], [1, "Kh"]], [[0, "Qc"], [1, "2h"]]]
    assert hand3["0"] == [[[1, "Qh"], [0, "3c"]]]
    assert "pending" not in grouped
    total = sum(len(v) for v in grouped.values())
    assert total == sum(earlier.values()) + 3


def _grouped_anew(st: FodinhaState) -> dict[str, list[dict[str, object]]]:
    """The grouping written out plainly, from every trick of the match, for the test below."""
    groups: dict[str, list[dict[str, object]]] = {}
    for t in st.match_tricks:
        if t.hand == st.hand_no and st.phase != "over" and t.taken_by is None and t.winner is None:
            key = "pending"
        else:
            key = "none" if t.taken_by is None else str(t.taken_by)
        entry = {"leader": t.leader, "plays": [[s, truco_name(c)] for s, c in t.plays], "winner": t.winner}
        groups.setdefault(key, []).append({**entry, "value": t.value, "hand": t.hand})
    return groups


@pytest.mark.parametrize("variant", (*VARIANTS, "junto"))
def test_tricks_of_the_match_in_the_past_are_the_same_from_the_cache_of_finished_hands(variant: str) -> None:
    # The past keeps the JSON of finished hands' tricks (they never change again) so that it costs the same late in a
    # match as early. Whatever the cache holds, a clone taken hands ago, or a clone with no cache at all, shows
    # exactly the grouping built from every trick of the match.
    rng = random.Random(41)
    more: dict[str, Any] = {} if variant == "7letras" else {"lives": 12, "teams": variant == "junto"}
    st = new_match("sefode" if variant == "junto" else variant, 4, dealer=None, seed=41, **more)
    older: list[FodinhaState] = []
    while GAME.outcome(st) is None and st.hand_no < 14:
        for viewer in (None, 0):
            assert GAME.past(st, viewer)["match_tricks"] == _grouped_anew(st)
        bare = GAME.clone(st)
        bare.grouped_past = None
        assert GAME.past(bare, 2)["match_tricks"] == _grouped_anew(st)
        if rng.random() < 0.05:
            older.append(GAME.clone(st))
        seat = next(s for s in range(st.n) if GAME.legal_actions(st, s))
        GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
    assert st.hand_no >= 6, "the match ended before its cache was used"
    for old in older:
        assert GAME.past(old, 1)["match_tricks"] == _grouped_anew(old)
        while GAME.outcome(old) is None and old.hand_no < 16:
            seat = next(s for s in range(old.n) if GAME.legal_actions(old, s))
            GAME.apply(old, seat, rng.choice(GAME.legal_actions(old, seat)))
            assert GAME.past(old, None)["match_tricks"] == _grouped_anew(old)


# ---------------------------------------------------------------- checked actions


def test_checked_apply_refuses_out_of_turn_and_changes_nothing() -> None:
    st = new_match("sefode", 3, dealer=0, deals=[deal([["3c"], ["3h"], ["2d"]])])
    with pytest.raises(NotYourTurn, match="seat 1"):
        act(st, 2, bid=0)
    assert st.bids == [-1, -1, -1] and st.log == []


def test_checked_apply_refuses_a_card_not_in_hand() -> None:
    st = new_match("sefode", 3, dealer=0, deals=[None, deal([["3c", "4h"], ["3h", "5h"], ["2d", "5d"]])])
    play_out_hand(st)
    bids(st, {2: 0, 0: 0, 1: 0})
    with pytest.raises(IllegalAction, match="does not hold") as err:
        act(st, 2, play="3c")
    assert err.value.code == "action/card_not_in_hand"
    with pytest.raises(IllegalAction, match="not a truco card"):
        act(st, 2, play="8c")


def test_options_are_validated_up_front_with_a_reason() -> None:
    with pytest.raises(InvalidOptions, match="2 to 8"):
        new_match("sefode", 9)
    with pytest.raises(InvalidOptions, match="variant"):
        new_match("truco", 3)
    with pytest.raises(InvalidOptions, match="one deck"):
        new_match("7letras", 3, decks=2)
    with pytest.raises(InvalidOptions, match="4, 6 or 8"):
        new_match("sefode", 5, teams=True)
    with pytest.raises(InvalidOptions, match="no team mode"):
        new_match("7letras", 4, teams=True)
    with pytest.raises(InvalidOptions, match="lives"):
        new_match("7letras", 4, lives=3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_views_never_show_a_card_the_seat_may_not_see_over_random_matches(variant: str) -> None:
    for seed in range(8):
        players = 2 + seed % 6
        st = new_match(variant, players, dealer=None, seed=seed)
        rng = random.Random(seed)
        while GAME.outcome(st) is None:
            seat = turn(st)
            if variant == "7letras" and st.size > 1 and rng.random() < 0.05 and not st.shown[seat]:
                act(st, seat, show=True)
            one_card = st.size == 1
            held = [set(GAME.view(st, s)["hands"][s] or []) if not one_card else set() for s in range(players)]
            for viewer in [*range(players), None]:
                view = GAME.view(st, viewer)
                for owner in range(players):
                    shown = st.shown[owner] and not one_card
                    if one_card:
                        may = viewer is not None and viewer != owner and st.alive[viewer] and owner in st.order
                    else:
                        may = viewer == owner or shown
                    cards = view["hands"][owner]
                    if may and owner in st.order:
                        assert cards is not None and len(cards) == len(st.hands[owner]), (viewer, owner)
                    else:
                        assert not cards, (viewer, owner)
                    if not may and not one_card:
                        current = {
                            "trick": view["trick"],
                            "tricks": view["tricks"],
                            "hands": view["hands"],
                            "vira": view["vira"],
                        }
                        assert not held[owner] & set(re.findall(r"[4567QJKA23][chsd]", json.dumps(current)))
                if variant == "7letras" and one_card:
                    assert view["vira"] is None and view["manilhas"] is None
            GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))


@pytest.mark.parametrize("half", range(2))
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("variant", VARIANTS)
def test_misdeal_has_no_digital_counterpart_every_deal_gives_each_seat_the_right_count(
    variant: str, seed: int, half: int
) -> None:
    # Seed 000 rules (c) and (d) punish a wrong count; the server deals, so the count is always right.
    # One match per seed (0..5); each case checks every other hand of it (the even ones, or the odd ones), so that
    # pytest-xdist can spread a long match: a view costs more the longer the match has run.
    st = new_match(variant, 3 + seed % 4, dealer=None, seed=seed)
    while GAME.outcome(st) is None:
        if st.hand_no % 2 == half:
            counts = GAME.view(st, None)["hand_counts"]
            assert [counts[s] for s in st.order] == [st.size] * len(st.order)
            assert all(counts[s] == 0 for s in range(st.n) if s not in st.order)
        play_out_hand(st)


def _last_trick(view: dict[str, Any]) -> Any:
    """The trick a Fodinha table shows as taken last (the client's ``lastTrick``): this hand's last, else the last
    of the hand before."""
    if view["tricks"]:
        return view["tricks"][-1]
    last = view["last_hand"]
    return last["tricks"][-1] if last and last["tricks"] else None


def _random_actions(variant: str) -> Iterator[tuple[int, FodinhaState, list[Any]]]:
    """Six seeded random matches of ``variant`` (``sefodejunto``: Se Fode in pairs), played to their end: after each
    action, the seed, the match and the action's events."""
    for seed in range(6):
        players = 4 if variant == "sefodejunto" else 2 + seed % 6
        options: dict[str, Any] = {"teams": True} if variant == "sefodejunto" else {}
        st = new_match("sefode" if variant == "sefodejunto" else variant, players, dealer=None, seed=seed, **options)
        rng = random.Random(seed)
        while GAME.outcome(st) is None:
            seat = turn(st)
            yield seed, st, GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))


@pytest.mark.parametrize("variant", (*VARIANTS, "sefodejunto"))
def test_trick_event_names_who_took_it_and_every_view_holds_the_trick_its_play_events_made(variant: str) -> None:
    """A ``trick`` event says who took the trick and what it was worth, and no more: its cards came in the ``play``
    events since the trick before, in order, and after the action every seat's view (and the spectator's) holds the
    last trick taken whole, which is what the table draws taken (``lastTrick`` in the Fodinha client)."""
    checked = 0
    played: list[list[Any]] = []
    match: FodinhaState | None = None
    for seed, st, events in _random_actions(variant):
        if st is not match:  # a new match: no trick taken yet
            match, taken = st, 0
        last = None
        for event in events:
            if event["type"] == "play":
                played.append([event["seat"], event["card"]])
            elif event["type"] == "trick":
                assert set(event) == {"type", "winner", "value"}, event
                trick = st.match_tricks[taken]
                taken += 1
                assert (event["winner"], event["value"]) == (trick.winner, trick.value), (seed, event)
                assert played == [[s, truco_name(c)] for s, c in trick.plays], (seed, played)
                last = {"leader": trick.leader, "plays": played, "winner": trick.winner, "value": trick.value}
                played = []
        if last is not None:
            for viewer in [*range(st.seats), None]:
                assert _last_trick(GAME.view(st, viewer)) == last, (seed, viewer)
            checked += 1
        if GAME.outcome(st) is not None:
            assert taken == len(st.match_tricks) and played == [], seed
    assert checked > 50


@pytest.mark.parametrize("variant", (*VARIANTS, "sefodejunto"))
def test_hand_end_event_names_the_hand_and_every_view_holds_its_record(variant: str) -> None:
    """A ``hand_end`` event says which hand ended and whether it was void, and no more: the bids, tricks won, who went
    out and the scores are in every seat's view (its ``last_hand`` and ``scores``) after the action."""
    ended = 0
    for seed, st, events in _random_actions(variant):
        ends = [e for e in events if e["type"] == "hand_end"]
        for event in ends:
            assert set(event) == {"type", "hand", "void"}, event
        if ends:
            record = st.records[-1]
            assert (ends[-1]["hand"], ends[-1]["void"]) == (record.number, record.void)
            for viewer in [*range(st.seats), None]:
                view = GAME.view(st, viewer)
                last = view["last_hand"]
                assert (last["number"], last["void"], last["out"]) == (record.number, record.void, record.out)
                assert (last["bids"], last["won"]) == (record.bids, record.won), (seed, viewer)
                assert view["scores"] == [st.score[st.unit[s]] for s in range(st.seats)]
            ended += len(ends)
    assert ended > 20
