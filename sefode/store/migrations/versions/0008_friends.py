"""Friends (issue 23): friendships, friend requests, blocks and invitations to a room.

* ``friends``: one row per direction of a friendship (two rows for two friends), so "my friends" is one index scan.
* ``friend_requests``: a pending request from one account to another.
* ``blocks``: who blocked whom.
* ``room_invites``: a friend's invitation to a room, shown on the invited player's home page until dismissed, the
  room is gone, or either account is deleted.

The tables mirror ``sefode/accounts/tables.py``.

Revision ID: 0008_friends
Revises: 0007_cluster
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_friends"
down_revision = "0007_cluster"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "friends",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("friend_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_friends_friend_id", "friends", ["friend_id"])
    op.create_table(
        "friend_requests",
        sa.Column("from_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("to_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_friend_requests_to_id", "friend_requests", ["to_id"])
    op.create_table(
        "blocks",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("blocked_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "room_invites",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("from_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("to_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("to_id", "room_id", "from_id", name="uq_room_invites_to_room_from"),
    )
    op.create_index("ix_room_invites_to_id", "room_invites", ["to_id"])
    op.create_index("ix_room_invites_from_id", "room_invites", ["from_id"])


def downgrade() -> None:
    op.drop_index("ix_room_invites_from_id", "room_invites")
    op.drop_index("ix_room_invites_to_id", "room_invites")
    op.drop_table("room_invites")
    op.drop_index("ix_blocks_blocked_id", "blocks")
    op.drop_table("blocks")
    op.drop_index("ix_friend_requests_to_id", "friend_requests")
    op.drop_table("friend_requests")
    op.drop_index("ix_friends_friend_id", "friends")
    op.drop_table("friends")
