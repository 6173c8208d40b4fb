"""Tournaments (seed 002, docs/rulings.md §1): points, both tie-breaks, shared titles, validity, trophies,
abandonment."""

from __future__ import annotations

import pytest

from sefode.awards import SeatResult, TournamentStatus, match_points, seat_results, tournament_standings


def _match(places: dict[str, int], bots: tuple[str, ...] = ()) -> list[SeatResult]:
    return [
        SeatResult(seat=i, player=p, place=place, human=p not in bots) for i, (p, place) in enumerate(places.items())
    ]


FIVE = ("ana", "bia", "caio", "duda", "edu")


def test_tournament_points_equal_players_placed_below() -> None:
    assert match_points(_match({"ana": 1, "bia": 2, "caio": 3, "duda": 4, "edu": 5})) == {
        "ana": 4,
        "bia": 3,
        "caio": 2,
        "duda": 1,
        "edu": 0,
    }
    # Shared places: nobody counts someone tied with them as placed below.
    assert match_points(_match({"ana": 1, "bia": 2, "caio": 2, "duda": 4, "edu": 4})) == {
        "ana": 4,
        "bia": 2,
        "caio": 2,
        "duda": 0,
        "edu": 0,
    }


def test_tournament_points_in_pairs_count_pairs_placed_below() -> None:
    seats = seat_results([1, 3, 2, 1, 3, 2], ["a", "b", "c", "d", "e", "f"], units=[0, 1, 2, 0, 1, 2])
    assert match_points(seats) == {"a": 2, "d": 2, "c": 1, "f": 1, "b": 0, "e": 0}


def test_tournament_points_in_pairs_a_leaver_does_not_count_the_own_pair() -> None:
    # Seat 3 left and got the worst place open (3rd) while its partner, seat 0, won with the pair.
    seats = seat_results([1, 2, 3, 3, 2, 3], ["a", "b", "c", "d", "e", "f"], units=[0, 1, 2, 0, 1, 2])
    points = match_points(seats)
    assert points["a"] == 2 and points["d"] == 0


def test_tournament_champion_has_most_points() -> None:
    matches = [
        _match({"ana": 1, "bia": 2, "caio": 3, "duda": 4, "edu": 5}),
        _match({"ana": 2, "bia": 1, "caio": 3, "duda": 4, "edu": 5}),
        _match({"ana": 1, "bia": 3, "caio": 2, "duda": 4, "edu": 5}),
    ]
    s = tournament_standings(3, matches)
    assert s.status is TournamentStatus.FINISHED and s.valid
    assert [(r.player, r.points, r.rank) for r in s.rows] == [
        ("ana", 11, 1),
        ("bia", 9, 2),
        ("caio", 7, 3),
        ("duda", 3, 4),
        ("edu", 0, 5),
    ]
    assert s.champions == ("ana",) and s.trophy_winners == ("ana",)
    assert s.rows[0].per_match == (4, 3, 4)


def test_tournament_tie_break_more_first_places() -> None:
    # ana: 4+0+4 = 8 with two 1st places; bia: 3+3+2 = 8 with none... plus caio 8 with one 1st.
    matches = [
        _match({"ana": 1, "bia": 2, "caio": 3, "duda": 4, "edu": 5}),
        _match({"ana": 5, "bia": 2, "caio": 1, "duda": 3, "edu": 4}),
        _match({"ana": 1, "bia": 3, "caio": 4, "duda": 2, "edu": 5}),
    ]
    s = tournament_standings(3, matches)
    points = {r.player: r.points for r in s.rows}
    assert points["ana"] == points["bia"] == 8
    assert [r.player for r in s.rows][:2] == ["ana", "bia"]
    assert s.rows[0].firsts == 2 and s.rows[1].firsts == 0
    assert s.champions == ("ana",)


