"""Bot accounts (issue 15 §1): a registered player's bots, each a player of its own with an API token.

* ``bot_accounts``: one row per bot: its player (``players.id``), its owner, the sha256 of its API token (NULL once
  revoked), when it was created and revoked. The table mirrors ``sefode/accounts/tables.py``.

Revision ID: 0006_bot_accounts
Revises: 0005_player_data
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_bot_accounts"
down_revision = "0005_player_data"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_accounts",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("owner_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("revoked_at", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_bot_accounts_owner_id", "bot_accounts", ["owner_id"])


def downgrade() -> None:
    op.drop_index("ix_bot_accounts_owner_id", "bot_accounts")
    op.drop_table("bot_accounts")
