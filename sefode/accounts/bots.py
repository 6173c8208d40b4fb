"""Bot accounts (issue 15 §1, docs/rulings.md §1): a registered player's own bots, playing through the public protocol.

A bot account is a player of its own (``players``; its browser token is one nobody holds) with an API token kept as a
hash in ``bot_accounts``. The token is shown once, when the bot is created or given a new token; revoking it makes it
fail at once (the server's session cache is cleared and the bot's sockets closed by the routes). It is scoped to
playing: it opens WebSockets (``sefode.store.db`` resolves it like a session), while the account routes, which read
only guest tokens and account sessions, never accept it, and the server's HTTP routes that need a session refuse it
(``auth/bot_scope``). A bot never counts as a human: ``sefode.awards.recording.seat_results`` seats it as a bot, so
it earns no medal and no rating, and a match's count of humans leaves it out.

Like ``service``, every function takes an open connection inside a transaction and commits nothing itself.
"""

from __future__ import annotations

import secrets
from typing import Any

import sqlalchemy as sa

from sefode.accounts import service
from sefode.accounts import tables as a
from sefode.accounts.service import AccountError
from sefode.store import tables as s
from sefode.store.db import now_ms, register_session_resolver, token_hash
from sefode.store.seats import bot_ids as bot_ids

MAX_BOTS = 10
"""Live bots a player may hold at once."""


def create_bot(conn: sa.Connection, owner: str, name: object, now: int | None = None) -> dict[str, Any]:
    """A new bot of the registered player ``owner``: ``{"bot_id", "name", "token"}`` (the token, only this once)."""
    if service.account_username(conn, owner) is None:
        raise AccountError("account/required", "only a registered player can create bot accounts", 403)
    label = service.check_name(name)
    held = conn.execute(
        sa.select(sa.func.count())
        .select_from(a.bot_accounts)
        .where(a.bot_accounts.c.owner_id == owner, a.bot_accounts.c.revoked_at.is_(None))
    ).scalar_one()
    if int(held) >= MAX_BOTS:
        raise AccountError("bot/too_many", f"a player may hold {MAX_BOTS} bots; revoke one first", 409)
    stamp = now_ms() if now is None else now
    bot_id = secrets.token_hex(8)
    token = "bot_" + secrets.token_urlsafe(32)
    conn.execute(
        s.players.insert().values(
            id=bot_id, token_hash=token_hash(secrets.token_urlsafe(32)), name=label, created_at=stamp
        )
    )
    conn.execute(
        a.bot_accounts.insert().values(
            player_id=bot_id, owner_id=owner, token_hash=token_hash(token), created_at=stamp, revoked_at=None
        )
    )
    return {"bot_id": bot_id, "name": label, "token": token}


def _owned(conn: sa.Connection, owner: str, bot_id: str) -> sa.Row[Any]:
    row = conn.execute(
        sa.select(a.bot_accounts).where(a.bot_accounts.c.player_id == bot_id, a.bot_accounts.c.owner_id == owner)
    ).first()
    if row is None:
        raise AccountError("bot/not_found", "no such bot of yours", 404)
    return row


def revoke(conn: sa.Connection, owner: str, bot_id: str, now: int | None = None) -> None:
    """The bot's token stops working (the caller closes its sockets and clears the session cache)."""
    _owned(conn, owner, bot_id)
    conn.execute(
        a.bot_accounts.update()
        .where(a.bot_accounts.c.player_id == bot_id)
        .values(token_hash=None, revoked_at=now_ms() if now is None else now)
    )


def new_token(conn: sa.Connection, owner: str, bot_id: str) -> str:
    """A fresh token for the bot (the old one, if any, stops working); shown only this once."""
    _owned(conn, owner, bot_id)
    token = "bot_" + secrets.token_urlsafe(32)
    conn.execute(
        a.bot_accounts.update()
        .where(a.bot_accounts.c.player_id == bot_id)
        .values(token_hash=token_hash(token), revoked_at=None)
    )
    return token


def list_bots(conn: sa.Connection, owner: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        sa.select(a.bot_accounts, s.players.c.name)
        .select_from(a.bot_accounts.join(s.players, s.players.c.id == a.bot_accounts.c.player_id))
        .where(a.bot_accounts.c.owner_id == owner)
        .order_by(a.bot_accounts.c.created_at)
    ).mappings()
    return [
        {
            "bot_id": str(r["player_id"]),
            "name": str(r["name"]),
            "created_at": int(r["created_at"]),
            "active": r["token_hash"] is not None,
            "revoked_at": r["revoked_at"],
        }
        for r in rows
    ]


def all_bot_ids(engine: sa.Engine) -> set[str]:
    with engine.connect() as conn:
        return bot_ids(conn)


def bot_ids_among(engine: sa.Engine, players: list[str]) -> set[str]:
    """The bot accounts among ``players`` (a node's look-up of ids it has not seen yet)."""
    with engine.connect() as conn:
        return bot_ids(conn, players)


def bot_by_token(engine: sa.Engine, token: str) -> tuple[str, str] | None:
    """(player id, name) of a live bot token: the session resolver ``Store.player_by_token`` falls back on."""
    if not token.startswith("bot_") or len(token) > 128:
        return None
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(s.players.c.id, s.players.c.name)
            .select_from(a.bot_accounts.join(s.players, s.players.c.id == a.bot_accounts.c.player_id))
            .where(a.bot_accounts.c.token_hash == token_hash(token))
        ).first()
    return None if row is None else (str(row[0]), str(row[1]))


register_session_resolver(bot_by_token)
