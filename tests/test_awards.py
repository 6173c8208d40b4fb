"""Medals for one match and the leaderboard order (seed 002, docs/rulings.md §1): the pure rules of sefode.awards."""

from __future__ import annotations

import random
from collections.abc import Callable

from sefode.awards import (
    Board,
    Medal,
    MedalAward,
    SeatResult,
    Tally,
    is_valid_match,
    leaderboard_page,
    match_medals,
    medal_for_place,
    page_of,
    rank,
    seat_results,
)
from sefode.engine import get_game
from sefode.games.fodinha import LEAVE, FodinhaState


def _players(humans: int, bots: int) -> list[str | None]:
    return [f"p{i}" for i in range(humans)] + [None] * bots


def _medals(awards: list[MedalAward]) -> dict[str, Medal]:
    return {a.player: a.medal for a in awards}


def _play(options: dict[str, object], seed: int, before: Callable[[FodinhaState], bool] | None = None) -> FodinhaState:
    """Play a match with random legal actions; ``before`` runs before each decision and may act (True: it did)."""
    game = get_game("fodinha")
    state: FodinhaState = game.new_match(options, seed)
    rng = random.Random(seed)
    while game.awaiting(state):
        if before is not None and before(state):
            continue
        seat = min(game.awaiting(state))
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state


# ------------------------------------------------------------------------------------------- validity


def test_four_humans_and_one_bot_earn_nothing() -> None:
    seats = seat_results([1, 2, 3, 4, 5], _players(4, 1))
    assert not is_valid_match(seats)
    assert match_medals(seats) == []


def test_five_humans_earn_medals() -> None:
    seats = seat_results([3, 1, 2, 5, 4], _players(5, 0))
    assert is_valid_match(seats)
    assert _medals(match_medals(seats)) == {"p1": Medal.GOLD, "p2": Medal.SILVER, "p0": Medal.BRONZE}


def test_bots_never_count_and_never_receive_medals() -> None:
    # 5 humans and 3 bots: valid; the bots placed 1st and 3rd get nothing, and the humans keep their own places.
    seats = seat_results([4, 2, 5, 6, 7, 1, 8, 3], _players(5, 3))
    assert is_valid_match(seats)
    assert _medals(match_medals(seats)) == {"p1": Medal.SILVER}
    # 4 humans and 4 bots: not valid however many seats there are.
    assert match_medals(seat_results(list(range(1, 9)), _players(4, 4))) == []


def test_a_late_arrival_does_not_make_a_match_valid() -> None:
    seats = seat_results([1, 2, 3, 4, 5], _players(5, 0), seated_at_start=[True] * 4 + [False])
    assert not is_valid_match(seats)
    assert match_medals(seats) == []


def test_medals_for_places_1_2_3() -> None:
    assert [medal_for_place(p) for p in range(1, 6)] == [Medal.GOLD, Medal.SILVER, Medal.BRONZE, None, None]


def test_shared_places_two_tied_second_both_silver_and_no_bronze() -> None:
    seats = seat_results([1, 2, 2, 4, 5], _players(5, 0))
    assert _medals(match_medals(seats)) == {"p0": Medal.GOLD, "p1": Medal.SILVER, "p2": Medal.SILVER}


def test_shared_first_place_gives_two_golds_and_a_bronze() -> None:
    seats = seat_results([1, 1, 3, 4, 5, 6], _players(6, 0))
    assert _medals(match_medals(seats)) == {"p0": Medal.GOLD, "p1": Medal.GOLD, "p2": Medal.BRONZE}


# ------------------------------------------------------------------------------------------- pairs


def test_medals_in_pairs_both_partners_get_the_pairs_medal() -> None:
    # 6 humans in 3 pairs seated alternately (units 0 1 2 0 1 2): pair 1 won, pair 0 second, pair 2 third.
    seats = seat_results([2, 1, 3, 2, 1, 3], _players(6, 0), units=[0, 1, 2, 0, 1, 2])
    assert _medals(match_medals(seats)) == {
        "p1": Medal.GOLD,
        "p4": Medal.GOLD,
        "p0": Medal.SILVER,
        "p3": Medal.SILVER,
        "p2": Medal.BRONZE,
        "p5": Medal.BRONZE,
    }


