"""The tables of accounts, medals and tournaments (SQLAlchemy Core). Created by the Alembic revision
``sefode/store/migrations/versions/0002_accounts.py``; the server's own tables are in ``sefode.store.tables``.

Foreign keys to the server's tables (``players``, ``matches``) are declared in the migration only, so this module
does not depend on the server's metadata.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("username", sa.String(32), nullable=False),
    sa.Column("username_key", sa.String(32), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

account_sessions = sa.Table(
    "account_sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(32), nullable=False, index=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("expires_at", sa.BigInteger, nullable=False),
)

login_failures = sa.Table(
    "login_failures",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(160), nullable=False, index=True),
    sa.Column("at", sa.BigInteger, nullable=False),
)

deleted_players = sa.Table(
    "deleted_players",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("deleted_at", sa.BigInteger, nullable=False),
)

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
