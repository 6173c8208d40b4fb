"""Medals, tournaments, the leaderboard and the per-game rating tables (seed 002, docs/rulings.md §1).

The pure rules are ``leaderboard``, ``medals``, ``skill`` (ratings) and ``tournament``, re-exported here; recording a
finished match (``recording``) and the rating tables (``rating_table``) store them, in the tables of
``sefode.accounts.tables``. Nothing here names a game or reads a game's options: seats, places and units come from
the stored ``Outcome``."""

from sefode.awards.leaderboard import Board, Page, RankedRow, Tally, leaderboard_page, page_of, paginate, rank
from sefode.awards.medals import (
    MIN_HUMANS,
    Medal,
    MedalAward,
    SeatResult,
    is_valid_match,
    match_medals,
    medal_for_place,
    seat_results,
)
from sefode.awards.skill import (
    MIN_RATED_HUMANS,
    RankedRating,
    RatedTeam,
    RatingChange,
    RatingPage,
    RatingRow,
    Skill,
    Unrated,
    rank_ratings,
    rate_teams,
    rating_page,
    rating_teams,
)
from sefode.awards.tournament import (
    TOURNAMENT_LENGTHS,
    StandingRow,
    Standings,
    TournamentStatus,
    check_length,
    match_points,
    tournament_standings,
)

__all__ = [
    "MIN_HUMANS",
    "MIN_RATED_HUMANS",
    "TOURNAMENT_LENGTHS",
    "Board",
    "Medal",
    "MedalAward",
    "Page",
    "RankedRating",
    "RankedRow",
    "RatedTeam",
    "RatingChange",
    "RatingPage",
    "RatingRow",
    "SeatResult",
    "Skill",
    "StandingRow",
    "Standings",
    "Tally",
    "TournamentStatus",
    "Unrated",
    "check_length",
    "is_valid_match",
    "leaderboard_page",
    "match_medals",
    "match_points",
    "medal_for_place",
    "page_of",
    "paginate",
    "rank",
    "rank_ratings",
    "rate_teams",
    "rating_page",
    "rating_teams",
    "seat_results",
    "tournament_standings",
]
