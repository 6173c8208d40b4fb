"""The tables of accounts and what belongs to a person: sessions, bot accounts, friends, moderation (SQLAlchemy Core).
Created by the Alembic revisions in ``sefode/store/migrations/versions/``; medals, tournaments and ratings are
``sefode.awards.tables``, the server's own tables ``sefode.store.tables``.

Foreign keys to the server's tables (``players``, ``matches``) are declared in the migration only, so this module
does not depend on the server's metadata.
"""

from __future__ import annotations

import sqlalchemy as sa

from sefode.store import tables as s

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

# ------------------------------------------------------------------------- bot accounts (0006_bot_accounts)

bot_accounts = s.bot_accounts
"""Declared with the store's tables (``sefode.store.tables``): the awards read which seats bot accounts held, and
they import nothing of the accounts."""

# ------------------------------------------------------------------------- friends (0008_friends)

friends = sa.Table(
    "friends",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("friend_id", sa.String(32), primary_key=True, index=True),
    # one row per direction: two friends have two rows
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

friend_requests = sa.Table(
    "friend_requests",
    metadata,
    sa.Column("from_id", sa.String(32), primary_key=True),
    sa.Column("to_id", sa.String(32), primary_key=True, index=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

blocks = sa.Table(
    "blocks",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    # who blocked
    sa.Column("blocked_id", sa.String(32), primary_key=True, index=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

room_invites = sa.Table(
    "room_invites",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("from_id", sa.String(32), nullable=False, index=True),
    sa.Column("to_id", sa.String(32), nullable=False, index=True),
    sa.Column("room_id", sa.String(32), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.UniqueConstraint("to_id", "room_id", "from_id", name="uq_room_invites_to_room_from"),
)

# 0009_moderation

moderators = sa.Table(
    "moderators",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("granted_at", sa.BigInteger, nullable=False),
)

sanctions = sa.Table(
    "sanctions",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("kind", sa.String(8), primary_key=True),  # "mute" or "ban"
    sa.Column("until", sa.BigInteger, nullable=True),  # NULL: for good
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("reporter_id", sa.String(32), nullable=False),
    sa.Column("reported_id", sa.String(32), nullable=False),
    sa.Column("room_id", sa.String(32), nullable=False),
    sa.Column("match_id", sa.String(32), nullable=True),
    sa.Column("chat_id", sa.Integer, nullable=True),
    sa.Column("note", sa.String(500), nullable=False),
    sa.Column("chat", sa.JSON, nullable=False),
    sa.Column("status", sa.String(8), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

closed_rooms = sa.Table(
    "closed_rooms",
    metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("closed_at", sa.BigInteger, nullable=False),
)

moderation_log = sa.Table(
    "moderation_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.BigInteger, nullable=False),
    sa.Column("moderator_id", sa.String(32), nullable=False),
    sa.Column("action", sa.String(24), nullable=False),
    sa.Column("player_id", sa.String(32), nullable=True),
    sa.Column("room_id", sa.String(32), nullable=True),
    sa.Column("reason", sa.String(500), nullable=False),
    sa.Column("detail", sa.JSON, nullable=False),
)
