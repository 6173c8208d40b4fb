"""Per-game rating tables (issue 8 §2, docs/rulings.md §1.25), and the outcome of matches stored before 0003_outcome.

Owned by the awards and ratings engineer; the tables mirror ``sefode/awards/tables.py``:

* ``rating_matches``: one row per finished match once the ratings have looked at it (rated or not): with the
  unique keys of ``ratings`` and ``rating_changes``, it makes rating idempotent;
* ``ratings``: one row per (game, player): OpenSkill's mu and sigma, the shown rating (mu - 3 sigma), matches;
* ``rating_changes``: one row per (match, player) rated: before and after;
* ``award_matches.no_winner``: the match ended with no winner (no medals, no rating).

Matches finished before ``0003_outcome`` have ``outcome`` NULL. This revision derives it once, here, so that
awards and ratings read units and places from ``matches.outcome`` alone and never look at a game's options: those
matches are all of the one game the platform had then, whose only units were the pairs of its ``teams`` option,
seated alternately (pair p holds seats p and p + n/2, as the room seated them). Nothing had a "no winner" then.

Revision ID: 0004_ratings
Revises: 0003_outcome
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004_ratings"
down_revision = "0003_outcome"
branch_labels = None
depends_on = None

_matches = sa.table(
    "matches",
    sa.column("id", sa.String),
    sa.column("options", sa.JSON),
    sa.column("placements", sa.JSON),
    sa.column("outcome", sa.JSON),
)


def legacy_outcome(options: dict[str, Any], placements: list[int]) -> dict[str, Any]:
    """The ``Outcome.to_json()`` of a match stored before 0003 (see the module docstring)."""
    n = len(placements)
    if options.get("teams") and n % 2 == 0:
        units = [[p, p + n // 2] for p in range(n // 2)]
    else:
        units = [[seat] for seat in range(n)]
    return {"placements": list(placements), "units": units, "no_winner": False, "scores": None}


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(_matches.c.id, _matches.c.options, _matches.c.placements).where(
            _matches.c.placements.is_not(None), _matches.c.outcome.is_(None)
        )
    ).all()
    for match_id, options, placements in rows:
        outcome = legacy_outcome(dict(options or {}), [int(p) for p in placements])
        conn.execute(_matches.update().where(_matches.c.id == match_id).values(outcome=outcome))
    with op.batch_alter_table("award_matches") as batch:
        batch.add_column(sa.Column("no_winner", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "rating_matches",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("recorded_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("rating", sa.Double, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ratings_game_rating", "ratings", ["game", "rating"])
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("rating_matches.match_id"), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("team", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Double, nullable=False),
        sa.Column("sigma_before", sa.Double, nullable=False),
        sa.Column("mu_after", sa.Double, nullable=False),
        sa.Column("sigma_after", sa.Double, nullable=False),
    )
    op.create_index("ix_rating_changes_player_id", "rating_changes", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player_id", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_game_rating", "ratings")
    op.drop_table("ratings")
    op.drop_table("rating_matches")
    with op.batch_alter_table("award_matches") as batch:
        batch.drop_column("no_winner")
    # The outcomes derived for matches stored before 0003 stay: 0003's downgrade drops the column.
