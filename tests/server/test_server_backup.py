"""Issue 28, backups: ``sefode backup FILE`` takes a consistent snapshot while the server plays a match, and
``sefode restore FILE`` puts it into an empty database (and refuses one that is not), from which a server resumes
that match where it was when the backup was taken. On SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from server_helpers import PG_ADMIN_URL, Client, Message, running_server
from table_helpers import start, wait_state


def sefode(*args: str, database: str) -> subprocess.CompletedProcess[str]:
    command = Path(sys.executable).parent / "sefode"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run(
        [str(command), *args, "--database", database], env=env, capture_output=True, text=True, timeout=120
    )


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh database of its own on the test PostgreSQL server (a backup is of a whole database), dropped
    afterwards. Fails (never skips) without PostgreSQL."""
    name = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = PG_ADMIN_URL.rpartition("/")
    try:
        yield f"{base.replace('postgresql://', 'postgresql+psycopg://', 1)}/{name}"
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The database the server plays on, and an empty one to restore into."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'live.sqlite3'}", f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    else:
        with postgres_database() as live, postgres_database() as empty:
            yield live, empty


def my_turn_at(client: Client, version: int) -> Message:
    """Play the first legal action at each of the client's turns until the match is at ``version`` or later and
    waits for this client (the bots then wait too: nothing moves until it acts)."""
    state = client.state
    while state is None or state["version"] < version or state["seat"] not in state["awaiting"]:
        assert state is not None and not state["over"], "the match ended early"
        if state["seat"] in state["awaiting"] and state["legal"]:
            client.send("action", action=state["legal"][0]["action"], version=state["version"])
        state = wait_state(client, lambda m: True)
    return state


def test_a_backup_taken_mid_match_restores_into_an_empty_database_and_the_match_resumes(
    databases: tuple[str, str], tmp_path: Path
) -> None:
    live, empty = databases
    backup_file = tmp_path / "sefode.backup"
    with running_server(live, disconnect_grace_s=600.0) as srv:
        ana = srv.player("Ana")
        created = ana.create_room(
            name="Solo", options={"players": 3, "lives": 5}, bots={"1": "easy", "2": "easy"}, clock_s=300
        )
        client = ana.connect()
        assert client.join(created["room_id"])["type"] == "room"
        start(client)
        before = my_turn_at(client, 5)
        done = sefode("backup", str(backup_file), database=live)  # while the server runs, mid-match
        assert done.returncode == 0, done.stderr
        assert backup_file.stat().st_mode & 0o777 == 0o600  # password and session hashes: the owner's alone
        client.close()

    refused = sefode("restore", str(backup_file), database=live)
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "is not empty" in refused.stderr, refused.stderr

    restored = sefode("restore", str(backup_file), database=empty)
    assert restored.returncode == 0, restored.stderr

    with running_server(empty, disconnect_grace_s=600.0) as again:
        back = ana.connect(again)  # the session is in the backup too
        room = back.join(created["room_id"])["room"]
        assert room["status"] == "playing"
        state = wait_state(back, lambda m: True)
        assert state["match_id"] == before["match_id"]
        assert state["version"] == before["version"]
        assert state["view"] == before["view"]
        back.send("action", action=state["legal"][0]["action"], version=state["version"])
        moved = wait_state(back, lambda m: m["version"] > state["version"])
        assert moved["match_id"] == before["match_id"]
        back.close()


def test_restore_refuses_a_file_that_is_no_backup(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("hello", encoding="utf-8")
    done = sefode("restore", str(junk), database=f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert done.returncode == 2
    assert done.stderr == f"sefode restore: {junk} is not a backup made by sefode backup\n"
