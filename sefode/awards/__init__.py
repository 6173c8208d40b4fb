"""Medals, tournaments and the leaderboard: the pure rules (seed 002, RULINGS §1). Storage lives in
``sefode.accounts``."""

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
    "TOURNAMENT_LENGTHS",
    "Board",
    "Medal",
    "MedalAward",
    "Page",
    "RankedRow",
    "SeatResult",
    "StandingRow",
    "Standings",
    "Tally",
    "TournamentStatus",
    "check_length",
    "is_valid_match",
    "leaderboard_page",
    "match_medals",
    "match_points",
    "medal_for_place",
    "page_of",
    "paginate",
    "rank",
    "seat_results",
    "tournament_standings",
]
