"""docs/rulings.md §1.14: Se Fode Junto (pairs), seed 002. Each test is named after its rule."""

from __future__ import annotations

import pytest
from fodinha_helpers import GAME, act, bids, deal, hand_record, legal_json, new_match, play_out_hand, plays, tricks

from sefode.engine import InvalidOptions

# Hand 1 of a 4-player pairs match dealt by seat 0 (bids: 1, 2, 3, 0). Seat 1 takes the trick.
HAND_1 = deal([["4d"], ["3h"], ["5d"], ["6d"]])
# Hand 2, dealt by seat 1 (bids and first lead: 2, 3, 0, 1).
HAND_2 = deal([["3c", "4h"], ["5h", "6h"], ["Qs", "2c"], ["Kd", "5s"]])


def test_pairs_partner_of_seat_i_is_seat_i_plus_half_the_table() -> None:
    for n in (4, 6, 8):
        st = new_match("sefode", n, teams=True)
        teams = GAME.view(st, 0)["teams"]
        for seat in range(n):
            partner = (seat + n // 2) % n
            assert teams[seat] == teams[partner]
            assert [s for s in range(n) if teams[s] == teams[seat]] == sorted({seat, partner})
        # Seated alternately: neighbours are never partners.
        assert all(teams[s] != teams[(s + 1) % n] for s in range(n))


def test_pairs_need_4_6_or_8_players_and_are_a_sefode_option() -> None:
    for n in (2, 3, 5, 7):
        with pytest.raises(InvalidOptions, match="4, 6 or 8"):
            new_match("sefode", n, teams=True)
    with pytest.raises(InvalidOptions, match="team mode"):
        new_match("7letras", 4, teams=True)


def test_pairs_share_one_pool_of_10_lives() -> None:
    st = new_match("sefode", 4, teams=True)
    assert GAME.view(st, 1)["scores"] == [10, 10, 10, 10]
    assert GAME.view(st, 1)["options"]["lives"] == 5
    assert new_match("sefode", 6, teams=True, lives=3).score == [6, 6, 6]


def test_pairs_partners_melt_each_other() -> None:
    st = new_match("sefode", 4, dealer=3, teams=True, deals=[deal([["Kc"], ["5h"], ["Kh"], ["4h"]])])
    bids(st, {0: 1, 1: 0, 2: 1, 3: 1})
    (trick,) = tricks(hand_record(st, 1))
    # Seats 0 and 2 are partners; their kings cancel and seat 1's 5h takes the trick.
    assert trick[2] == 1


def test_pairs_team_bids_and_tricks_add_up() -> None:
    st = new_match("sefode", 4, dealer=0, teams=True, deals=[HAND_1, HAND_2])
    # Seat 1 bids 0 and wins the trick, its partner seat 3 bids 1 and wins nothing: the pair bid 1 and made 1.
    bids(st, {1: 0, 2: 0, 3: 1, 0: 1})
    record = hand_record(st, 1)
    assert record["won"] == [0, 1, 0, 0]
    assert record["score"] == [9, 10, 9, 10]
    # Hand 2: seat 0 bids 2 and wins one trick, seat 2 bids 0 and wins the other: the pair bid 2 and made 2.
    bids(st, {2: 0, 3: 0, 0: 2, 1: 1})
    plays(st, (2, "2c"), (3, "Kd"), (0, "3c"), (1, "5h"))
    plays(st, (0, "4h"), (1, "6h"), (2, "Qs"), (3, "5s"))
    record = hand_record(st, 2)
    assert record["won"] == [1, 0, 1, 0]
    assert record["score"] == [9, 9, 9, 9]


def test_pairs_pe_rule_looks_at_the_whole_table() -> None:
    st = new_match("sefode", 4, dealer=0, teams=True, deals=[HAND_1])
    act(st, 1, bid=0)
    act(st, 2, bid=0)
    act(st, 3, bid=1)
    # The table sums to 1 = the cards, so the dealer may not bid 0, whatever its partner bid.
    assert legal_json(st, 0) == [{"bid": 1}]


def test_pairs_lose_lives_together_and_both_partners_go_out_together() -> None:
    st = new_match("sefode", 4, dealer=0, teams=True, lives=1, deals=[HAND_1])
    # Pair 0/2 bids 2 with one card each and wins nothing: its pool of 2 goes to 0, both partners are out.
    bids(st, {1: 1, 2: 1, 3: 0, 0: 1})
    record = hand_record(st, 1)
    assert record["score"] == [0, 2, 0, 2]
    assert sorted(record["out"]) == [0, 2]
    assert st.alive == [False, True, False, True]


def test_pairs_both_partners_receive_the_same_placement() -> None:
    st = new_match("sefode", 4, dealer=0, teams=True, lives=1, deals=[HAND_1])
    bids(st, {1: 1, 2: 1, 3: 0, 0: 1})
    assert list(GAME.outcome(st).placements) == [2, 1, 2, 1]  # type: ignore[union-attr]
    for seed in range(6):
        st = new_match("sefode", 6 + 2 * (seed % 2), dealer=None, seed=seed, teams=True, lives=1)
        while GAME.outcome(st) is None:
            play_out_hand(st, bid=seed % 2)
        placements = list(GAME.outcome(st).placements)  # type: ignore[union-attr]
        half = st.n // 2
        assert all(placements[s] == placements[s + half] for s in range(half))
        assert 1 in placements


def test_pairs_voided_hand_when_every_pair_would_go_out() -> None:
    # Pool 2 each; all four cards melt in pairs and everyone bids 1: both pairs miss by 2.
    st = new_match("sefode", 4, dealer=0, teams=True, lives=1, deals=[deal([["Kc"], ["Qc"], ["Kh"], ["Qh"]])])
    bids(st, {1: 1, 2: 1, 3: 1, 0: 1})
    record = hand_record(st, 1)
    assert record["void"] is True and record["score"] == [2, 2, 2, 2]
    assert st.alive == [True] * 4 and st.size == 1 and st.dealer == 1


def test_pairs_leaver_is_played_by_a_stand_in_to_the_end_and_gets_the_worst_place_open() -> None:
    better_partner = 0
    for seed in range(8):
        st = new_match("sefode", 6, dealer=None, seed=seed, teams=True, lives=1)
        act(st, 0, leave=True)
        while GAME.outcome(st) is None:
            # The leaver's seat stays in the match (a bot plays it) while its pair is alive.
            if st.alive[0]:
                assert GAME.stand_in_seats(st) == frozenset({0})
                assert 0 in st.order
            play_out_hand(st, bid=seed % 2)
        placements = list(GAME.outcome(st).placements)  # type: ignore[union-attr]
        # Three pairs were alive when seat 0 left: the worst place then open was 3rd.
        assert placements[0] == 3
        # The partner keeps the pair's own place; the other pairs are placed as usual.
        pair_places = sorted({placements[1], placements[2], placements[3]})
        assert placements[3] in pair_places and placements[1] == placements[4] and placements[2] == placements[5]
        if placements[3] < 3:
            better_partner += 1
    assert better_partner > 0


def test_pairs_leaver_keeps_the_seat_until_the_pair_is_out() -> None:
    st = new_match("sefode", 4, dealer=0, teams=True, deals=[HAND_1])
    act(st, 2, leave=True)
    bids(st, {1: 0, 2: 0, 3: 1, 0: 1})
    play_out_hand(st)
    assert st.alive == [True] * 4 and GAME.stand_in_seats(st) == frozenset({2})
    assert 2 in st.order
