"""Moderation (issue 28): moderator roles, sanctions (mutes and bans), players' reports, rooms closed by a moderator,
and the audit log of every moderator action.

* ``moderators``: accounts an operator made moderators (``sefode admin grant USER``).
* ``sanctions``: one row per player and kind (``mute`` or ``ban``); ``until`` NULL means for good.
* ``reports``: a player's report of another player (or of one chat message) at a table, with the room's recent chat
  as the server held it and the match on.
* ``closed_rooms``: rooms a moderator closed (not loaded again at start).
* ``moderation_log``: who did what to whom, and why.

The tables mirror ``sefode/accounts/tables.py``.

Revision ID: 0009_moderation
Revises: 0008_friends
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_moderation"
down_revision = "0008_friends"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "moderators",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("granted_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "sanctions",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("until", sa.BigInteger, nullable=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("reporter_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reported_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("chat_id", sa.Integer, nullable=True),
        sa.Column("note", sa.String(500), nullable=False),
        sa.Column("chat", sa.JSON, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_reports_status", "reports", ["status", "created_at"])
    op.create_table(
        "closed_rooms",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("closed_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("moderator_id", sa.String(32), nullable=False),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("room_id", sa.String(32), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
    )
    op.create_index("ix_moderation_log_at", "moderation_log", ["at"])


def downgrade() -> None:
    op.drop_index("ix_moderation_log_at", "moderation_log")
    op.drop_table("moderation_log")
    op.drop_table("closed_rooms")
    op.drop_index("ix_reports_status", "reports")
    op.drop_table("reports")
    op.drop_table("sanctions")
    op.drop_table("moderators")
