"""docs/rulings.md §1, the `7letras` side (seed 000): each test is named after the rule it checks."""

from __future__ import annotations

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

ORDER = "4567QJKA23"


def _trick(vira: str, *cards: str) -> tuple[list[tuple[int, str]], int | None]:
    """A one-card round, one card per seat, dealt by the last seat so seat 0 plays first: (plays, winner)."""
    n = len(cards)
    st = new_match("7letras", n, dealer=n - 1, deals=[deal([[c] for c in cards], vira)])
    for seat in range(n):
        act(st, seat, bid=0)
    (trick,) = tricks(hand_record(st, 1))
    return trick[1], trick[2]


def _climb_to(st: FodinhaState, size: int) -> None:
    while st.size < size:
        play_out_hand(st)


# ---------------------------------------------------------------- deck and vira


def test_7letras_deck_is_one_40_card_truco_deck_and_the_vira_is_a_card_of_its_own() -> None:
    with pytest.raises(InvalidOptions, match="one deck"):
        new_match("7letras", 3, decks=2)
    for seed in range(20):
        st = new_match("7letras", 8, dealer=None, seed=seed)
        _climb_to(st, 4)
        dealt = [c for hand in st.hands for c in hand]
        assert len(dealt) == 32 and len(set([*dealt, st.vira])) == 33
        assert all(0 <= c < 40 for c in [*dealt, st.vira])


def test_7letras_a_deal_must_give_the_vira() -> None:
    with pytest.raises(InvalidOptions, match="vira"):
        new_match("7letras", 2, deals=[deal([["Kc"], ["Kh"]])])
    with pytest.raises(InvalidOptions, match="more often"):
        new_match("7letras", 2, deals=[deal([["Kc"], ["Kh"]], vira="Kc")])


@pytest.mark.parametrize("vira_rank", list(ORDER))
def test_7letras_vira_manilhas_are_the_rank_just_above_the_vira_wrapping_3_to_4(vira_rank: str) -> None:
    manilha = ORDER[(ORDER.index(vira_rank) + 1) % 10]
    if vira_rank == "3":
        assert manilha == "4"
    strongest_common = "3" if manilha != "3" else "2"
    vira = vira_rank + "c"
    # The weakest manilha (diamonds) beats the strongest common card.
    assert _trick(vira, strongest_common + "h", manilha + "d")[1] == 1
    assert _trick(vira, manilha + "d", strongest_common + "h")[1] == 0
    # In a round of 2+ cards the view names them.
    st = new_match("7letras", 2, dealer=0, deals=[None, deal([["5h", "6h"], ["Qh", "Jh"]], vira)])
    play_out_hand(st)
    assert GAME.view(st, 0)["manilhas"] == [manilha + s for s in "chsd"]


def test_7letras_vira_3_makes_the_fours_manilhas() -> None:
    assert _trick("3c", "3h", "4d")[1] == 1
    assert _trick("3c", "4d", "4s", "2h")[1] == 1


@pytest.mark.parametrize("stronger,weaker", [("c", "h"), ("h", "s"), ("s", "d"), ("c", "d")])
def test_7letras_manilhas_ordered_clubs_hearts_spades_diamonds(stronger: str, weaker: str) -> None:
    assert _trick("Qd", "J" + stronger, "J" + weaker)[1] == 0
    assert _trick("Qd", "J" + weaker, "J" + stronger)[1] == 1


def test_7letras_cards_of_the_vira_rank_and_others_stay_common() -> None:
    # Vira Jc: manilha K. The other jacks stay common (J beats Q as usual); a king of any suit beats an ace.
    assert _trick("Jc", "Jh", "Qh")[1] == 0
    assert _trick("Jc", "Ah", "Kd")[1] == 1


# ---------------------------------------------------------------- cancellation (rule (a), (b))


def test_7letras_rule_a_example_1_equal_kings_cancel_7c_wins_with_vira_4h() -> None:
    played, winner = _trick("4h", "Kd", "Kh", "7c")
    assert played == [(0, "Kd"), (1, "Kh"), (2, "7c")]
    assert winner == 2


def test_7letras_rule_a_example_2_kings_are_manilhas_with_vira_Js_and_Kh_wins() -> None:
    _played, winner = _trick("Js", "Kd", "Kh", "7c")
    assert winner == 1


def test_7letras_three_equal_all_cancel() -> None:
    # Rule (b): a card equal to cards already cancelled is cancelled too (Se Fode would let the third win).
    assert _trick("4d", "Kc", "Kh", "Ks", "6d")[1] == 3
    assert _trick("4d", "Kc", "Kh", "Ks")[1] is None
    assert _trick("4d", "Kc", "6d", "Kh", "Ks", "Qd")[1] == 4


