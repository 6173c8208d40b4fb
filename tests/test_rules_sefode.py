"""docs/rulings.md §1, the `sefode` side (seed 002): each test is named after the rule it checks."""

from __future__ import annotations

from collections import Counter

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

from sefode.engine import IllegalAction, InvalidOptions
from sefode.games.fodinha.state import FodinhaState


def _duel(seat0: str, seat1: str, decks: int = 1) -> int | None:
    """Two players, one card each (dealer 0): the seat that takes the trick, or None if it melts."""
    st = new_match("sefode", 2, dealer=0, decks=decks, deals=[deal([[seat0], [seat1]])])
    bids(st, {1: 0, 0: 0})
    return tricks(hand_record(st, 1))[0][2]


def _one_card_trick(*cards: str, decks: int = 1) -> tuple[list[tuple[int, str]], int | None]:
    """One card per seat, dealt by the last seat so that seat 0 plays first: (plays, winner)."""
    n = len(cards)
    st = new_match("sefode", n, dealer=n - 1, decks=decks, deals=[deal([[c] for c in cards])])
    for seat in range(n):
        act(st, seat, bid=0)
    (trick,) = tricks(hand_record(st, 1))
    return trick[1], trick[2]


def _names_in_hands(st: FodinhaState) -> Counter[str]:
    return Counter(name for seat in range(st.n) for name in GAME.view(st, seat)["hands"][seat] or [])


# ---------------------------------------------------------------- deck


def test_sefode_one_deck_is_the_40_card_truco_deck() -> None:
    # 8 players, 1 deck: the peak hand (5 cards) deals the whole deck, each card once.
    st = new_match("sefode", 8, dealer=0, lives=99)
    while st.size < 5:
        play_out_hand(st)
    names = _names_in_hands(st)
    assert len(names) == 40 and set(names.values()) == {1}
    assert not any(name[0] in "89T" for name in names)


def test_sefode_two_decks_deal_80_cards_each_copy_its_own_card() -> None:
    st = new_match("sefode", 8, dealer=0, lives=99, decks=2)
    sizes = [st.size]
    while st.size < 10:
        play_out_hand(st)
        sizes.append(st.size)
    assert sizes == list(range(1, 11))  # 80 // 8 = 10 fits
    names = _names_in_hands(st)
    assert len(names) == 40 and set(names.values()) == {2}
    assert len({code for hand in st.hands for code in hand}) == 80


def test_sefode_two_decks_both_copies_can_be_held_and_played_separately() -> None:
    hands = [["Kc", "Kc"], ["5h", "6h"]]
    st = new_match("sefode", 2, dealer=1, decks=2, deals=[None, deal(hands)])
    play_out_hand(st)
    assert st.dealer == 0
    assert GAME.view(st, 1)["hands"][1] == ["5h", "6h"]
    bids(st, {1: 1, 0: 2})
    plays(st, (1, "5h"), (0, "Kc"))
    assert GAME.view(st, 0)["hands"][0] == ["Kc"]
    plays(st, (0, "Kc"), (1, "6h"))
    assert hand_record(st, 2)["won"] == [2, 0]


def test_sefode_one_deck_refuses_a_card_dealt_twice_and_two_decks_refuse_three_copies() -> None:
    with pytest.raises(InvalidOptions, match="more often"):
        new_match("sefode", 2, deals=[deal([["Kc"], ["Kc"]])])
    new_match("sefode", 2, decks=2, deals=[deal([["Kc"], ["Kc"]])])
    with pytest.raises(InvalidOptions, match="more often"):
        new_match("sefode", 3, decks=2, deals=[deal([["Kc"], ["Kc"], ["Kc"]])])
    with pytest.raises(InvalidOptions, match="1 or 2 decks"):
        new_match("sefode", 3, decks=3)


def test_sefode_has_no_vira() -> None:
    st = new_match("sefode", 3, dealer=0)
    assert GAME.view(st, 0)["vira"] is None and GAME.view(st, 0)["vira_hidden"] is False
    with pytest.raises(InvalidOptions, match="no vira"):
        new_match("sefode", 2, deals=[deal([["Kc"], ["Kh"]], vira="4d")])


