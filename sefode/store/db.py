"""The store: a thin synchronous layer over SQLAlchemy Core.

The server calls it from one worker thread, so writes keep their order and never block the event loop.
Every write commits before it returns: an action is durable before it is broadcast.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler

from sefode.store import tables as t
from sefode.store.seats import StoredSeat, stored_seats

MIGRATIONS = Path(__file__).parent / "migrations"

_MIGRATING = threading.Lock()
"""Held while a store of this process migrates (``Store.migrate``)."""


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


def database_problem(url: str | None) -> str | None:
    """Why the database at ``url`` (default: ``default_database_url``) cannot be opened, in one line that names it
    (its password hidden), or None when it opens. ``sefode serve`` asks this before starting, so a bad
    ``DATABASE_URL`` (a SQLite path in a missing folder, an unknown scheme) is one line, not a traceback."""
    shown = url or "the default database"
    try:
        full = normalise_url(url) if url else default_database_url()
        parsed = sa.engine.make_url(full)
        shown = parsed.render_as_string(hide_password=True)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            folder = Path(parsed.database or "").expanduser().absolute().parent
            if not folder.is_dir():
                return f"cannot open the database {shown}: the folder {folder} does not exist"
        engine = sa.create_engine(full)
        try:
            with engine.connect():
                pass
        finally:
            engine.dispose()
    except (sa.exc.SQLAlchemyError, OSError, ValueError, ImportError) as err:
        reason = getattr(err, "orig", None) or err
        first = (str(reason).strip().splitlines() or [type(reason).__name__])[0]
        return f"cannot open the database {shown}: {first}"
    return None


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


def new_token(nbytes: int) -> str:
    """``secrets.token_urlsafe(nbytes)`` that never begins with ``-``: tokens, room ids and invite links are typed
    on command lines (``sefode bot --token T --room R``), where a leading dash reads as an option (1 in 32 did)."""
    while True:
        token = secrets.token_urlsafe(nbytes)
        if not token.startswith("-"):
            return token


@dataclass(frozen=True, slots=True)
class StoredMatch:
    id: str
    room_id: str
    number: int
    game: str
    options: dict[str, Any]
    seed: int
    setup: dict[str, Any]
    seats: list[StoredSeat]
    """who held each seat (``sefode.store.seats``)"""
    ended_at: int | None
    placements: list[int] | None
    actions: list[tuple[int, dict[str, Any], str]]
    outcome: dict[str, Any] | None = None
    """(seat, action JSON, source) in order."""


Fence = tuple[str, int, str]
"""(room id, lease epoch, node id): the fencing token a cluster node's writes for a room carry (issue 14)."""


class FencedOut(Exception):
    """A write from a node whose lease on the room is older than the newest one: refused, nothing was written."""

    def __init__(self, fence: Fence, current: int | None) -> None:
        super().__init__(f"room {fence[0]}: epoch {fence[1]} of node {fence[2]} is stale (the room's is {current})")
        self.fence = fence
        self.current = current


_FENCE = sa.text(
    "INSERT INTO room_fences (room_id, epoch, node, updated_at) VALUES (:room, :epoch, :node, :at) "
    "ON CONFLICT (room_id) DO UPDATE SET epoch = excluded.epoch, node = excluded.node, "
    "updated_at = excluded.updated_at "
    "WHERE room_fences.epoch < excluded.epoch "
    "OR (room_fences.epoch = excluded.epoch AND room_fences.node = excluded.node) RETURNING epoch"
)


def check_fence(conn: sa.Connection, fence: Fence) -> None:
    """Raise the room's epoch to ``fence``'s, or refuse (``FencedOut``) when the room's is newer, or the same
    epoch held by another node (a Redis that lost its counter hands an epoch out twice). Run it in the
    transaction of the writes it guards: the row stays locked until they commit, so a newer owner's bump waits for
    them, and everything a stale owner wrote before the bump is in the log the newer owner then reads."""
    room, epoch, node = fence
    row = conn.execute(_FENCE, {"room": room, "epoch": epoch, "node": node, "at": now_ms()}).first()
    if row is None:
        current = conn.execute(
            sa.select(t.room_fences.c.epoch).where(t.room_fences.c.room_id == room)
        ).scalar_one_or_none()
        raise FencedOut(fence, current)