def test_7letras_four_equal_cards_all_cancel() -> None:
    assert _trick("4d", "Kc", "Kh", "Ks", "Kd", "6d")[1] == 4
    assert _trick("4d", "Kc", "Kh", "Ks", "Kd")[1] is None


def test_7letras_every_card_whose_value_repeats_cancels_two_groups() -> None:
    assert _trick("4d", "Kc", "3h", "Kh", "3s")[1] is None
    assert _trick("4d", "Kc", "3h", "Kh", "3s", "6h")[1] == 4


def test_7letras_manilhas_never_cancel() -> None:
    # Vira Qd: the four jacks are manilhas, all distinct.
    assert _trick("Qd", "Jd", "Js", "Jh", "Jc")[1] == 3
    assert _trick("Qd", "Jd", "Js", "3h", "3c")[1] == 1


# ---------------------------------------------------------------- bolo (rules (c) to (f))


def _hand_three(hands: list[list[str]], vira: str, dealer: int) -> FodinhaState:
    st = new_match("7letras", 2, dealer=dealer, deals=[None, None, deal(hands, vira)])
    play_out_hand(st)
    play_out_hand(st)
    assert st.size == 3 and st.dealer == dealer
    return st


def test_7letras_fully_cancelled_trick_accumulates_and_the_next_winner_takes_it() -> None:
    st = _hand_three([["Kc", "3c", "6c"], ["Kh", "2h", "5h"]], "Qd", dealer=1)
    bids(st, {0: 1, 1: 1})
    plays(st, (0, "Kc"), (1, "Kh"))
    assert GAME.view(st, 1)["trick_value"] == 2
    plays(st, (0, "3c"), (1, "2h"), (0, "6c"), (1, "5h"))
    record = hand_record(st, 3)
    assert [(t[2], t[3]) for t in tricks(record)] == [(None, 1), (0, 2), (0, 1)]
    assert record["won"] == [3, 0]


def test_7letras_after_a_fully_cancelled_trick_its_leader_leads_again() -> None:
    # Dealer 0: seat 1 opens the bids; seat 0 wins trick 1 and leads trick 2, which cancels:
    # seat 0 leads trick 3 (rule (d)); Se Fode would give the lead to seat 1.
    st = _hand_three([["3c", "Kc", "6c"], ["Qh", "Kh", "5h"]], "6d", dealer=0)
    bids(st, {1: 0, 0: 2})
    plays(st, (1, "Qh"), (0, "3c"), (0, "Kc"), (1, "Kh"))
    assert turn(st) == 0 and GAME.view(st, 1)["leader"] == 0
    plays(st, (0, "6c"), (1, "5h"))
    record = hand_record(st, 3)
    assert [t[0] for t in tricks(record)] == [1, 0, 0]
    assert record["won"] == [3, 0]


def test_7letras_pending_bolo_at_hand_end_is_won_by_nobody() -> None:
    # Rule (f): seat 0 won trick 1, but the bolo of the last two cancelled tricks goes to nobody.
    st = _hand_three([["3c", "Kc", "Qc"], ["5h", "Kh", "Qh"]], "6d", dealer=1)
    bids(st, {0: 3, 1: 1})
    plays(st, (0, "3c"), (1, "5h"), (0, "Kc"), (1, "Kh"), (0, "Qc"), (1, "Qh"))
    record = hand_record(st, 3)
    assert [t[2] for t in tricks(record)] == [0, None, None]
    assert record["bolo"] == {"seat": None, "value": 2}
    assert record["won"] == [1, 0]
    before = hand_record(st, 2)["score"]
    assert record["score"] == [before[0] + 1, before[1] + 1]  # both missed
    hand3 = {k: [t["plays"] for t in v if t["hand"] == 3] for k, v in GAME.past(st, 0)["match_tricks"].items()}
    assert hand3["0"] == [[[0, "3c"], [1, "5h"]]]
    assert hand3["none"] == [[[0, "Kc"], [1, "Kh"]], [[0, "Qc"], [1, "Qh"]]]


# ---------------------------------------------------------------- bids


def test_7letras_one_card_round_is_a_declaration_of_win_or_loss_with_no_pe_rule() -> None:
    st = new_match("7letras", 3, dealer=0, deals=[deal([["3c"], ["3h"], ["2d"]], "Kc")])
    act(st, 1, bid=0)
    act(st, 2, bid=0)
    # The dealer may make the declarations add up to the number of cards.
    assert legal_json(st, 0) == [{"bid": 0}, {"bid": 1}]
    assert GAME.view(st, 0)["forbidden_bid"] is None
    act(st, 0, bid=1)
    assert hand_record(st, 1)["bids"] == [1, 0, 0]
    other = new_match("7letras", 2, dealer=0, deals=[deal([["3c"], ["3h"]], "Kc")])
    with pytest.raises(IllegalAction, match="from 0 to 1"):
        act(other, 1, bid=2)