# ---------------------------------------------------------------- manilhas


@pytest.mark.parametrize("stronger,weaker", [("4c", "7h"), ("7h", "As"), ("As", "7d")])
def test_sefode_fixed_manilhas_order_4c_7h_As_7d(stronger: str, weaker: str) -> None:
    assert _duel(stronger, weaker) == 0
    assert _duel(weaker, stronger) == 1


@pytest.mark.parametrize("manilha", ["4c", "7h", "As", "7d"])
@pytest.mark.parametrize("common", ["3h", "2c", "Ac", "4d"])
def test_sefode_fixed_manilhas_beat_every_common_card(manilha: str, common: str) -> None:
    assert _duel(common, manilha) == 1


@pytest.mark.parametrize(
    "card,beats", [("4h", None), ("4s", None), ("7c", "6h"), ("7s", "6h"), ("Ah", "Kc"), ("Ad", "Kc")]
)
def test_sefode_other_cards_of_manilha_ranks_stay_common(card: str, beats: str | None) -> None:
    # They lose to the next common rank up and beat the next one down, like any common card.
    above = {"4": "5h", "7": "Qh", "A": "2h"}[card[0]]
    assert _duel(card, above) == 1
    if beats is not None:
        assert _duel(card, beats) == 0


def test_sefode_manilhas_are_the_same_each_hand() -> None:
    st = new_match("sefode", 3, dealer=0)
    for _ in range(4):
        assert GAME.view(st, None)["manilhas"] == ["4c", "7h", "As", "7d"]
        play_out_hand(st)


# ---------------------------------------------------------------- melada


def test_sefode_melada_equal_cards_cancel_and_the_strongest_survivor_wins() -> None:
    _played, winner = _one_card_trick("Kc", "Kh", "5d")
    assert winner == 2


def test_sefode_melada_three_equal_third_survives() -> None:
    assert _one_card_trick("Kc", "Kh", "Ks")[1] == 2
    # The third one survives and wins over a weaker card...
    assert _one_card_trick("Kc", "5d", "Kh", "Ks")[1] == 3
    # ...but is only a surviving card: a stronger one still beats it.
    assert _one_card_trick("Kc", "Kh", "Ks", "3d")[1] == 3
    assert _one_card_trick("Kc", "Kh", "3d", "Ks")[1] == 2


def test_sefode_melada_two_pairs_melt_in_the_order_played() -> None:
    assert _one_card_trick("Kc", "Qh", "Kh", "Qs")[1] is None
    assert _one_card_trick("Kc", "Qh", "Kh", "Qs", "4h")[1] == 4


def test_sefode_melada_more_than_three_equal_with_two_decks_cancel_in_pairs_odd_last_survives() -> None:
    # Four kings melt in two pairs: the weak 5d takes the trick.
    assert _one_card_trick("Kc", "Kh", "Ks", "Kd", "5d", decks=2)[1] == 4
    # Five kings (two copies of Kc): the fifth, last one survives.
    assert _one_card_trick("Kc", "Kh", "5d", "Kc", "Ks", "Kd", decks=2)[1] == 5
    assert _one_card_trick("Kc", "Kh", "Kc", "Ks", "Kd", "5d", decks=2)[1] == 4
    # Six kings: all melt.
    assert _one_card_trick("Kc", "Kh", "Ks", "Kd", "Kc", "Kh", decks=2)[1] is None


def test_sefode_melada_two_copies_of_a_manilha_melt() -> None:
    assert _one_card_trick("4c", "4c", "7h", decks=2)[1] == 2
    assert _one_card_trick("4c", "4c", decks=2)[1] is None


# ---------------------------------------------------------------- bolo

_THREE = 3  # hand 3 of a two-player match has 3 cards; the dealer is the first dealer again


def _hand_three(hands: list[list[str]], dealer: int = 0) -> FodinhaState:
    st = new_match("sefode", 2, dealer=dealer, deals=[None, None, deal(hands)])
    play_out_hand(st)
    play_out_hand(st)
    assert st.size == _THREE and st.dealer == dealer
    return st