def save_room_on(conn: sa.Connection, room_id: str, data: dict[str, Any], visibility: str, invite_token: str) -> None:
    stamp = now_ms()
    updated = conn.execute(
        _UPDATE_ROOM, {"room_id": room_id, "v_data": data, "v_visibility": visibility, "v_updated_at": stamp}
    )
    if updated.rowcount == 0:
        conn.execute(
            _INSERT_ROOM,
            {
                "id": room_id,
                "data": data,
                "visibility": visibility,
                "invite_token": invite_token,
                "created_at": stamp,
                "updated_at": stamp,
            },
        )


def create_match_on(
    conn: sa.Connection,
    match_id: str,
    room_id: str,
    number: int,
    game: str,
    options: dict[str, Any],
    seed: int,
    setup: dict[str, Any],
    seats: list[dict[str, Any]],
) -> None:
    conn.execute(
        _INSERT_MATCH,
        {
            "id": match_id,
            "room_id": room_id,
            "number": number,
            "game": game,
            "options": options,
            "seed": seed,
            "setup": setup,
            "seats": seats,
            "started_at": now_ms(),
        },
    )


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
        {
            "match_id": match_id,
            "idx": idx,
            "seat": seat,
            "action": action,
            "source": source,
            "created_at": stamp,
            "epoch": None,
            "node": None,
        },
    )
    _update_match(conn, match_id, seats, outcome, stamp)


def set_match_seats(conn: sa.Connection, match_id: str, seats: list[dict[str, Any]]) -> None:
    """Store who holds each seat of a match (a seat taken from a player the room no longer admits)."""
    _update_match(conn, match_id, seats, None, now_ms())


def _update_match(
    conn: sa.Connection,
    match_id: str,
    seats: list[dict[str, Any]] | None,
    outcome: dict[str, Any] | None,
    stamp: int,
) -> None:
    values: dict[str, Any] = {"match_id": match_id}
    if seats is not None:
        values["v_seats"] = seats
    if outcome is not None:
        values["v_placements"] = outcome["placements"]
        values["v_outcome"] = outcome
        values["v_ended_at"] = stamp
    if len(values) > 1:
        conn.execute(_MATCH_UPDATES[seats is not None, outcome is not None], values)


# Statements built once: one built per call costs more to build and to look up in SQLAlchemy's compiled cache than
# to run.
_INSERT_ACTION = t.actions.insert()
_INSERT_MATCH = t.matches.insert()
_INSERT_ROOM = t.rooms.insert()
_UPDATE_ROOM = (
    t.rooms.update()
    .where(t.rooms.c.id == sa.bindparam("room_id"))
    .values(
        data=sa.bindparam("v_data", type_=t.rooms.c.data.type),
        visibility=sa.bindparam("v_visibility"),
        updated_at=sa.bindparam("v_updated_at"),
    )
)


def _match_update(seats: bool, outcome: bool) -> sa.Update:
    values: dict[str, Any] = {}
    if seats:
        values["seats"] = sa.bindparam("v_seats", type_=t.matches.c.seats.type)
    if outcome:
        values["placements"] = sa.bindparam("v_placements", type_=t.matches.c.placements.type)
        values["outcome"] = sa.bindparam("v_outcome", type_=t.matches.c.outcome.type)
        values["ended_at"] = sa.bindparam("v_ended_at")
    return t.matches.update().where(t.matches.c.id == sa.bindparam("match_id")).values(**values)


_MATCH_UPDATES = {(s, o): _match_update(s, o) for s in (False, True) for o in (False, True) if s or o}
"""The update of a match's row by what changed: its seats, its end (outcome, placements, time), or both."""


Op = tuple[Callable[..., Any], tuple[Any, ...], "Fence | None"]
"""A write ``fn(conn, *args)`` and the fencing token it carries (None: single node, no fence)."""


def _run_ops(conn: sa.Connection, ops: list[Op]) -> list[Any]:
    """Run ``ops`` on ``conn`` in order, except that the rows of every ``add_action`` among them go in with one
    multi-row insert (the matches' updates follow it, in order): a group commit pays one statement, not one each.
    Their fences are checked first, once each."""
    for token in dict.fromkeys(op[2] for op in ops if op[2] is not None):
        check_fence(conn, token)
    if all(op[0] is not add_action for op in ops):
        return [fn(conn, *args) for fn, args, _fence in ops]
    stamp = now_ms()
    rows = []
    updates = []
    for fn, args, fence in ops:
        if fn is not add_action:
            continue
        match_id, idx, seat, action, source = args[:5]
        rows.append(
            {
                "match_id": match_id,
                "idx": idx,
                "seat": seat,
                "action": action,
                "source": source,
                "created_at": stamp,
                "epoch": fence[1] if fence is not None else None,
                "node": fence[2] if fence is not None else None,
            }
        )
        seats = args[5] if len(args) > 5 else None
        outcome = args[6] if len(args) > 6 else None
        if seats is not None or outcome is not None:
            updates.append((match_id, seats, outcome))
    if conn.dialect.name == "sqlite":
        _insert_actions_sqlite(conn, rows)
    else:
        conn.execute(_INSERT_ACTION, rows)
    for match_id, seats, outcome in updates:
        _update_match(conn, match_id, seats, outcome, stamp)
    results: list[Any] = []
    for fn, args, _fence in ops:
        results.append(None if fn is add_action else fn(conn, *args))
    return results