def test_7letras_pe_rule_applies_in_rounds_of_two_or_more_cards() -> None:
    st = new_match("7letras", 2, dealer=1, deals=[None, deal([["3c", "4h"], ["3h", "5h"]], "Kc")])
    play_out_hand(st)
    act(st, 1, bid=1)
    assert legal_json(st, 0) == [{"bid": 0}, {"bid": 2}]


# ---------------------------------------------------------------- mão na testa and the hidden vira


def test_7letras_vira_hidden_in_one_card_round_until_the_cards_are_played() -> None:
    st = new_match("7letras", 3, dealer=0, deals=[deal([["3c"], ["3h"], ["2d"]], "Kc")])
    for seat in (0, 1, 2, None):
        view = GAME.view(st, seat)
        assert view["vira"] is None and view["vira_hidden"] is True and view["manilhas"] is None
        assert "Kc" not in str(view)
    act(st, 1, bid=0)
    act(st, 2, bid=1)
    events = act(st, 0, bid=0)
    types = [e["type"] for e in events]
    assert types.index("vira") > max(i for i, t in enumerate(types) if t == "play")
    assert {"type": "vira", "card": "Kc"} in events
    assert hand_record(st, 1)["vira"] == "Kc"
    assert GAME.view(st, None)["last_hand"]["vira"] == "Kc"


def test_7letras_vira_face_up_before_the_bids_in_rounds_of_two_or_more_cards() -> None:
    st = new_match("7letras", 3, dealer=0, deals=[None, deal([["3c", "4h"], ["3h", "5h"], ["2d", "5d"]], "Kc")])
    play_out_hand(st)
    assert st.phase == "bidding" and st.nbids == 0
    for seat in (0, 1, 2, None):
        view = GAME.view(st, seat)
        assert view["vira"] == "Kc" and view["vira_hidden"] is False
        assert view["manilhas"] == ["Ac", "Ah", "As", "Ad"]


def test_7letras_mao_na_testa_cards_play_automatically_vira_decides() -> None:
    # Vira Qd: manilha J, so seat 2's Jd beats the 3s.
    st = new_match("7letras", 3, dealer=2, deals=[deal([["3c"], ["3h"], ["Jd"]], "Qd")])
    bids(st, {0: 1, 1: 1, 2: 0})
    record = hand_record(st, 1)
    assert tricks(record)[0] == (0, [(0, "3c"), (1, "3h"), (2, "Jd")], 2, 1)
    assert record["score"] == [1, 1, 1]


# ---------------------------------------------------------------- score


def test_7letras_points_start_at_0_and_any_difference_costs_exactly_one_point() -> None:
    st = new_match(
        "7letras",
        3,
        dealer=0,
        deals=[deal([["4h"], ["3h"], ["Kh"]], "Qc"), deal([["4s", "5s"], ["3s", "2s"], ["As", "Ks"]], "Qc")],
    )
    assert st.score == [0, 0, 0]
    bids(st, {1: 1, 2: 0, 0: 0})
    assert st.score == [0, 0, 0]
    bids(st, {2: 0, 0: 2, 1: 2})
    while st.phase == "playing":
        seat = turn(st)
        GAME.apply(st, seat, GAME.legal_actions(st, seat)[0])
    record = hand_record(st, 2)
    assert record["won"] == [0, 2, 0]
    assert record["score"] == [1, 0, 0]  # missed by 2: one point, not two


def _run_of_misses(hands: int) -> FodinhaState:
    """3 players; seat 1 holds the strongest cards and bids them all, seat 2 bids 0, seat 0 always bids 1
    with the weakest cards: seat 0 takes a point every round and nobody else does (7 rounds preset)."""
    low = ["4c", "4h", "4s", "4d", "5c", "5h", "5s", "5d"]
    high = ["3c", "3h", "3s", "3d", "2c", "2h", "2s", "2d"]
    mid = ["Ac", "Ah", "As", "Ad", "Kc", "Kh", "Ks", "Kd"]
    deals = [deal([low[:k], high[:k], mid[:k]], "Qc") for k in range(1, 8)]
    st = new_match("7letras", 3, dealer=0, deals=deals)
    for k in range(1, hands + 1):
        assert st.size == k
        bids(st, {0: 1, 1: k, 2: 0})
        while st.phase == "playing" and st.hand_no == k:
            seat = turn(st)
            GAME.apply(st, seat, GAME.legal_actions(st, seat)[0])
    return st


