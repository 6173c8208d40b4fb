"""The outcome of a finished match as the game gave it: placements, units, no winner, scores.

Awards and ratings read units and placements from here alone (``sefode.engine.Outcome.to_json``).

Revision ID: 0003_outcome
Revises: 0002_accounts
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_outcome"
down_revision = "0002_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("outcome", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("outcome")
