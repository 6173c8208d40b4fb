"""Storing the per-game rating tables (the rules are in ``sefode.awards.skill``), idempotently.

``rate_match(conn, match)`` is called by ``sefode.awards.recording.record_match_result`` in the same transaction
as the medals. It writes, once per finished match:

1. ``rating_matches`` (primary key ``match_id``): the "already looked at" mark, with whether ratings changed and,
   if not, why (no winner, fewer than 2 humans at the start, fewer than 2 units without a bot);
2. ``rating_changes`` (primary key ``(match_id, player_id)``): each rated player's skill before and after;
3. ``ratings`` (primary key ``(game, player_id)``): each rated player's current skill in that game.

A crash between two steps rolls every step back; a second call changes nothing (the mark is read first, and the
unique keys refuse a duplicate even from a concurrent writer); the server's start-up recovery
(``recording.record_pending``) rates, oldest first, every finished match that is not rated yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import sqlalchemy as sa

from sefode.awards import tables as w
from sefode.awards.skill import RatingChange, Skill, rate_teams, rating_teams
from sefode.store.db import now_ms

if TYPE_CHECKING:
    from sefode.awards.recording import FinishedMatch


# The statements of a match's rating, built once (a statement built per call costs more to build and to look up in
# SQLAlchemy's compiled cache than to run: rating a match took ~2 ms of CPU that way).
_RATED = sa.select(w.rating_matches.c.match_id).where(w.rating_matches.c.match_id == sa.bindparam("match_id"))
_SKILLS = sa.select(w.ratings.c.player_id, w.ratings.c.mu, w.ratings.c.sigma).where(
    w.ratings.c.game == sa.bindparam("game"), w.ratings.c.player_id.in_(sa.bindparam("players", expanding=True))
)
_SKILLS_LOCKED = _SKILLS.with_for_update()
_MARK = w.rating_matches.insert()
_CHANGES = w.rating_changes.insert()
_NEW_RATING = w.ratings.insert()
_NEXT_RATING = (
    w.ratings.update()
    .where(w.ratings.c.game == sa.bindparam("g_game"), w.ratings.c.player_id == sa.bindparam("g_player"))
    .values(
        mu=sa.bindparam("g_mu"),
        sigma=sa.bindparam("g_sigma"),
        rating=sa.bindparam("g_rating"),
        updated_at=sa.bindparam("g_updated_at"),
        matches=w.ratings.c.matches + 1,
    )
)


def is_rated(conn: sa.Connection, match_id: str) -> bool:
    return conn.execute(_RATED, {"match_id": match_id}).first() is not None


def current_skills(conn: sa.Connection, game: str, players: Sequence[str]) -> dict[str, Skill]:
    """The players' skills in ``game`` (rows locked for this transaction where the database can)."""
    if not players:
        return {}
    query = _SKILLS_LOCKED if conn.dialect.name == "postgresql" else _SKILLS
    rows = conn.execute(query, {"game": game, "players": sorted(set(players))}).all()
    return {str(r[0]): Skill(float(r[1]), float(r[2])) for r in rows}


def rate_match(conn: sa.Connection, match: FinishedMatch, now: int | None = None) -> list[RatingChange]:
    """Apply one finished match to its game's rating table, once. Returns the changes made (none when the match
    was rated before, or changes no rating)."""
    if is_rated(conn, match.match_id):
        return []
    stamp = now_ms() if now is None else now
    teams, reason = rating_teams(match.seats, match.outcome.no_winner)
    conn.execute(
        _MARK,
        {
            "match_id": match.match_id,
            "game": match.game,
            "rated": reason is None,
            "reason": None if reason is None else str(reason),
            "recorded_at": stamp,
        },
    )
    if reason is not None:
        return []
    players = [p for t in teams for p in t.players]
    current = current_skills(conn, match.game, players)
    changes = rate_teams(teams, current)
    _insert_changes(conn, match, changes)
    known = [
        {
            "g_game": match.game,
            "g_player": c.player,
            "g_mu": c.after.mu,
            "g_sigma": c.after.sigma,
            "g_rating": c.after.rating,
            "g_updated_at": stamp,
        }
        for c in changes
        if c.player in current
    ]
    new = [
        {
            "game": match.game,
            "player_id": c.player,
            "matches": 1,
            "mu": c.after.mu,
            "sigma": c.after.sigma,
            "rating": c.after.rating,
            "updated_at": stamp,
        }
        for c in changes
        if c.player not in current
    ]
    if known:
        conn.execute(_NEXT_RATING, known)
    if new:
        conn.execute(_NEW_RATING, new)
    return changes


def _insert_changes(conn: sa.Connection, match: FinishedMatch, changes: Sequence[RatingChange]) -> None:
    if not changes:
        return
    conn.execute(
        _CHANGES,
        [
            {
                "match_id": match.match_id,
                "player_id": c.player,
                "game": match.game,
                "team": c.team,
                "place": c.place,
                "mu_before": c.before.mu,
                "sigma_before": c.before.sigma,
                "mu_after": c.after.mu,
                "sigma_after": c.after.sigma,
            }
            for c in changes
        ],
    )