def test_7letras_seven_points_is_out() -> None:
    st = _run_of_misses(6)
    assert st.score == [6, 0, 0] and st.alive == [True, True, True]
    st = _run_of_misses(7)
    record = hand_record(st, 7)
    assert record["score"] == [7, 0, 0] and record["out"] == [0]
    assert st.alive == [False, True, True]


def test_7letras_elimination_does_not_reset_the_hand_size() -> None:
    st = _run_of_misses(7)
    assert hand_record(st, 7)["out"] == [0]
    # Se Fode would go back to one card; 7 Letras goes on climbing (8 fits: 39 // 2 = 19).
    assert st.size == 8 and st.hand_no == 8
    assert st.dealer == 1 and st.order == (2, 1)
    # The deal keeps rotating over the seats still alive: 1, 2, then 1 again (seat 0 is skipped).
    dealers = []
    for _ in range(2):
        play_out_hand(st)
        dealers.append(st.dealer)
    assert dealers == [2, 1]


# ---------------------------------------------------------------- hand sizes


def test_7letras_hand_sizes_climb_to_the_most_that_fits_with_the_vira_then_down_peak_and_1_not_repeated() -> None:
    # 8 players: 39 // 8 = 4 cards (Se Fode would deal 5). Six rounds give at most 6 points: nobody is out.
    st = new_match("7letras", 8, dealer=0)
    sizes = [st.size]
    for _ in range(7):
        play_out_hand(st)
        sizes.append(st.size)
    assert sizes[:7] == [1, 2, 3, 4, 3, 2, 1]
    if GAME.outcome(st) is None:
        assert sizes[7] == 2


def test_7letras_most_that_fits_keeps_a_card_for_the_vira() -> None:
    new_match("7letras", 3, max_cards=13)
    with pytest.raises(InvalidOptions, match="from 1 to 9"):
        new_match("7letras", 4, max_cards=10)  # 39 // 4 = 9; Se Fode allows 10
    new_match("sefode", 4, max_cards=10)


def test_7letras_if_the_next_size_does_not_fit_take_the_largest_that_fits() -> None:
    # 7 players: 39 // 7 = 5 fits. At the start of round 5 (5 cards) an eighth player joins: 4 fit now.
    st = new_match("7letras", 7, dealer=0)
    _climb_to(st, 5)
    assert st.hand_no == 5 and st.n == 7
    act(st, 7, join=True)
    assert st.n == 8 and st.size == 4
    assert GAME.view(st, None)["hand_counts"] == [4] * 8
    play_out_hand(st)
    # Climbing further does not fit: one card fewer than the round before (seed 000 rule (b)).
    assert st.size == 3


# ---------------------------------------------------------------- late arrival


def _points(seats_missing: list[list[int]]) -> FodinhaState:
    """3 players, one-card rounds only; in round r the seats in ``seats_missing[r]`` declare wrongly."""
    deals = [deal([["4h"], ["5h"], ["3h"]], "Kc") for _ in seats_missing]
    st = new_match("7letras", 3, dealer=0, max_cards=1, deals=deals)
    for missing in seats_missing:
        # Seat 2 holds the 3h and wins; a declaration is wrong when it says otherwise.
        bids(st, {s: (1 if s != 2 else 0) if s in missing else (1 if s == 2 else 0) for s in range(3)})
    return st


def test_7letras_late_arrival_joins_at_a_round_boundary_with_the_second_highest_distinct_point_total() -> None:
    st = _points([[0, 1], [0]])
    assert st.score == [2, 1, 0]
    dealer = st.dealer
    events = act(st, 3, join=True)
    assert {"type": "join", "seat": 3, "score": 1} in events
    assert st.n == 4 and st.score == [2, 1, 0, 1]
    assert GAME.view(st, 3)["scores"] == [2, 1, 0, 1]
    # The round is dealt again for four players, same dealer, and the newcomer bids in turn.
    assert st.dealer == dealer and len(st.order) == 4 and 3 in st.order
    assert GAME.view(st, 0)["hand_counts"] == [1, 1, 1, 1]
    play_out_hand(st)
    assert hand_record(st)["bids"][3] is not None


