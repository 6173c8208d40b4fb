"""The store's group commits run on one connection it keeps (``Store.run_batch``): a connection the database dropped
costs one failed write, not every write after it."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
import sqlalchemy as sa
from server_helpers import postgres_url

from sefode.store import Store
from sefode.store import tables as t
from sefode.store.db import add_action, create_match_on, save_room_on


def _bids(store: Store) -> list[int]:
    stored = store.load_match("m1")
    assert stored is not None
    return [entry["bid"] for _seat, entry, _source in stored.actions]


def test_a_write_after_the_database_dropped_the_writer_connection_goes_through_on_a_fresh_one() -> None:
    with postgres_url() as url:
        name = f"writer-test-{secrets.token_hex(4)}"  # this store's sessions alone: other tests share the database
        store = Store(f"{url}&application_name={name}")
        store.migrate()
        try:
            store.run_fenced(None, save_room_on, "r1", {"name": "r", "game": "fodinha"}, "public", "inv-r1")
            store.run_fenced(None, create_match_on, "m1", "r1", 1, "fodinha", {}, 7, {}, [])
            store.run_batch([(add_action, ("m1", 0, 0, {"bid": 0}, "human"))])
            with store.engine.connect() as admin:  # the database ends the store's other sessions (a restart...)
                ended = admin.execute(
                    sa.text(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        " WHERE application_name = :name AND pid <> pg_backend_pid()"
                    ),
                    {"name": name},
                ).scalar_one()
            assert ended >= 1  # the writer's session at least
            with pytest.raises(sa.exc.DBAPIError):
                store.run_batch([(add_action, ("m1", 1, 1, {"bid": 1}, "human"))])
            store.run_batch([(add_action, ("m1", 1, 1, {"bid": 2}, "human"))])
            store.run_batch(
                [(add_action, ("m1", 2, 2, {"bid": 3}, "human")), (add_action, ("m1", 3, 3, {"bid": 4}, "human"))]
            )
            assert _bids(store) == [0, 2, 3, 4]
        finally:
            store.close()


def test_a_failed_group_commit_leaves_no_transaction_open_on_sqlite(tmp_path: Path) -> None:
    """A refused write rolls its transaction back: another connection writes at once (SQLite has one writer at a
    time: an open transaction would hold the lock), and the next group commit goes through."""
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    store.migrate()
    try:
        store.run_fenced(None, save_room_on, "r1", {"name": "r", "game": "fodinha"}, "public", "inv-r1")
        store.run_fenced(None, create_match_on, "m1", "r1", 1, "fodinha", {}, 7, {}, [])
        store.run_batch([(add_action, ("m1", 0, 0, {"bid": 0}, "human"))])
        with pytest.raises(sa.exc.IntegrityError):  # the same index twice
            store.run_batch([(add_action, ("m1", 0, 1, {"bid": 1}, "human"))])
        with store.engine.begin() as other:
            other.execute(sa.text("PRAGMA busy_timeout = 0"))  # a held lock fails the write at once, not in 5 s
            save_room_on(other, "r2", {"name": "r2", "game": "fodinha"}, "public", "inv-r2")
            other.execute(sa.text("PRAGMA busy_timeout = 5000"))
        store.run_batch([(add_action, ("m1", 1, 1, {"bid": 2}, "human"))])
        assert _bids(store) == [0, 2]
    finally:
        store.close()


def test_actions_written_through_sqlites_own_cursor_are_stored_as_sqlalchemy_stores_them(tmp_path: Path) -> None:
    """On SQLite a group commit inserts its actions through the driver's cursor (``_insert_actions_sqlite``): each
    row, its JSON text included, is what SQLAlchemy's insert of the same action stores, in one transaction with the
    match's update and the other writes of the batch."""
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    store.migrate()
    try:
        store.run_fenced(None, save_room_on, "r1", {"name": "r", "game": "fodinha"}, "public", "inv-r1")
        for match in ("m1", "m2"):
            store.run_fenced(None, create_match_on, match, "r1", 1, "fodinha", {}, 7, {}, [])
        action = {"play": "Ks", "nome": "Conceição 🂡", "n": [1, 2.5, None, True]}
        seats = [{"seat": 0, "kind": "human", "name": "Ana"}]
        store.run_batch(
            [
                (add_action, ("m1", 0, 0, action, "human")),
                (add_action, ("m1", 1, 2, {"bid": 1}, "clock", seats)),
                (save_room_on, ("r2", {"name": "r2", "game": "fodinha"}, "public", "inv-r2")),
            ]
        )
        with store.engine.begin() as conn:  # the same action through SQLAlchemy's own insert
            conn.execute(
                sa.insert(t.actions).values(
                    match_id="m2", idx=0, seat=0, action=action, source="human", created_at=1, epoch=None, node=None
                )
            )
        columns = "idx, seat, CAST(action AS TEXT), source, epoch, node"
        with store.engine.connect() as conn:
            ours = conn.execute(sa.text(f"SELECT {columns} FROM actions WHERE match_id = 'm1' ORDER BY idx")).all()
            theirs = conn.execute(sa.text(f"SELECT {columns} FROM actions WHERE match_id = 'm2'")).all()
            stored_seats = conn.execute(sa.select(t.matches.c.seats).where(t.matches.c.id == "m1")).scalar_one()
            rooms = conn.execute(sa.select(sa.func.count()).select_from(t.rooms)).scalar_one()
        assert ours[0] == theirs[0]
        assert ours[1][:2] == (1, 2) and ours[1][3] == "clock"
        assert stored_seats == seats and rooms == 2
        stored = store.load_match("m1")
        assert stored is not None
        assert [entry for _seat, entry, _source in stored.actions] == [action, {"bid": 1}]
    finally:
        store.close()