def test_sefode_bolo_fully_cancelled_trick_has_no_winner_and_the_next_is_worth_two() -> None:
    st = _hand_three([["Kc", "3c", "6c"], ["Kh", "2h", "5h"]], dealer=1)
    bids(st, {0: 1, 1: 1})
    plays(st, (0, "Kc"), (1, "Kh"))
    assert GAME.view(st, 0)["trick_value"] == 2
    plays(st, (0, "3c"), (1, "2h"))
    plays(st, (0, "6c"), (1, "5h"))
    record = hand_record(st, 3)
    assert [(t[2], t[3]) for t in tricks(record)] == [(None, 1), (0, 2), (0, 1)]
    assert record["won"] == [3, 0]


def test_sefode_bolo_accumulates_over_several_cancelled_tricks() -> None:
    st = _hand_three([["Kc", "Qc", "6c"], ["Kh", "Qh", "5h"]], dealer=1)
    bids(st, {0: 3, 1: 1})
    plays(st, (0, "Kc"), (1, "Kh"), (0, "Qc"), (1, "Qh"))
    assert GAME.view(st, 1)["trick_value"] == 3
    plays(st, (0, "6c"), (1, "5h"))
    record = hand_record(st, 3)
    assert [t[3] for t in tricks(record)] == [1, 2, 3]
    assert record["won"] == [3, 0] and record["bolo"] is None


def test_sefode_after_a_fully_cancelled_trick_the_seat_that_opened_the_bids_leads() -> None:
    # Dealer 0: seat 1 opens the bids. Seat 0 wins trick 1 and leads trick 2, which melts:
    # seat 1 (the bid opener), not seat 0 (the leader of the melted trick), leads trick 3.
    st = _hand_three([["3c", "Kc", "6c"], ["Qh", "Kh", "5h"]], dealer=0)
    bids(st, {1: 0, 0: 2})
    plays(st, (1, "Qh"), (0, "3c"))
    plays(st, (0, "Kc"), (1, "Kh"))
    assert turn(st) == 1 and GAME.view(st, 0)["leader"] == 1
    plays(st, (1, "5h"), (0, "6c"))
    record = hand_record(st, 3)
    assert [t[0] for t in tricks(record)] == [1, 0, 1]
    assert record["won"] == [3, 0]


def test_sefode_pending_bolo_at_hand_end_goes_to_the_last_winner_before_the_cancellations() -> None:
    st = _hand_three([["3c", "Kc", "Qc"], ["5h", "Kh", "Qh"]], dealer=1)
    bids(st, {0: 3, 1: 1})
    plays(st, (0, "3c"), (1, "5h"), (0, "Kc"), (1, "Kh"))
    # The bid opener (seat 0) leads again after the melted trick.
    plays(st, (0, "Qc"), (1, "Qh"))
    record = hand_record(st, 3)
    assert [t[2] for t in tricks(record)] == [0, None, None]
    assert record["bolo"] == {"seat": 0, "value": 2}
    assert record["won"] == [3, 0]
    # Seat 0 bid 3 and, with the bolo, made it: no life lost.
    assert record["score"][0] == hand_record(st, 2)["score"][0]
    grouped = GAME.past(st, 1)["match_tricks"]
    assert [t["plays"] for t in grouped["0"] if t["hand"] == 3] == [
        [[0, "3c"], [1, "5h"]],
        [[0, "Kc"], [1, "Kh"]],
        [[0, "Qc"], [1, "Qh"]],
    ]


