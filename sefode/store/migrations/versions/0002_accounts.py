"""Accounts, login sessions and rate limiting, medals, tournaments and trophies (issue 5).

Owned by the accounts engineer (``sefode/accounts``); the tables mirror ``sefode/accounts/tables.py`` (accounts,
sessions) and ``sefode/awards/tables.py`` (medals, tournaments).
``medals`` has one row per (match, player) and ``award_matches`` one per match: together they make awarding
idempotent. ``trophies`` has one row per (tournament, player).

Revision ID: 0002_accounts
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_accounts"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(160), nullable=False, index=True),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "deleted_players",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("deleted_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("room_id", sa.String(32), nullable=False, index=True),
        sa.Column("matches_declared", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("valid", sa.Boolean, nullable=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("ended_at", sa.BigInteger, nullable=True),
    )
    op.create_table(
        "award_matches",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("valid", sa.Boolean, nullable=False),
        sa.Column("humans", sa.Integer, nullable=False),
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), nullable=True, index=True),
        sa.Column("tournament_number", sa.Integer, nullable=True),
        sa.Column("ended_at", sa.BigInteger, nullable=False),
        sa.Column("recorded_at", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("tournament_id", "tournament_number", name="uq_award_matches_tournament_number"),
    )
    op.create_table(
        "award_seats",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("award_matches.match_id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=True, index=True),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("unit", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("seated_at_start", sa.Boolean, nullable=False),
    )
    op.create_table(
        "medals",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("award_matches.match_id"), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("medal", sa.String(8), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("awarded_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_medals_player_id", "medals", ["player_id"])
    op.create_table(
        "trophies",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("awarded_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_trophies_player_id", "trophies", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_trophies_player_id", "trophies")
    op.drop_table("trophies")
    op.drop_index("ix_medals_player_id", "medals")
    op.drop_table("medals")
    op.drop_table("award_seats")
    op.drop_table("award_matches")
    op.drop_table("tournaments")
    op.drop_table("deleted_players")
    op.drop_table("login_failures")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