def test_tournament_tie_break_better_place_in_the_last_match() -> None:
    # ana 4+2+3 = 9 and bia 3+4+2 = 9, one 1st place each; ana was 2nd in the last match, bia 3rd.
    matches = [
        _match({"ana": 1, "bia": 2, "caio": 3, "duda": 4, "edu": 5}),
        _match({"ana": 3, "bia": 1, "caio": 2, "duda": 4, "edu": 5}),
        _match({"ana": 2, "bia": 3, "caio": 4, "duda": 1, "edu": 5}),
    ]
    s = tournament_standings(3, matches)
    by = {r.player: r for r in s.rows}
    assert by["ana"].points == by["bia"].points == 9
    assert by["ana"].firsts == by["bia"].firsts == 1
    assert by["ana"].last_place == 2 and by["bia"].last_place == 3
    assert by["ana"].rank == 1 and by["bia"].rank == 2
    assert s.champions == ("ana",)


def test_tournament_tie_after_both_tie_breaks_shares_the_title() -> None:
    matches = [
        _match({"ana": 1, "bia": 3, "caio": 2, "duda": 4, "edu": 5}),
        _match({"ana": 3, "bia": 1, "caio": 2, "duda": 4, "edu": 5}),
        _match({"ana": 1, "bia": 1, "caio": 3, "duda": 4, "edu": 5}),
    ]
    s = tournament_standings(3, matches)
    assert set(s.champions) == {"ana", "bia"}
    assert set(s.trophy_winners) == {"ana", "bia"}
    assert [r.rank for r in s.rows][:3] == [1, 1, 3]


def test_tournament_trophy_only_for_a_valid_tournament() -> None:
    # The second match had 4 humans and a bot: not valid, so the tournament is not valid and gives no trophy.
    matches = [
        _match(dict(zip(FIVE, [1, 2, 3, 4, 5], strict=True))),
        _match({"ana": 1, "bia": 2, "caio": 3, "duda": 4, "bot": 5}, bots=("bot",)),
        _match(dict(zip(FIVE, [1, 2, 3, 4, 5], strict=True))),
    ]
    s = tournament_standings(3, matches)
    assert s.status is TournamentStatus.FINISHED
    assert not s.valid
    assert s.champions == ("ana",)
    assert s.trophy_winners == ()


def test_tournament_a_bot_champion_gets_no_trophy() -> None:
    players = (*FIVE, "bot")
    matches = [_match(dict(zip(players, [2, 3, 4, 5, 6, 1], strict=True)), bots=("bot",)) for _ in range(3)]
    s = tournament_standings(3, matches)
    assert s.valid and s.champions == ("bot",) and s.trophy_winners == ()


def test_tournament_standings_between_matches_have_no_champion() -> None:
    s = tournament_standings(5, [_match(dict(zip(FIVE, [1, 2, 3, 4, 5], strict=True)))])
    assert s.status is TournamentStatus.PLAYING
    assert s.matches_played == 1 and s.matches_declared == 5
    assert s.rows[0].player == "ana" and s.champions == () and s.trophy_winners == ()


def test_tournament_room_emptied_before_the_last_match_ends_without_a_champion() -> None:
    matches = [_match(dict(zip(FIVE, [1, 2, 3, 4, 5], strict=True))) for _ in range(2)]
    s = tournament_standings(3, matches, abandoned=True)
    assert s.status is TournamentStatus.ABANDONED
    assert s.champions == () and s.trophy_winners == ()
    assert s.rows[0].player == "ana"  # the standings so far are still shown
    # Emptying the room after the last match changes nothing.
    done = tournament_standings(3, [*matches, matches[0]], abandoned=True)
    assert done.status is TournamentStatus.FINISHED and done.champions == ("ana",)


def test_tournament_absent_player_scores_nothing_and_is_worst_in_last_match() -> None:
    matches = [
        _match({"ana": 2, "bia": 1, "caio": 3, "duda": 4, "edu": 5, "fe": 6}),
        _match({"ana": 1, "bia": 2, "caio": 3, "duda": 4, "edu": 5, "fe": 6}),
        _match({"ana": 1, "caio": 2, "duda": 3, "edu": 4, "fe": 5}),
    ]
    s = tournament_standings(3, matches)
    bia = next(r for r in s.rows if r.player == "bia")
    assert bia.per_match == (5, 4, None) and bia.last_place is None
    assert s.champions == ("ana",)


@pytest.mark.parametrize("length", [0, 1, 2, 4, 6, True])
def test_tournament_has_3_or_5_matches(length: int) -> None:
    with pytest.raises(ValueError, match="3 or 5"):
        tournament_standings(length, [])