_INSERT_ACTION_SQLITE = (
    "INSERT INTO actions (match_id, idx, seat, action, source, created_at, epoch, node) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def _insert_actions_sqlite(conn: sa.Connection, rows: list[dict[str, Any]]) -> None:
    """``_INSERT_ACTION`` on SQLite, through the driver's own cursor, in the transaction ``conn`` holds. When each
    action commits alone (about one action a second per room), SQLAlchemy's statement machinery costs about as much
    CPU as SQLite's own insert: a one-action ``run_batch``, 5 ms apart, took 183 µs with it and 131 µs without
    (docs/benchmarks.md). The action is encoded as SQLAlchemy encodes a JSON column (``json.dumps``), so the stored
    text is the same; an error is raised as SQLAlchemy would raise it."""
    driver = conn.connection.driver_connection
    assert driver is not None  # a connection in a transaction holds its driver connection
    params = [
        (
            r["match_id"],
            r["idx"],
            r["seat"],
            json.dumps(r["action"]),
            r["source"],
            r["created_at"],
            r["epoch"],
            r["node"],
        )
        for r in rows
    ]
    cursor = driver.cursor()
    try:
        cursor.executemany(_INSERT_ACTION_SQLITE, params)
    except sqlite3.Error as err:  # raised as SQLAlchemy raises it (sa.exc.IntegrityError for an index stored twice)
        raise sa.exc.DBAPIError.instance(_INSERT_ACTION_SQLITE, params, err, sqlite3.Error) from err
    finally:
        cursor.close()


LOWER = "sefode_lower"
"""The SQL function ``lowered`` compiles to on SQLite (registered on each connection by ``Store``)."""


def _lower(value: object) -> object:
    return value.lower() if isinstance(value, str) else value


class lowered(sa.sql.functions.GenericFunction[str]):  # named as SQL functions are
    """A text in lower case in every alphabet, for comparisons without case: ``lower`` on PostgreSQL, Python's
    ``str.lower`` on SQLite. Compare it with ``str.lower()`` of the other side."""

    type = sa.String()
    name = "lowered"
    inherit_cache = True


@compiles(lowered, "sqlite")
def _lowered_sqlite(element: lowered, compiler: SQLCompiler, **kw: Any) -> str:
    return f"{LOWER}({compiler.process(element.clauses, **kw)})"


@compiles(lowered)
def _lowered_default(element: lowered, compiler: SQLCompiler, **kw: Any) -> str:
    return f"lower({compiler.process(element.clauses, **kw)})"


class Store:
    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url) if url else default_database_url()
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine = sa.create_engine(self.url, **kwargs)
        self._writer: sa.Connection | None = None
        """The connection group commits run on (``run_batch``: in the store's one thread, or on the event loop while
        that thread is idle, never both at once; ``Workers._flush``), kept open: taking one from the pool and giving
        it back was 30% of a one-action commit (docs/benchmarks.md)."""
        if self.url.startswith("sqlite"):

            @sa.event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()
                # SQLite's own lower() folds ASCII letters only ("Ágata" stays "Ágata"); PostgreSQL's folds them all.
                dbapi_conn.create_function(LOWER, 1, _lower, deterministic=True)

    # ------------------------------------------------------------------ schema
    def migrate(self) -> None:
        """Bring the schema to the newest revision (Alembic, run programmatically). On PostgreSQL, under an advisory
        lock: the nodes of a cluster start together and must not migrate the same schema at once. One migration at a
        time in a process, whatever the database: Alembic keeps the running one's context in module globals."""
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with _MIGRATING, self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(14140001)"))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def close(self) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            with contextlib.suppress(Exception):  # a broken connection: dispose() below discards it all the same
                writer.close()
        self.engine.dispose()

    # ------------------------------------------------------------------ players
    def create_player(self, name: str) -> tuple[str, str]:
        """A new guest: (token, player id). Only the token's hash is stored."""
        token = new_token(32)
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
        with self.engine.begin() as conn:
            save_room_on(conn, room_id, data, visibility, invite_token)

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
            create_match_on(conn, match_id, room_id, number, game, options, seed, setup, seats)

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

    def run_batch(self, ops: list[tuple[Any, ...]]) -> list[Any]:
        """Group commit: run ``fn(conn, *args)`` for every op ``(fn, args[, fence])`` in one transaction; one result
        (or exception) each. An op's fence (cluster mode) is checked in the same transaction (``check_fence``).

        If the shared transaction fails, every op is run again in its own transaction, so that one bad (or fenced
        out) write does not fail the others.
        """
        full: list[Op] = [(op[0], op[1], op[2] if len(op) > 2 else None) for op in ops]
        try:
            return self._commit(full)
        except Exception:
            if len(full) == 1:
                raise
        results: list[Any] = []
        for op in full:
            try:
                results.append(self._commit([op]))
            except Exception as err:
                results.append(err)
        return [r[0] if isinstance(r, list) else r for r in results]

    def _commit(self, ops: list[Op]) -> list[Any]:
        """``_run_ops`` in one transaction on the kept writer connection. A failed transaction is rolled back, and a
        connection the database dropped is replaced by SQLAlchemy on its next use (``test_store_writer.py``)."""
        if self._writer is None:
            self._writer = self.engine.connect()
        with self._writer.begin():
            return _run_ops(self._writer, ops)

    def run_fenced(self, fence: Fence | None, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(conn, *args)`` in one transaction, with ``fence`` checked first (None: no fence)."""
        with self.engine.begin() as conn:
            if fence is not None:
                check_fence(conn, fence)
            return fn(conn, *args)

    def fence_of(self, room_id: str) -> int | None:
        """The room's newest epoch (None: no cluster node ever owned it)."""
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(t.room_fences.c.epoch).where(t.room_fences.c.room_id == room_id)
            ).scalar_one_or_none()
        return int(value) if value is not None else None

    def load_room(self, room_id: str) -> tuple[dict[str, Any], str] | None:
        """One room: (data, invite token), or None."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t.rooms.c.data, t.rooms.c.invite_token).where(t.rooms.c.id == room_id)).first()
        return (dict(row[0]), str(row[1])) if row is not None else None

    def room_of_invite(self, invite_token: str) -> str | None:
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(t.rooms.c.id).where(t.rooms.c.invite_token == invite_token)
            ).scalar_one_or_none()
        return str(value) if value is not None else None

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
            seats=stored_seats(row["seats"]),
            ended_at=row["ended_at"],
            placements=row["placements"],
            outcome=row["outcome"],
            actions=[(int(a[0]), dict(a[1]), str(a[2])) for a in acts],
        )

    # ------------------------------------------------------------------ what players keep of a game
    def player_data(self, player_id: str, game: str) -> list[tuple[str, Any, int]]:
        """``(key, value, updated_at)`` of everything the player keeps of ``game``, by key."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.player_data.c.key, t.player_data.c.value, t.player_data.c.updated_at)
                .where(t.player_data.c.player_id == player_id, t.player_data.c.game == game)
                .order_by(t.player_data.c.key)
            ).all()
        return [(str(r[0]), r[1], int(r[2])) for r in rows]

    def put_player_data(self, player_id: str, game: str, key: str, value: Any, most: int) -> bool:
        """Keep ``value`` under ``key`` (replacing it); False when the player already keeps ``most`` other keys."""
        c = t.player_data.c
        with self.engine.begin() as conn:
            where = sa.and_(c.player_id == player_id, c.game == game)
            exists = conn.execute(sa.select(c.key).where(where, c.key == key)).first() is not None
            if exists:
                conn.execute(t.player_data.update().where(where, c.key == key).values(value=value, updated_at=now_ms()))
                return True
            count = conn.execute(sa.select(sa.func.count()).select_from(t.player_data).where(where)).scalar_one()
            if count >= most:
                return False
            conn.execute(
                t.player_data.insert().values(player_id=player_id, game=game, key=key, value=value, updated_at=now_ms())
            )
            return True

    def delete_player_data(self, player_id: str, game: str, key: str) -> bool:
        c = t.player_data.c
        with self.engine.begin() as conn:
            result = conn.execute(t.player_data.delete().where(c.player_id == player_id, c.game == game, c.key == key))
        return bool(result.rowcount)