def test_sefode_pending_bolo_with_no_earlier_winner_is_discarded() -> None:
    st = _hand_three([["Jc", "Kc", "Qc"], ["Jh", "Kh", "Qh"]], dealer=1)
    bids(st, {0: 0, 1: 0})
    plays(st, (0, "Jc"), (1, "Jh"), (0, "Kc"), (1, "Kh"), (0, "Qc"), (1, "Qh"))
    record = hand_record(st, 3)
    assert [t[2] for t in tricks(record)] == [None, None, None]
    assert record["bolo"] == {"seat": None, "value": 3}
    assert record["won"] == [0, 0]
    assert [t["hand"] for t in GAME.past(st, 0)["match_tricks"]["none"] if t["hand"] == 3] == [3, 3, 3]
    assert not any(t["hand"] == 3 for key in ("0", "1") for t in GAME.past(st, 0)["match_tricks"].get(key, []))


# ---------------------------------------------------------------- bids and pé


def test_sefode_pe_rule_applies_also_in_the_one_card_hand() -> None:
    st = new_match("sefode", 3, dealer=0, deals=[deal([["3c"], ["3h"], ["2d"]])])
    act(st, 1, bid=0)
    act(st, 2, bid=0)
    assert legal_json(st, 0) == [{"bid": 0}]
    with pytest.raises(IllegalAction, match="pé"):
        act(st, 0, bid=1)
    st = new_match("sefode", 3, dealer=0, deals=[deal([["3c"], ["3h"], ["2d"]])])
    act(st, 1, bid=1)
    act(st, 2, bid=0)
    assert legal_json(st, 0) == [{"bid": 1}]


# ---------------------------------------------------------------- score


def test_sefode_lives_start_at_5_each() -> None:
    st = new_match("sefode", 4)
    assert st.score == [5, 5, 5, 5] and GAME.view(st, 0)["scores"] == [5, 5, 5, 5]
    assert new_match("sefode", 4, lives=3).score == [3, 3, 3, 3]


def test_sefode_score_costs_one_life_per_unit_of_abs_difference_over_and_under_alike() -> None:
    # Hand 2 (2 cards): seat 2 wins both tricks. Seat 0 bids 2 and wins 0 (under by 2); seat 2 bids 0 and
    # wins 2 (over by 2); seat 1 bids 1 and wins 0.
    st = new_match(
        "sefode", 3, dealer=0, deals=[deal([["3c"], ["3h"], ["2d"]]), deal([["4h", "5h"], ["6h", "Qh"], ["3d", "2d"]])]
    )
    bids(st, {1: 0, 2: 1, 0: 1})
    assert st.score == [4, 5, 5]
    assert legal_json(st, 2) == [{"bid": 0}, {"bid": 1}, {"bid": 2}]
    act(st, 2, bid=0)
    act(st, 0, bid=2)
    act(st, 1, bid=1)  # 0 would make the sum 2 (pé)
    plays(st, (2, "3d"), (0, "4h"), (1, "6h"), (2, "2d"), (0, "5h"), (1, "Qh"))
    record = hand_record(st, 2)
    assert record["won"] == [0, 0, 2]
    # under by 2: -2; under by 1: -1; over by 2: -2
    assert record["score"] == [2, 4, 3]


def test_sefode_zero_lives_or_less_is_out_and_lives_may_go_below_zero_in_the_record() -> None:
    st = new_match(
        "sefode",
        3,
        dealer=0,
        lives=1,
        deals=[deal([["3c"], ["3h"], ["2d"]]), deal([["4h", "5h"], ["6h", "Qh"], ["3d", "2d"]])],
    )
    bids(st, {1: 0, 2: 1, 0: 1})  # seat 0: 3c and 3h melt, so it wins nothing: 0 lives, out
    record = hand_record(st, 1)
    assert record["score"] == [0, 1, 1] and record["out"] == [0]
    assert st.alive == [False, True, True]
    assert 0 not in st.order and GAME.view(st, 1)["alive"] == [False, True, True]


def test_sefode_a_miss_by_two_with_one_life_records_minus_one() -> None:
    st = new_match(
        "sefode",
        3,
        dealer=0,
        lives=2,
        deals=[deal([["4h"], ["3h"], ["2d"]]), deal([["4d", "5h"], ["6h", "Qh"], ["3d", "2d"]])],
    )
    bids(st, {1: 1, 2: 1, 0: 1})  # seat 0 (4h) misses: 1 life left; seat 2 (2d) misses too
    assert st.score == [1, 2, 1]
    bids(st, {2: 2, 0: 2, 1: 0})
    plays(st, (2, "3d"), (0, "4d"), (1, "6h"), (2, "2d"), (0, "5h"), (1, "Qh"))
    record = hand_record(st, 2)
    assert record["score"] == [-1, 2, 1] and record["out"] == [0]


