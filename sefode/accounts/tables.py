"""The tables of accounts, medals, tournaments and ratings (SQLAlchemy Core). Created by the Alembic revisions
``sefode/store/migrations/versions/0002_accounts.py`` and ``0004_ratings.py``; the server's own tables are in
``sefode.store.tables``.

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
    sa.Column("no_winner", sa.Boolean, nullable=False, server_default=sa.false()),  # 0004_ratings
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

# ------------------------------------------------------------------------- per-game ratings (0004_ratings)

rating_matches = sa.Table(
    "rating_matches",
    metadata,
    sa.Column("match_id", sa.String(32), primary_key=True),
    # the "already rated" mark: one row per finished match, rated or not
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("reason", sa.String(16), nullable=True),
    # why nothing changed (``sefode.awards.Unrated``), or None
    sa.Column("recorded_at", sa.BigInteger, nullable=False),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("rating", sa.Double, nullable=False),
    # mu - 3 sigma: what the table shows and orders on
    sa.Column("matches", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.BigInteger, nullable=False),
    sa.Index("ix_ratings_game_rating", "game", "rating"),
)

rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("match_id", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("team", sa.Integer, nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Double, nullable=False),
    sa.Column("sigma_before", sa.Double, nullable=False),
    sa.Column("mu_after", sa.Double, nullable=False),
    sa.Column("sigma_after", sa.Double, nullable=False),
)

# ------------------------------------------------------------------------- bot accounts (0006_bot_accounts)

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