def test_medals_in_pairs_from_a_real_team_match() -> None:
    state = _play({"variant": "sefode", "players": 6, "teams": True, "lives": 1}, seed=5)
    outcome = get_game("fodinha").outcome(state)
    assert outcome is not None
    seats = seat_results(list(outcome.placements), _players(6, 0), units=state.unit)
    medals = _medals(match_medals(seats))
    assert len(medals) == 6  # three pairs: every seat is on the podium
    for seat in range(3):
        assert medals[f"p{seat}"] == medals[f"p{seat + 3}"]  # partners share their pair's medal
    assert sorted(medals.values()) == sorted([Medal.GOLD, Medal.SILVER, Medal.BRONZE] * 2)


# ------------------------------------------------------------------------------------------- leavers


def test_a_leaver_keeps_a_secured_bronze() -> None:
    """Five players; once two are out, a player still in leaves with three in: they keep 3rd place, so bronze."""
    game = get_game("fodinha")
    checked = 0
    for seed in range(40):
        left: list[int] = []

        def leave_when_three_remain(st: FodinhaState, left: list[int] = left) -> bool:
            if not left and sum(st.alive) == 3 and not any(st.leaving):
                leaver = next(s for s in range(st.n) if st.alive[s])
                game.apply(st, leaver, LEAVE)
                left.append(leaver)
                return True
            return False

        state = _play({"variant": "sefode", "players": 5, "lives": 2}, seed, before=leave_when_three_remain)
        outcome = game.outcome(state)
        assert outcome is not None
        if not left:
            continue  # in this match three players were never left in at once
        checked += 1
        assert outcome.placements[left[0]] == 3
        medals = _medals(match_medals(seat_results(list(outcome.placements), _players(5, 0))))
        assert medals[f"p{left[0]}"] is Medal.BRONZE
    assert checked >= 5


def test_a_leaver_who_left_early_earns_nothing() -> None:
    game = get_game("fodinha")
    left: list[int] = []

    def leave_at_once(st: FodinhaState) -> bool:
        if not left:
            game.apply(st, 0, LEAVE)
            left.append(0)
            return True
        return False

    state = _play({"variant": "sefode", "players": 5, "lives": 2}, seed=4, before=leave_at_once)
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.placements[0] == 5
    assert "p0" not in _medals(match_medals(seat_results(list(outcome.placements), _players(5, 0))))


# ------------------------------------------------------------------------------------------- leaderboard


def _tallies() -> list[Tally]:
    return [
        Tally("a", "Ana", gold=1, silver=5, bronze=0),
        Tally("b", "Bia", gold=2, silver=0, bronze=0, trophies=1),
        Tally("c", "Caio", gold=1, silver=5, bronze=2),
        Tally("d", "Duda", gold=0, silver=9, bronze=9, trophies=3),
        Tally("e", "Edu", gold=1, silver=5, bronze=0, trophies=1),
        Tally("f", "Fê"),
    ]


def test_leaderboard_order_gold_then_silver_then_bronze() -> None:
    rows = rank(_tallies(), Board.MEDALS)
    assert [r.tally.player for r in rows] == ["b", "c", "e", "a", "d"]
    # Ana and Edu have the same medals: they share 3rd (Edu's trophy only orders the listing); Duda is 5th.
    assert [r.rank for r in rows] == [1, 2, 3, 3, 5]
    assert "f" not in [r.tally.player for r in rows]  # nothing won: not on the board


def test_trophy_ordering() -> None:
    rows = rank(_tallies(), Board.TROPHIES)
    assert [r.tally.player for r in rows] == ["d", "b", "e"]
    assert [r.rank for r in rows] == [1, 2, 2]


def test_leaderboard_pagination_and_show_me() -> None:
    tallies = [Tally(f"p{i:02}", f"Player {i:02}", gold=30 - i) for i in range(25)]
    page, position = leaderboard_page(tallies, page=2, per_page=10)
    assert (page.page, page.pages, page.total) == (2, 3, 25)
    assert [r.tally.player for r in page.rows] == [f"p{i:02}" for i in range(10, 20)]
    assert position is None
    page, position = leaderboard_page(tallies, page=1, per_page=10, me="p21")
    assert page.page == 3 and position == 22
    assert "p21" in [r.tally.player for r in page.rows]
    assert page_of(rank(tallies), "nobody", 10) is None
    # A page past the end is clamped to the last page.
    assert leaderboard_page(tallies, page=99, per_page=10)[0].page == 3


def test_seat_results_label_bots_and_check_lengths() -> None:
    seats = seat_results([2, 1], ["ana", None])
    assert seats[1] == SeatResult(seat=1, player="bot:1", place=1, human=False)
    try:
        seat_results([1, 2], ["ana"])
    except ValueError as e:
        assert "2 placements" in str(e)
    else:
        raise AssertionError("mismatched lengths were accepted")