def test_7letras_late_arrival_round_is_dealt_again_under_the_same_number_with_its_preset_deal() -> None:
    # Round 1 preset for four seats: the three seated players wait for the fourth to join.
    four = deal([["4h"], ["5h"], ["3h"], ["Ac"]], "Kc")  # manilha A: the newcomer's card wins
    st = new_match("7letras", 3, dealer=0, deals=[four])
    events = act(st, 3, join=True)
    assert st.hand_no == 1
    assert [e for e in events if e["type"] == "deal"] == [
        {"type": "deal", "hand": 1, "dealer": 0, "cards": 1, "vira": None}
    ]
    assert GAME.view(st, 0)["hands"] == [None, ["5h"], ["3h"], ["Ac"]]
    bids(st, {1: 0, 2: 0, 3: 1, 0: 0})
    record = hand_record(st, 1)
    assert record["number"] == 1 and record["vira"] == "Kc"
    assert tricks(record)[0][2] == 3 and record["score"] == [0, 0, 0, 0]


def test_7letras_late_arrival_when_all_totals_are_equal_gets_that_total() -> None:
    st = _points([[0, 1, 2], [0, 1, 2]])
    assert st.score == [2, 2, 2]
    act(st, 3, join=True)
    assert st.score[3] == 2


def test_7letras_late_arrival_is_refused_mid_round() -> None:
    st = _points([[0]])
    act(st, turn(st), bid=0)
    with pytest.raises(IllegalAction, match="round boundary") as err:
        act(st, 3, join=True)
    assert err.value.code == "action/not_boundary"
    st = new_match("7letras", 3, dealer=0, deals=[None, deal([["3c", "4h"], ["3h", "5h"], ["2d", "5d"]], "Kc")])
    play_out_hand(st)
    bids(st, {2: 0, 0: 0, 1: 0})
    assert st.phase == "playing"
    with pytest.raises(IllegalAction, match="round boundary"):
        act(st, 3, join=True)
    assert st.n == 3


def test_7letras_late_arrival_takes_the_next_seat_only() -> None:
    st = _points([[0]])
    with pytest.raises(IllegalAction, match="next seat, 3"):
        act(st, 5, join=True)


# ---------------------------------------------------------------- show my hand


def test_7letras_show_my_hand_makes_the_cards_visible_to_every_seat_and_spectator() -> None:
    hands = [["3c", "4h"], ["3h", "5h"], ["2d", "5d"]]
    st = new_match("7letras", 3, dealer=0, deals=[None, deal(hands, "Kc")])
    play_out_hand(st)
    assert GAME.view(st, 1)["hands"][0] is None
    events = act(st, 0, show=True)
    assert events == [{"type": "show", "seat": 0, "cards": ["3c", "4h"]}]
    for seat in (0, 1, 2, None):
        view = GAME.view(st, seat)
        assert view["hands"][0] == ["3c", "4h"]
        assert view["shown"] == [True, False, False]
        # Only the shown hand: seat 1's cards stay hidden from everyone else.
        if seat != 1:
            assert view["hands"][1] is None
    bids(st, {2: 0, 0: 1, 1: 0})
    plays(st, (2, "2d"), (0, "3c"))
    assert GAME.view(st, None)["hands"][0] == ["4h"]
    with pytest.raises(IllegalAction, match="already shown"):
        act(st, 0, show=True)


def test_7letras_show_my_hand_lasts_for_the_round_only() -> None:
    st = new_match("7letras", 2, dealer=0, deals=[None, deal([["3c", "4h"], ["3h", "5h"]], "Kc")])
    play_out_hand(st)
    act(st, 1, show=True)
    play_out_hand(st)
    assert st.size == 3
    assert GAME.view(st, 0)["hands"][1] is None and GAME.view(st, 0)["shown"] == [False, False]


def test_7letras_show_my_hand_is_refused_in_a_one_card_round() -> None:
    st = new_match("7letras", 3, dealer=0, deals=[deal([["3c"], ["3h"], ["2d"]], "Kc")])
    with pytest.raises(IllegalAction, match="one-card"):
        act(st, 0, show=True)


# ---------------------------------------------------------------- placements


def test_7letras_players_out_in_the_same_round_share_the_place() -> None:
    st = _points([[0, 1]] * 7)
    assert GAME.outcome(st) is not None
    assert list(GAME.outcome(st).placements) == [2, 2, 1]  # type: ignore[union-attr]


def test_7letras_earlier_out_is_placed_lower() -> None:
    st = _points([[0, 1]] * 6 + [[0]])
    assert st.alive == [False, True, True]
    while GAME.outcome(st) is None:
        bids(st, {1: 1, 2: 1})
    placements = list(GAME.outcome(st).placements)  # type: ignore[union-attr]
    assert placements[0] == 3 and sorted(placements[1:]) == [1, 2]
