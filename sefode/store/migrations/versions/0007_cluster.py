"""The cluster's fencing tokens (issue 14).

``room_fences``: one row per room that a cluster node has owned: the epoch of the newest Redis lease on the room
(``sefode.server.cluster``) and the node that holds it. Every write a cluster node makes for a room first raises (or
keeps) the row's epoch to its own lease's, in the same transaction, and a write whose epoch is below the row's is
refused: a node that lost its lease (paused, partitioned) can never write for the room again.

``actions.epoch`` and ``actions.node``: the lease under which a cluster node stored the action (NULL on a single
node), so that anyone can check from the log alone that a room never had two writers (epochs never go down).

Revision ID: 0007_cluster
Revises: 0006_bot_accounts
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_cluster"
down_revision = "0006_bot_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_fences",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("epoch", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("node", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("node")
        batch.drop_column("epoch")
    op.drop_table("room_fences")
