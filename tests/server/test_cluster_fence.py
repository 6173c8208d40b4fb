"""Fencing tokens in the store (issue 14): a write carrying an epoch older than the room's newest is refused in its own
transaction, and nothing of it is written; a group commit with one stale write still commits the others."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import postgres_url

from sefode.store import Store
from sefode.store.db import FencedOut, add_action, create_match_on, save_room_on


@pytest.fixture(params=["postgresql", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "postgresql":
        with postgres_url() as url:
            s = Store(url)
            s.migrate()
            yield s
            s.close()
    else:
        s = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        s.migrate()
        yield s
        s.close()


def _room(store: Store, fence: tuple[str, int, str]) -> None:
    data = {"name": "r", "game": "fodinha"}
    store.run_fenced(fence, save_room_on, "r1", data, "public", "inv-r1")
    store.run_fenced(fence, create_match_on, "m1", "r1", 1, "fodinha", {}, 7, {}, [])


def _actions(store: Store) -> list[int]:
    stored = store.load_match("m1")
    assert stored is not None
    return [entry["bid"] for _seat, entry, _source in stored.actions]


def test_a_stale_epoch_is_refused_and_writes_nothing(store: Store) -> None:
    _room(store, ("r1", 1, "a"))
    store.run_batch([(add_action, ("m1", 0, 0, {"bid": 0}, "human"), ("r1", 1, "a"))])
    # node b takes the room over with epoch 2 (the bump alone, before it reads the log)
    store.run_fenced(("r1", 2, "b"), lambda conn: None)
    assert store.fence_of("r1") == 2
    with pytest.raises(FencedOut) as refused:
        store.run_batch([(add_action, ("m1", 1, 1, {"bid": 1}, "human"), ("r1", 1, "a"))])
    assert refused.value.current == 2
    with pytest.raises(FencedOut):
        store.run_fenced(("r1", 1, "a"), save_room_on, "r1", {"name": "stale"}, "public", "inv-r1")
    assert store.load_room("r1") == ({"name": "r", "game": "fodinha"}, "inv-r1")
    store.run_batch([(add_action, ("m1", 1, 1, {"bid": 2}, "bot"), ("r1", 2, "b"))])
    assert _actions(store) == [0, 2]
    assert store.fence_of("r1") == 2


def test_the_same_epoch_from_another_node_is_refused(store: Store) -> None:
    """A Redis that lost its epoch counter may hand epoch 1 out again: the second node to use it is refused."""
    _room(store, ("r1", 1, "a"))
    with pytest.raises(FencedOut) as refused:
        store.run_fenced(("r1", 1, "b"), lambda conn: None)
    assert refused.value.current == 1
    store.run_fenced(("r1", 1, "a"), lambda conn: None)  # the holder itself goes on
    store.run_fenced(("r1", 2, "b"), lambda conn: None)
    assert store.fence_of("r1") == 2


def test_a_group_commit_with_one_stale_write_commits_the_others(store: Store) -> None:
    _room(store, ("r1", 5, "a"))
    store.run_fenced(("r2", 3, "a"), save_room_on, "r2", {"name": "r2"}, "public", "inv-r2")
    store.run_fenced(("r2", 3, "a"), create_match_on, "m2", "r2", 1, "fodinha", {}, 7, {}, [])
    results = store.run_batch(
        [
            (add_action, ("m1", 0, 0, {"bid": 0}, "human"), ("r1", 5, "a")),
            (add_action, ("m2", 0, 0, {"bid": 9}, "human"), ("r2", 2, "a")),  # stale: r2 is at 3
            (add_action, ("m1", 1, 1, {"bid": 1}, "human"), ("r1", 5, "a")),
        ]
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], FencedOut)
    assert _actions(store) == [0, 1]
    stored = store.load_match("m2")
    assert stored is not None and stored.actions == []


def test_the_newer_owners_bump_waits_for_the_stale_owners_open_transaction() -> None:
    """PostgreSQL: a write that passed its fence holds the row until it commits, so the bump of the newer owner comes
    after it, and the log read after the bump holds that write (nothing accepted is lost)."""
    with postgres_url() as url:
        store = Store(url)
        store.migrate()
        _room(store, ("r1", 1, "a"))
        inside = threading.Event()
        release = threading.Event()

        def slow_write(conn: object) -> None:
            add_action(conn, "m1", 0, 0, {"bid": 0}, "human")  # type: ignore[arg-type]
            inside.set()
            assert release.wait(20)

        writer = threading.Thread(target=store.run_fenced, args=(("r1", 1, "a"), slow_write))
        writer.start()
        assert inside.wait(20)
        bumped = threading.Event()

        def bump() -> None:
            store.run_fenced(("r1", 2, "b"), lambda conn: None)
            bumped.set()

        bumper = threading.Thread(target=bump)
        bumper.start()
        assert not bumped.wait(0.3)  # it waits on the row lock (a bounded look, not a timing assertion on speed)
        release.set()
        writer.join(20)
        bumper.join(20)
        assert bumped.is_set()
        assert _actions(store) == [0]
        with pytest.raises(FencedOut):
            store.run_fenced(("r1", 1, "a"), add_action, "m1", 1, 0, {"bid": 1}, "human")
        store.close()
