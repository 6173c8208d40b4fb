"""Persistence on SQLite and PostgreSQL: every accepted action is stored, and a restart resumes every match."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.config import Config
from alembic.script import ScriptDirectory
from server_helpers import Client, postgres_url, running_server
from table_helpers import drive, settle, start, table, wait_state

from sefode.history import replay
from sefode.store import Store
from sefode.store.db import MIGRATIONS

CARD = re.compile(r'"[4567QJKA23][chsd]"')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'sefode.sqlite3'}"
    else:
        with postgres_url() as url:  # fails loudly when PostgreSQL is missing
            yield url


def test_migrations_run_at_start_up_and_are_idempotent(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    store.migrate()
    with store.engine.connect() as conn:
        version = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
        tables = set(sa.inspect(conn).get_table_names())
    store.close()
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert version == ScriptDirectory.from_config(config).get_current_head()
    assert {"players", "rooms", "matches", "actions"} <= tables


def test_restart_resumes_every_room_and_match_where_it_was(database_url: str) -> None:
    options = {"players": 3, "lives": 2}
    with running_server(database_url, disconnect_grace_s=600.0) as first:
        room_id, clients = table(first, ["Ana", "Bia", "Carl"], options)
        lobby_room = first.player("Lobby").create_room(name="Vazia", options={"variant": "7letras", "players": 5})
        start(clients[0], clients[1:])
        drive(clients, lambda: any(c.state is not None and c.state["version"] >= 9 for c in clients))
        settle(clients)
        before = {c.player.id: c.state for c in clients}
        assert len({state["version"] for state in before.values() if state}) == 1
        seed_hash = clients[0].room["match"]["seed_hash"] if clients[0].room else None
        for client in clients:
            client.close()
    with running_server(database_url, disconnect_grace_s=600.0) as second:
        assert lobby_room["room_id"] in {r["id"] for r in second.http.get("/api/rooms").json()["rooms"]}
        again: list[Client] = []
        for client in clients:
            back = client.player.connect(second)
            room = back.join(room_id)["room"]
            assert room["status"] == "playing" and room["match"]["seed_hash"] == seed_hash
            state = wait_state(back, lambda m: True)
            old = before[client.player.id]
            assert old is not None
            assert state["version"] == old["version"]
            assert state["view"] == old["view"]
            assert state["recap"]  # a short recap of what happened
            again.append(back)
        match_id = again[0].state["match_id"] if again[0].state else ""
        early = second.http.get(f"/api/matches/{match_id}/history")
        assert early.status_code == 409
        assert "seed" not in early.text and not CARD.search(early.text)
        early_replay = second.http.get(f"/api/matches/{match_id}/replay")
        assert early_replay.status_code == 409
        assert "seed" not in early_replay.text and not CARD.search(early_replay.text)
        drive(again, lambda: any(m["type"] == "match_end" for c in again for m in c.received))
        end = next(m for c in again for m in c.received if m["type"] == "match_end")
        history = second.http.get(end["history_url"])
        assert history.status_code == 200
        data = history.json()
    assert data["format"] == "sefode-history/1"
    assert hashlib.sha256(str(data["seed"]).encode()).hexdigest() == seed_hash
    result = replay(data).result()
    assert result["error"] is None and result["over"] is True
    assert result["placements"] == end["placements"]


def test_exported_history_replays_with_the_cli(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        ana = srv.player("Ana")
        room_id = ana.post("/api/solo", {"variant": "7letras", "bots": 2, "level": "easy"}).json()["room_id"]
        client = ana.connect()
        client.join(room_id)
        state = wait_state(client, lambda m: True)
        while True:
            client.send("action", action={"leave": True}, version=state["version"])
            answer = client.wait(lambda m: m["type"] in ("error", "state"))
            if answer["type"] == "state" and {"type": "leave", "seat": 0} in answer["events"]:
                break
            state = client.state or state
        end = client.wait_type("match_end", timeout=120)
        text = srv.http.get(end["history_url"]).text
        replayed = srv.http.get(end["history_url"].replace("/history", "/replay")).json()
    # The replay endpoint is the engine's own replay of the same history, with every hand open.
    assert replayed["history"] == json.loads(text)
    assert replayed["replay"] == replay(json.loads(text)).result()
    assert replayed["replay"]["placements"] == end["placements"]
    for hand in replayed["replay"]["hands"]:
        played = sorted(card for trick in hand["tricks"] for _, card in trick["plays"])
        assert played == sorted(card for cards in hand["dealt"] if cards for card in cards)
    path = tmp_path / "match.json"
    path.write_text(text, encoding="utf-8")
    sefode = Path(sys.executable).parent / "sefode"
    done = subprocess.run([str(sefode), "replay", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["placements"] == end["placements"]


def test_chat_is_stored_with_the_room_and_replayed_on_reconnect_and_after_a_restart(database_url: str) -> None:
    with running_server(database_url) as first:
        room_id, (ana, bia) = table(first, ["Ana", "Bia"], {"players": 2})
        for text in ("oi", "bora jogar?"):
            ana.send("chat", text=text)
            got = bia.wait(lambda m: m["type"] == "chat")
            assert got["text"] == text
        bia.close()
        again = bia.player.connect()
        again.join(room_id)
        recap = [again.wait(lambda m: m["type"] == "chat") for _ in range(2)]
        assert [(m["text"], m["recap"], m["from"]["name"]) for m in recap] == [
            ("oi", True, "Ana"),
            ("bora jogar?", True, "Ana"),
        ]
        assert recap[0]["id"] < recap[1]["id"]
        token = ana.player
    with running_server(database_url) as second:
        client = token.connect(second)
        client.join(room_id)
        after = [client.wait(lambda m: m["type"] == "chat") for _ in range(2)]
        assert [m["text"] for m in after] == ["oi", "bora jogar?"] and all(m["recap"] for m in after)
        assert [m["id"] for m in after] == [m["id"] for m in recap]
