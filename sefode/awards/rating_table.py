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
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from sefode.awards import tables as w
from sefode.awards.skill import RatingChange, Skill, rate_teams, rating_teams
from sefode.store.db import now_ms

if TYPE_CHECKING:
    from sefode.awards.recording import FinishedMatch


def is_rated(conn: sa.Connection, match_id: str) -> bool:
    row = conn.execute(sa.select(w.rating_matches.c.match_id).where(w.rating_matches.c.match_id == match_id))
    return row.first() is not None


def current_skills(conn: sa.Connection, game: str, players: Sequence[str]) -> dict[str, Skill]:
    """The players' skills in ``game`` (rows locked for this transaction where the database can)."""
    if not players:
        return {}
    query = sa.select(w.ratings.c.player_id, w.ratings.c.mu, w.ratings.c.sigma).where(
        w.ratings.c.game == game, w.ratings.c.player_id.in_(sorted(set(players)))
    )
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    return {str(r[0]): Skill(float(r[1]), float(r[2])) for r in conn.execute(query).all()}


def rate_match(conn: sa.Connection, match: FinishedMatch, now: int | None = None) -> list[RatingChange]:
    """Apply one finished match to its game's rating table, once. Returns the changes made (none when the match
    was rated before, or changes no rating)."""
    if is_rated(conn, match.match_id):
        return []
    stamp = now_ms() if now is None else now
    teams, reason = rating_teams(match.seats, match.outcome.no_winner)
    conn.execute(
        w.rating_matches.insert().values(
            match_id=match.match_id,
            game=match.game,
            rated=reason is None,
            reason=None if reason is None else str(reason),
            recorded_at=stamp,
        )
    )
    if reason is not None:
        return []
    players = [p for t in teams for p in t.players]
    current = current_skills(conn, match.game, players)
    changes = rate_teams(teams, current)
    _insert_changes(conn, match, changes)
    for c in changes:
        values: dict[str, Any] = {
            "mu": c.after.mu,
            "sigma": c.after.sigma,
            "rating": c.after.rating,
            "updated_at": stamp,
        }
        if c.player in current:
            conn.execute(
                w.ratings.update()
                .where(w.ratings.c.game == match.game, w.ratings.c.player_id == c.player)
                .values(**values, matches=w.ratings.c.matches + 1)
            )
        else:
            conn.execute(w.ratings.insert().values(game=match.game, player_id=c.player, matches=1, **values))
    return changes


def _insert_changes(conn: sa.Connection, match: FinishedMatch, changes: Sequence[RatingChange]) -> None:
    conn.execute(
        w.rating_changes.insert(),
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
