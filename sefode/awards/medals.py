"""Medals for one finished match (seed 002, docs/rulings.md §1.22).

Pure logic: no I/O. The engine already places every seat (``Outcome.placements``): shared places follow
competition ranking (1, 2, 2, 4), partners share their pair's place, and a player who left keeps the place
they had secured. This module only decides whether the match counts and which medal each human earns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

MIN_HUMANS = 5
"""A match is valid for medals when at least this many humans were seated at its start."""


class Medal(StrEnum):
    GOLD = "gold"
    SILVER = "silver"
    BRONZE = "bronze"


_BY_PLACE = {1: Medal.GOLD, 2: Medal.SILVER, 3: Medal.BRONZE}


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished match.

    ``player`` identifies whoever sat there: an account or a guest when ``human``, else a bot's label (bots
    need one only to be told apart in tournament standings). ``unit`` is the seat's scoring unit: the seat itself,
    or the index of its unit (pair or team) in ``Outcome.units``. ``seated_at_start`` is False only for a late
    arrival (a game with the ``join`` capability), who plays (and may earn a medal) but does not make the match
    valid.
    """

    seat: int
    player: str
    place: int
    human: bool = True
    unit: int | None = None
    seated_at_start: bool = True

    @property
    def scoring_unit(self) -> int:
        return self.seat if self.unit is None else self.unit


@dataclass(frozen=True, slots=True)
class MedalAward:
    player: str
    seat: int
    place: int
    medal: Medal


def medal_for_place(place: int) -> Medal | None:
    """Gold, silver, bronze for places 1, 2, 3; nothing below (a shared 2nd makes the next place 4th)."""
    return _BY_PLACE.get(place)


def humans_at_start(seats: Iterable[SeatResult]) -> int:
    return sum(1 for s in seats if s.human and s.seated_at_start)


def is_valid_match(seats: Sequence[SeatResult]) -> bool:
    """5 or more humans seated at the start; bots never count."""
    return humans_at_start(seats) >= MIN_HUMANS


def match_medals(seats: Sequence[SeatResult], no_winner: bool = False) -> list[MedalAward]:
    """The medals a finished match gives, one per human placed 1st, 2nd or 3rd; none if the match is not valid,
    and none when it ended with no winner (docs/rulings.md §1.22 and §3.12).

    Places come straight from the engine, so pairs (both partners share a place), shared places and leavers
    (who keep the place they had secured) need nothing special here. Bots never receive a medal.
    """
    if no_winner or not is_valid_match(seats):
        return []
    awards: list[MedalAward] = []
    for s in sorted(seats, key=lambda r: r.seat):
        medal = medal_for_place(s.place)
        if s.human and medal is not None:
            awards.append(MedalAward(player=s.player, seat=s.seat, place=s.place, medal=medal))
    return awards


def seat_results(
    placements: Sequence[int],
    players: Sequence[str | None],
    units: Sequence[int] | None = None,
    seated_at_start: Sequence[bool] | None = None,
) -> list[SeatResult]:
    """Build seat results from an engine outcome (``placements[seat]``) and who sat where (``None``: a bot, which
    gets the label ``bot:<seat>``)."""
    if len(players) != len(placements):
        raise ValueError(f"{len(placements)} placements but {len(players)} players")
    if units is not None and len(units) != len(placements):
        raise ValueError(f"{len(placements)} placements but {len(units)} units")
    if seated_at_start is not None and len(seated_at_start) != len(placements):
        raise ValueError(f"{len(placements)} placements but {len(seated_at_start)} start flags")
    return [
        SeatResult(
            seat=seat,
            player=_player_or_bot(players[seat], seat),
            place=place,
            human=players[seat] is not None,
            unit=None if units is None else units[seat],
            seated_at_start=True if seated_at_start is None else seated_at_start[seat],
        )
        for seat, place in enumerate(placements)
    ]


def _player_or_bot(player: str | None, seat: int) -> str:
    return f"bot:{seat}" if player is None else player