# ---------------------------------------------------------------- hand sizes


def test_sefode_hand_sizes_climb_to_the_most_that_fits_then_down_to_1_peak_and_1_not_repeated() -> None:
    st = new_match("sefode", 5, dealer=0, lives=99)  # 40 // 5 = 8 fits
    sizes = [st.size]
    for _ in range(17):
        play_out_hand(st)
        sizes.append(st.size)
    assert sizes == [1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4]


def test_sefode_max_cards_option_caps_the_cycle_and_is_validated() -> None:
    st = new_match("sefode", 3, dealer=0, lives=99, max_cards=3)
    sizes = [st.size]
    for _ in range(8):
        play_out_hand(st)
        sizes.append(st.size)
    assert sizes == [1, 2, 3, 2, 1, 2, 3, 2, 1]
    with pytest.raises(InvalidOptions, match="from 1 to 13"):
        new_match("sefode", 3, max_cards=14)
    with pytest.raises(InvalidOptions, match="from 1 to 26"):
        new_match("sefode", 3, decks=2, max_cards=27)


def test_sefode_hand_size_resets_to_1_after_any_elimination() -> None:
    # 3 players, 2 lives. Seat 1 loses a life in hand 1 and goes out in hand 2 (2 cards): hand 3 has 1 card.
    st = new_match(
        "sefode",
        3,
        dealer=0,
        lives=2,
        deals=[deal([["3c"], ["4h"], ["2d"]]), deal([["4d", "5h"], ["6h", "Qh"], ["3d", "2d"]])],
    )
    bids(st, {1: 1, 2: 0, 0: 1})
    assert st.score == [2, 1, 2] and st.size == 2
    bids(st, {2: 2, 0: 0, 1: 1})
    plays(st, (2, "3d"), (0, "4d"), (1, "6h"), (2, "2d"), (0, "5h"), (1, "Qh"))
    assert hand_record(st, 2)["out"] == [1]
    assert st.size == 1 and st.hand_no == 3
    play_out_hand(st)
    if GAME.outcome(st) is None and not hand_record(st, 3)["out"]:
        assert st.size == 2


@pytest.mark.parametrize("seed", range(12))
def test_sefode_hand_size_cycle_and_reset_hold_over_random_matches(seed: int) -> None:
    players = 3 + seed % 4
    st = new_match("sefode", players, dealer=None, seed=seed, lives=2, decks=1 + seed % 2)
    climbing = True
    while GAME.outcome(st) is None:
        play_out_hand(st, bid=seed % 2)
        record = hand_record(st)
        if GAME.outcome(st) is not None:
            break
        most = (40 * st.opts.decks) // sum(st.alive)
        size = record["cards"]
        if record["void"]:
            expected = size
        elif record["out"]:
            expected, climbing = 1, True
        elif climbing and size < most:
            expected = size + 1
        elif climbing:
            expected, climbing = size - 1, False
        elif size > 1:
            expected = size - 1
        else:
            expected, climbing = 2, True
        if expected == 1:
            climbing = True
        assert st.size == expected, (record["number"], size, most)


# ---------------------------------------------------------------- Se Fode has no 7 Letras rights


def test_sefode_show_my_hand_is_refused() -> None:
    st = new_match("sefode", 3, dealer=0)
    play_out_hand(st)
    with pytest.raises(IllegalAction, match="7 Letras"):
        act(st, 0, show=True)


def test_sefode_late_arrival_cannot_join_mid_match() -> None:
    st = new_match("sefode", 3, dealer=0)
    with pytest.raises(IllegalAction, match="next match") as err:
        act(st, 3, join=True)
    assert err.value.code == "action/no_join"
    assert st.n == 3
