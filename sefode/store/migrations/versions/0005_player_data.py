"""What a player keeps of a game on the server (capability ``player_data``: saved decks), guests included.

One row per (player, game, key); the value is the JSON the game checked (``Game.check_player_data``). A guest who
registers keeps the same player id, so their data carries over.

Revision ID: 0005_player_data
Revises: 0004_ratings
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_player_data"
down_revision = "0004_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_data",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_data")
