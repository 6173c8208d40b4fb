"""Tournament points, tie-breaks, champions and trophies (seed 002, docs/rulings.md §1). Pure logic: no I/O.

A tournament is 3 or 5 matches in one room, declared when the room is created. Each match gives each player
points equal to the number of players (units: pairs or teams) placed below them. The champion has the most
points; ties are broken by more 1st places, then by the better place in the last match; a tie after that
shares the title. A tournament is valid when every one of its matches was valid; the champion(s) of a valid
tournament get 1 trophy each. A tournament whose room empties before its last match ends without a champion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from sefode.awards.medals import SeatResult, is_valid_match

TOURNAMENT_LENGTHS = (3, 5)


class TournamentStatus(StrEnum):
    PLAYING = "playing"
    """Matches remain: the standings are those between matches."""
    FINISHED = "finished"
    ABANDONED = "abandoned"
    """The room emptied before the last match: no champion."""


def check_length(matches: object) -> int:
    """The declared number of matches, which must be 3 or 5."""
    if isinstance(matches, bool) or not isinstance(matches, int) or matches not in TOURNAMENT_LENGTHS:
        raise ValueError(f"a tournament has 3 or 5 matches, not {matches!r}")
    return matches


def match_points(seats: Sequence[SeatResult]) -> dict[str, int]:
    """Points each player earns in one match: the number of players (units) placed strictly below them.

    A pair's place is the best place among its seats (a partner who left keeps a worse place of their own,
    but the pair keeps its place); a player is never counted as placed below themselves or their partner.
    """
    unit_place: dict[int, int] = {}
    for s in seats:
        u = s.scoring_unit
        unit_place[u] = min(s.place, unit_place.get(u, s.place))
    return {
        s.player: sum(1 for u, place in unit_place.items() if u != s.scoring_unit and place > s.place) for s in seats
    }


@dataclass(frozen=True, slots=True)
class StandingRow:
    player: str
    human: bool
    rank: int
    points: int
    firsts: int
    last_place: int | None
    """Place in the latest match played (the last match once the tournament is over); None if absent from it."""
    per_match: tuple[int | None, ...]
    """Points in each match played; None where the player did not play."""


@dataclass(frozen=True, slots=True)
class Standings:
    matches_declared: int
    matches_played: int
    status: TournamentStatus
    valid: bool
    """Every match played so far was valid (for a finished tournament: every match was)."""
    rows: tuple[StandingRow, ...]
    champions: tuple[str, ...]
    """Players sharing the title (empty while playing and when abandoned); bots may be champions too."""
    trophy_winners: tuple[str, ...]
    """Human champions of a finished, valid tournament: each gets 1 trophy."""


def tournament_standings(
    matches_declared: int, matches: Sequence[Sequence[SeatResult]], abandoned: bool = False
) -> Standings:
    """Standings after the matches played so far (in order). ``abandoned``: the room emptied; if matches remain,
    the tournament ends without a champion."""
    declared = check_length(matches_declared)
    if len(matches) > declared:
        raise ValueError(f"a tournament of {declared} matches cannot have {len(matches)} results")
    played = len(matches)
    if played == declared:
        status = TournamentStatus.FINISHED
    elif abandoned:
        status = TournamentStatus.ABANDONED
    else:
        status = TournamentStatus.PLAYING
    order: list[str] = []
    human: dict[str, bool] = {}
    for match in matches:
        for s in sorted(match, key=lambda r: r.seat):
            if s.player not in human:
                order.append(s.player)
            human[s.player] = human.get(s.player, False) or s.human
    per_match: dict[str, list[int | None]] = {p: [] for p in order}
    firsts = dict.fromkeys(order, 0)
    for match in matches:
        points = match_points(match)
        for p in order:
            per_match[p].append(points.get(p))
        for s in match:
            if s.place == 1:
                firsts[s.player] += 1
    last: dict[str, int] = {s.player: s.place for s in matches[-1]} if matches else {}

    def key(p: str) -> tuple[int, int, float]:
        place = last.get(p)
        return (-sum(x or 0 for x in per_match[p]), -firsts[p], float("inf") if place is None else place)

    keys = {p: key(p) for p in order}
    ranked = sorted(order, key=lambda p: keys[p])
    rows = tuple(
        StandingRow(
            player=p,
            human=human[p],
            rank=1 + sum(1 for q in order if keys[q] < keys[p]),
            points=sum(x or 0 for x in per_match[p]),
            firsts=firsts[p],
            last_place=last.get(p),
            per_match=tuple(per_match[p]),
        )
        for p in ranked
    )
    valid = all(is_valid_match(m) for m in matches)
    champions = tuple(r.player for r in rows if r.rank == 1) if status is TournamentStatus.FINISHED else ()
    trophies = tuple(p for p in champions if human[p]) if valid else ()
    return Standings(
        matches_declared=declared,
        matches_played=played,
        status=status,
        valid=valid,
        rows=rows,
        champions=champions,
        trophy_winners=trophies,
    )
