"""Per-game skill ratings (docs/rulings.md §1.25; issue 8 §2). Pure logic: no I/O.

Every game keeps its own rating table, an OpenSkill (Weng-Lin, Plackett-Luce model) rating per player. Which
finished matches change it, and how:

* a match is rated when 2 or more humans were seated at its start (``MIN_RATED_HUMANS``) and it did not end
  with no winner (docs/rulings.md §3.12): a no-winner match changes nothing;
* bots are never rated. A unit (a seat, or a pair or team of seats from ``Outcome.units``) with a bot seated
  in it from the start is left out of the rating altogether: its humans are not rated for that match, and the
  rated units are ranked among themselves. Humans ranked only against each other keep the table about humans;
* a human who left for good (a bot finished the seat) is rated at the place the game gave them, the forfeit's
  place: leaving never dodges a rating loss. The bot that finished the seat is not rated;
* a late arrival is rated at their place too (they played and were placed), but does not count towards the
  2 humans at the start;
* the seats of one unit sharing one place are rated as one team; a seat of a unit placed apart from its
  partners (a partner who left) is rated alone, at its own place;
* shared places are ties.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from openskill.models import PlackettLuce

from sefode.awards.leaderboard import clamp_page_size, page_count
from sefode.awards.medals import SeatResult, humans_at_start

MIN_RATED_HUMANS = 2
"""A match changes the game's rating table when at least this many humans were seated at its start."""

_MODEL = PlackettLuce()
DEFAULT_MU: float = _MODEL.mu
DEFAULT_SIGMA: float = _MODEL.sigma


class Unrated(StrEnum):
    """Why a finished match changed no rating."""

    NO_WINNER = "no_winner"
    TOO_FEW_HUMANS = "too_few_humans"
    """Fewer than 2 humans seated at the start."""
    TOO_FEW_TEAMS = "too_few_teams"
    """Fewer than 2 units without a bot: nobody to be ranked against."""


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def rating(self) -> float:
        """The conservative rating shown and ordered on: mu - 3 sigma (OpenSkill's ordinal)."""
        return float(_MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal())


@dataclass(frozen=True, slots=True)
class RatedTeam:
    players: tuple[str, ...]
    place: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    player: str
    team: int
    """Index of the player's team in ``rating_teams``' answer."""
    place: int
    before: Skill
    after: Skill


def rating_teams(seats: Sequence[SeatResult], no_winner: bool = False) -> tuple[list[RatedTeam], Unrated | None]:
    """The teams a finished match rates (best place first, then by seat), or none and the reason."""
    if no_winner:
        return [], Unrated.NO_WINNER
    if humans_at_start(seats) < MIN_RATED_HUMANS:
        return [], Unrated.TOO_FEW_HUMANS
    with_bot = {s.scoring_unit for s in seats if not s.human}
    groups: dict[tuple[int, int], list[str]] = {}
    seen: set[str] = set()
    for s in sorted(seats, key=lambda r: r.seat):
        if s.scoring_unit in with_bot or s.player in seen:
            continue  # bots are never rated; a player is rated once per match, at their first seat
        seen.add(s.player)
        groups.setdefault((s.scoring_unit, s.place), []).append(s.player)
    teams = [RatedTeam(tuple(players), place) for (_, place), players in groups.items()]
    if len(teams) < 2:
        return [], Unrated.TOO_FEW_TEAMS
    teams.sort(key=lambda t: t.place)  # stable: ties keep seat order
    return teams, None


def rate_teams(teams: Sequence[RatedTeam], current: Mapping[str, Skill]) -> list[RatingChange]:
    """New skills after one match of ``teams``; a player missing from ``current`` starts at the default."""
    if len(teams) < 2:
        return []
    before = [[current.get(p, Skill()) for p in t.players] for t in teams]
    model_teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in before]
    rated = _MODEL.rate(model_teams, ranks=[float(t.place) for t in teams])
    out: list[RatingChange] = []
    for i, (team, old, new) in enumerate(zip(teams, before, rated, strict=True)):
        for player, b, n in zip(team.players, old, new, strict=True):
            out.append(
                RatingChange(
                    player=player, team=i, place=team.place, before=b, after=Skill(float(n.mu), float(n.sigma))
                )
            )
    return out


# --------------------------------------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class RatingRow:
    player: str
    name: str
    skill: Skill
    matches: int


@dataclass(frozen=True, slots=True)
class RankedRating:
    rank: int
    row: RatingRow


def rating_key(rating: float) -> float:
    """Ratings equal to 6 decimals share a rank (floats from different paths may differ in the last bits)."""
    return round(rating, 6)


def rank_ratings(rows: Sequence[RatingRow]) -> list[RankedRating]:
    """Best rating first; equal ratings share a rank (competition ranking); within a rank by more matches, then by
    name, then by id, so pages are stable."""
    ordered = sorted(rows, key=lambda r: (-rating_key(r.skill.rating), -r.matches, r.name.casefold(), r.player))
    out: list[RankedRating] = []
    for i, r in enumerate(ordered):
        if out and rating_key(out[-1].row.skill.rating) == rating_key(r.skill.rating):
            out.append(RankedRating(rank=out[-1].rank, row=r))
        else:
            out.append(RankedRating(rank=i + 1, row=r))
    return out


@dataclass(frozen=True, slots=True)
class RatingPage:
    page: int
    pages: int
    per_page: int
    total: int
    rows: tuple[RankedRating, ...]
    position: int | None
    """1-based position of ``me`` in the whole table, when asked and present."""


def rating_page(rows: Sequence[RatingRow], page: int = 1, per_page: int = 20, me: str | None = None) -> RatingPage:
    """The page asked for, or with ``me`` the page holding that player's row (if they are in the table)."""
    ranked = rank_ratings(rows)
    size = clamp_page_size(per_page)
    position: int | None = None
    if me is not None:
        found = next((i for i, r in enumerate(ranked) if r.row.player == me), None)
        if found is not None:
            position = found + 1
            page = found // size + 1
    pages = page_count(len(ranked), size)
    current = max(1, min(pages, page))
    start = (current - 1) * size
    return RatingPage(
        page=current,
        pages=pages,
        per_page=size,
        total=len(ranked),
        rows=tuple(ranked[start : start + size]),
        position=position,
    )
