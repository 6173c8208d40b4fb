"""The tables of awards: finished matches as awarded, medals, tournaments and trophies, per-game ratings
(SQLAlchemy Core). Created by the Alembic revisions ``0002_accounts.py`` and ``0004_ratings.py``
(``sefode/store/migrations/versions/``).

Foreign keys to the server's tables (``players``, ``matches``) are declared in the migrations only, so this module
depends on no other metadata.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("room_id", sa.String(32), nullable=False, index=True),
    sa.Column("matches_declared", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("valid", sa.Boolean, nullable=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("ended_at", sa.BigInteger, nullable=True),
)

award_matches = sa.Table(
    "award_matches",
    metadata,
    sa.Column("match_id", sa.String(32), primary_key=True),
    sa.Column("room_id", sa.String(32), nullable=False),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("valid", sa.Boolean, nullable=False),
    sa.Column("humans", sa.Integer, nullable=False),
    sa.Column("tournament_id", sa.String(32), nullable=True, index=True),
    sa.Column("tournament_number", sa.Integer, nullable=True),
    sa.Column("ended_at", sa.BigInteger, nullable=False),
    sa.Column("recorded_at", sa.BigInteger, nullable=False),
    sa.Column("no_winner", sa.Boolean, nullable=False, server_default=sa.false()),  # 0004_ratings
    sa.UniqueConstraint("tournament_id", "tournament_number", name="uq_award_matches_tournament_number"),
)

award_seats = sa.Table(
    "award_seats",
    metadata,
    sa.Column("match_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.String(32), nullable=True, index=True),
    sa.Column("bot", sa.String(16), nullable=True),
    sa.Column("unit", sa.Integer, nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("seated_at_start", sa.Boolean, nullable=False),
)

medals = sa.Table(
    "medals",
    metadata,
    sa.Column("match_id", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("medal", sa.String(8), nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("awarded_at", sa.BigInteger, nullable=False),
)

trophies = sa.Table(
    "trophies",
    metadata,
    sa.Column("tournament_id", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("awarded_at", sa.BigInteger, nullable=False),
)

# ------------------------------------------------------------------------- per-game ratings (0004_ratings)

rating_matches = sa.Table(
    "rating_matches",
    metadata,
    sa.Column("match_id", sa.String(32), primary_key=True),
    # the "already rated" mark: one row per finished match, rated or not
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("reason", sa.String(16), nullable=True),
    # why nothing changed (``sefode.awards.Unrated``), or None
    sa.Column("recorded_at", sa.BigInteger, nullable=False),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("rating", sa.Double, nullable=False),
    # mu - 3 sigma: what the table shows and orders on
    sa.Column("matches", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.BigInteger, nullable=False),
    sa.Index("ix_ratings_game_rating", "game", "rating"),
)

rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("match_id", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("team", sa.Integer, nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Double, nullable=False),
    sa.Column("sigma_before", sa.Double, nullable=False),
    sa.Column("mu_after", sa.Double, nullable=False),
    sa.Column("sigma_after", sa.Double, nullable=False),
)
