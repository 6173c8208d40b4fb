"""The store: a thin synchronous layer over SQLAlchemy Core.

The server calls it from one worker thread, so writes keep their order and never block the event loop.
Every write commits before it returns: an action is durable before it is broadcast.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from sefode.store import tables as t

MIGRATIONS = Path(__file__).parent / "migrations"


def now_ms() -> int:
    return int(time.time() * 1000)


def default_database_url() -> str:
    """``DATABASE_URL`` if set, else SQLite under the user's data directory."""
    url = os.environ.get("DATABASE_URL")
    if url:
        return normalise_url(url)
    import platformdirs

    folder = Path(platformdirs.user_data_dir("sefode"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'sefode.sqlite3'}"


def normalise_url(url: str) -> str:
    """Map plain ``postgresql://`` (and ``postgres://``) URLs to the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


SessionResolver = Callable[[sa.Engine, str], "tuple[str, str] | None"]
"""Maps a token that is no guest token to (player id, name), or None: how a layer above the store (the accounts'
login sessions) lets ``Store.player_by_token`` accept its tokens. The store never imports that layer."""

_SESSION_RESOLVERS: list[SessionResolver] = []


def register_session_resolver(resolver: SessionResolver) -> None:
    """Let ``Store.player_by_token`` fall back on ``resolver`` (idempotent: registering twice adds it once)."""
    if resolver not in _SESSION_RESOLVERS:
        _SESSION_RESOLVERS.append(resolver)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredMatch:
    id: str
    room_id: str
    number: int
    game: str
    options: dict[str, Any]
    seed: int
    setup: dict[str, Any]
    seats: list[dict[str, Any]]
    ended_at: int | None
    placements: list[int] | None
    actions: list[tuple[int, dict[str, Any], str]]
    outcome: dict[str, Any] | None = None
    """(seat, action JSON, source) in order."""


def add_action(
    conn: sa.Connection,
    match_id: str,
    idx: int,
    seat: int,
    action: dict[str, Any],
    source: str,
    seats: list[dict[str, Any]] | None = None,
    outcome: dict[str, Any] | None = None,
) -> None:
    """Insert one accepted action on ``conn`` (see :meth:`Store.add_action`); ``outcome`` (``Outcome.to_json``)
    when the action ended the match."""
    stamp = now_ms()
    conn.execute(
        _INSERT_ACTION,
        {"match_id": match_id, "idx": idx, "seat": seat, "action": action, "source": source, "created_at": stamp},
    )
    _update_match(conn, match_id, seats, outcome, stamp)


def _update_match(
    conn: sa.Connection,
    match_id: str,
    seats: list[dict[str, Any]] | None,
    outcome: dict[str, Any] | None,
    stamp: int,
) -> None:
    values: dict[str, Any] = {}
    if seats is not None:
        values["seats"] = seats
    if outcome is not None:
        values["placements"] = outcome["placements"]
        values["outcome"] = outcome
        values["ended_at"] = stamp
    if values:
        conn.execute(t.matches.update().where(t.matches.c.id == match_id).values(**values))


_INSERT_ACTION = t.actions.insert()


def _run_ops(conn: sa.Connection, ops: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> list[Any]:
    """Run ``ops`` on ``conn`` in order, except that the rows of every ``add_action`` among them go in with one
    multi-row insert (the matches' updates follow it, in order): a group commit pays one statement, not one each."""
    plain = [op for op in ops if op[0] is not add_action]
    if len(plain) == len(ops) or len(ops) - len(plain) < 2:
        return [fn(conn, *args) for fn, args in ops]
    stamp = now_ms()
    rows = []
    updates = []
    for fn, args in ops:
        if fn is not add_action:
            continue
        match_id, idx, seat, action, source = args[:5]
        rows.append(
            {"match_id": match_id, "idx": idx, "seat": seat, "action": action, "source": source, "created_at": stamp}
        )
        seats = args[5] if len(args) > 5 else None
        outcome = args[6] if len(args) > 6 else None
        if seats is not None or outcome is not None:
            updates.append((match_id, seats, outcome))
    conn.execute(_INSERT_ACTION, rows)
    for match_id, seats, outcome in updates:
        _update_match(conn, match_id, seats, outcome, stamp)
    results: list[Any] = []
    for fn, args in ops:
        results.append(None if fn is add_action else fn(conn, *args))
    return results


class Store:
    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url) if url else default_database_url()
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine = sa.create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):

            @sa.event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()

    # ------------------------------------------------------------------ schema
    def migrate(self) -> None:
        """Bring the schema to the newest revision (Alembic, run programmatically)."""
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ players
    def create_player(self, name: str) -> tuple[str, str]:
        """A new guest: (token, player id). Only the token's hash is stored."""
        token = secrets.token_urlsafe(32)
        player_id = secrets.token_hex(8)
        with self.engine.begin() as conn:
            conn.execute(
                t.players.insert().values(id=player_id, token_hash=token_hash(token), name=name, created_at=now_ms())
            )
        return token, player_id

    def player_by_token(self, token: str) -> tuple[str, str] | None:
        """(player id, name) of a session token, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(t.players.c.id, t.players.c.name).where(t.players.c.token_hash == token_hash(token))
            ).first()
        if row is None:  # perhaps a login session of a layer above (accounts), which registered a resolver
            for resolve in list(_SESSION_RESOLVERS):
                found = resolve(self.engine, token)
                if found is not None:
                    return found
            return None
        return (str(row[0]), str(row[1]))

    def rename_player(self, player_id: str, name: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(t.players.update().where(t.players.c.id == player_id).values(name=name))

    def player_names(self, ids: list[str]) -> dict[str, str]:
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.players.c.id, t.players.c.name).where(t.players.c.id.in_(ids))).all()
        return {str(r[0]): str(r[1]) for r in rows}

    # ------------------------------------------------------------------ rooms
    def save_room(self, room_id: str, data: dict[str, Any], visibility: str, invite_token: str) -> None:
        stamp = now_ms()
        with self.engine.begin() as conn:
            updated = conn.execute(
                t.rooms.update()
                .where(t.rooms.c.id == room_id)
                .values(data=data, visibility=visibility, updated_at=stamp)
            )
            if updated.rowcount == 0:
                conn.execute(
                    t.rooms.insert().values(
                        id=room_id,
                        data=data,
                        visibility=visibility,
                        invite_token=invite_token,
                        created_at=stamp,
                        updated_at=stamp,
                    )
                )

    def load_rooms(self) -> list[tuple[str, dict[str, Any], str]]:
        """Every room: (id, data, invite token), oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.rooms.c.id, t.rooms.c.data, t.rooms.c.invite_token).order_by(t.rooms.c.created_at)
            ).all()
        return [(str(r[0]), dict(r[1]), str(r[2])) for r in rows]

    # ------------------------------------------------------------------ matches
    def create_match(
        self,
        match_id: str,
        room_id: str,
        number: int,
        game: str,
        options: dict[str, Any],
        seed: int,
        setup: dict[str, Any],
        seats: list[dict[str, Any]],
    ) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                t.matches.insert().values(
                    id=match_id,
                    room_id=room_id,
                    number=number,
                    game=game,
                    options=options,
                    seed=seed,
                    setup=setup,
                    seats=seats,
                    started_at=now_ms(),
                )
            )

    def add_action(
        self,
        match_id: str,
        idx: int,
        seat: int,
        action: dict[str, Any],
        source: str,
        seats: list[dict[str, Any]] | None = None,
        outcome: dict[str, Any] | None = None,
    ) -> None:
        """Store one accepted action (and, in the same transaction, the seating or the end of the match)."""
        with self.engine.begin() as conn:
            add_action(conn, match_id, idx, seat, action, source, seats, outcome)

    def run_batch(self, ops: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> list[Any]:
        """Group commit: run ``fn(conn, *args)`` for every op in one transaction; one result (or exception) each.

        If the shared transaction fails, every op is run again in its own transaction, so that one bad write
        does not fail the others.
        """
        try:
            with self.engine.begin() as conn:
                return _run_ops(conn, ops)
        except Exception:
            if len(ops) == 1:
                raise
        results: list[Any] = []
        for fn, args in ops:
            try:
                with self.engine.begin() as conn:
                    results.append(fn(conn, *args))
            except Exception as err:
                results.append(err)
        return results

    def load_match(self, match_id: str) -> StoredMatch | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t.matches).where(t.matches.c.id == match_id)).mappings().first()
            if row is None:
                return None
            acts = conn.execute(
                sa.select(t.actions.c.seat, t.actions.c.action, t.actions.c.source)
                .where(t.actions.c.match_id == match_id)
                .order_by(t.actions.c.idx)
            ).all()
        return StoredMatch(
            id=str(row["id"]),
            room_id=str(row["room_id"]),
            number=int(row["number"]),
            game=str(row["game"]),
            options=dict(row["options"]),
            seed=int(row["seed"]),
            setup=dict(row["setup"]),
            seats=list(row["seats"]),
            ended_at=row["ended_at"],
            placements=row["placements"],
            outcome=row["outcome"],
            actions=[(int(a[0]), dict(a[1]), str(a[2])) for a in acts],
        )
