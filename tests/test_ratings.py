"""The per-game rating rules, pure (``sefode.awards.skill``): who is rated and how teams are formed, ranks and
pages of a rating table. Storage is tested on both databases in ``tests/accounts/test_accounts_ratings.py``."""

from __future__ import annotations

import pytest

from sefode.awards import (
    RatedTeam,
    RatingRow,
    SeatResult,
    Skill,
    Unrated,
    rank_ratings,
    rate_teams,
    rating_page,
    rating_teams,
)


def seat(n: int, player: str | None, place: int, unit: int | None = None, start: bool = True) -> SeatResult:
    return SeatResult(
        seat=n, player=player or f"bot:{n}", place=place, human=player is not None, unit=unit, seated_at_start=start
    )


def test_reasons_for_changing_nothing() -> None:
    two = [seat(0, "a", 1), seat(1, "b", 2)]
    assert rating_teams(two, no_winner=True) == ([], Unrated.NO_WINNER)
    assert rating_teams([seat(0, "a", 1), seat(1, None, 2)]) == ([], Unrated.TOO_FEW_HUMANS)
    assert rating_teams([seat(0, "a", 1), seat(1, "b", 2, start=False)]) == ([], Unrated.TOO_FEW_HUMANS)
    # Two humans, but partners: one unit, nobody to be ranked against.
    pair = [seat(0, "a", 1, 0), seat(1, None, 2, 1), seat(2, "b", 1, 0), seat(3, None, 2, 1)]
    assert rating_teams(pair) == ([], Unrated.TOO_FEW_TEAMS)


def test_teams_by_unit_and_place_without_bots() -> None:
    seats = [
        seat(0, "a", 3, 0),
        seat(1, "b", 1, 1),
        seat(2, None, 2, 2),
        seat(3, "c", 3, 0),
        seat(4, "d", 5, 1),  # left: placed apart from the partner
        seat(5, "e", 2, 2),  # partner of a bot: not rated
    ]
    teams, reason = rating_teams(seats)
    assert reason is None
    assert teams == [RatedTeam(("b",), 1), RatedTeam(("a", "c"), 3), RatedTeam(("d",), 5)]


def test_a_player_is_rated_once_per_match() -> None:
    teams, _ = rating_teams([seat(0, "a", 1), seat(1, "b", 2), seat(2, "a", 3)])
    assert teams == [RatedTeam(("a",), 1), RatedTeam(("b",), 2)]


def test_the_winner_gains_the_loser_loses_and_uncertainty_shrinks() -> None:
    changes = {c.player: c for c in rate_teams([RatedTeam(("a",), 1), RatedTeam(("b",), 2)], {})}
    assert changes["a"].before == changes["b"].before == Skill()
    assert changes["a"].after.mu > Skill().mu > changes["b"].after.mu
    assert changes["a"].after.sigma < Skill().sigma and changes["b"].after.sigma < Skill().sigma
    assert changes["a"].after.rating == pytest.approx(changes["a"].after.mu - 3 * changes["a"].after.sigma)
    assert Skill().rating == pytest.approx(0.0)


def test_a_tie_between_equals_moves_no_mean() -> None:
    changes = rate_teams([RatedTeam(("a",), 1), RatedTeam(("b",), 1)], {})
    assert [c.after.mu for c in changes] == pytest.approx([Skill().mu, Skill().mu])


def row(player: str, mu: float, sigma: float = 1.0, matches: int = 1, name: str | None = None) -> RatingRow:
    return RatingRow(player=player, name=name or player, skill=Skill(mu, sigma), matches=matches)


def test_ranks_are_shared_on_equal_ratings_and_pages_find_me() -> None:
    rows = [row("a", 30), row("b", 20), row("c", 30, matches=5), row("d", 10), row("e", 20)]
    ranked = rank_ratings(rows)
    assert [(r.rank, r.row.player) for r in ranked] == [(1, "c"), (1, "a"), (3, "b"), (3, "e"), (5, "d")]
    page = rating_page(rows, page=1, per_page=2, me="d")
    assert page.page == 3 and page.pages == 3 and page.position == 5 and [r.row.player for r in page.rows] == ["d"]
    missing = rating_page(rows, page=9, per_page=2, me="zz")
    assert missing.page == 3 and missing.position is None
    assert rating_page([], page=1).pages == 1
