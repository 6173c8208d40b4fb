"""The tables, as SQLAlchemy Core objects. Schema changes go through ``migrations/versions``."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

rooms = sa.Table(
    "rooms",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("visibility", sa.String(16), nullable=False),
    sa.Column("invite_token", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.BigInteger, nullable=False),
)

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), nullable=False, index=True),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("setup", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("started_at", sa.BigInteger, nullable=False),
    sa.Column("ended_at", sa.BigInteger, nullable=True),
    sa.Column("placements", sa.JSON, nullable=True),
    sa.Column("outcome", sa.JSON, nullable=True),
    # ``Outcome.to_json()``: placements, units, no_winner, scores (awards and ratings read it alone)
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.JSON, nullable=False),
    sa.Column("source", sa.String(16), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("epoch", sa.BigInteger, nullable=True),  # cluster mode: the lease it was stored under
    sa.Column("node", sa.String(64), nullable=True),
)

room_fences = sa.Table(
    "room_fences",
    metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("epoch", sa.BigInteger, nullable=False),  # the newest lease's epoch: older ones may not write
    sa.Column("node", sa.String(64), nullable=False),
    sa.Column("updated_at", sa.BigInteger, nullable=False),
)

player_data = sa.Table(
    "player_data",
    metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.JSON, nullable=False),
    sa.Column("updated_at", sa.BigInteger, nullable=False),
)

# The bot accounts (0006_bot_accounts; their rules are ``sefode.accounts.bots``): here, below both the accounts and the
# awards, since the awards read which seats bot accounts held (``sefode.store.seats.bot_ids``).
bot_accounts = sa.Table(
    "bot_accounts",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    # the bot's own player (``players.id``): its name and its seats; never a human
    sa.Column("owner_id", sa.String(32), nullable=False, index=True),
    # the registered player who created it
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    # sha256 of its API token; NULL once revoked
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("revoked_at", sa.BigInteger, nullable=True),
)
