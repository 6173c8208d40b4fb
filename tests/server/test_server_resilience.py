"""Failures inside the server never stall a table nor change a match behind the players' backs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from server_helpers import running_server
from table_helpers import start, table, wait_state

import sefode.server.hub as hub_module
from sefode.server.hub import Hub
from sefode.store import db


def test_an_action_the_store_refuses_is_not_applied_and_the_match_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = db.add_action
    failures = [1]

    def flaky(*args: Any) -> None:
        if failures:
            failures.pop()
            raise OSError("disk full")
        real(*args)

    monkeypatch.setattr(hub_module, "add_action", flaky)  # the store write of every action (Hub.store_action)
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        _, (ana, bia) = table(srv, ["Ana", "Bia"], {"players": 2})
        start(ana, [bia])
        on_turn = next(c for c in (ana, bia) if c.state and c.state["seat"] in c.state["awaiting"])
        first = on_turn.state
        assert first is not None
        action = first["legal"][0]["action"]
        seen = len(on_turn.received)
        on_turn.send("action", action=action, version=0)
        error = on_turn.wait_type("error")
        assert error["code"] == "server/error"
        # the match was rebuilt from the store and sent again, as it was: the action did not happen
        reloaded = [m for m in on_turn.received[seen:] if m["type"] == "state"]
        assert reloaded and reloaded[-1]["version"] == 0 and reloaded[-1]["view"] == first["view"]
        on_turn.send("action", action=action, version=0)
        assert wait_state(on_turn, lambda m: m["version"] == 1)["events"]


def _after(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: bool(m["version"] > version)


def test_a_failing_bot_does_not_stall_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(self: Hub, *args: Any) -> int:
        raise RuntimeError("bot crashed")

    monkeypatch.setattr(Hub, "decide", broken)
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        ana = srv.player("Ana")
        room_id = ana.post("/api/solo", {"variant": "sefode", "bots": 2, "level": "easy"}).json()["room_id"]
        client = ana.connect()
        client.join(room_id)
        state = wait_state(client, lambda m: True)
        # The bots' decisions all crash, yet their seats keep moving: their turns are played with a legal action.
        # Whenever the turn is ours we play it (the bots may have played up to it, and a trick we win is ours to
        # lead again), until a state shows a bot's seat moving. Until Ana's connection joins, the table plays her
        # seat at once too (she is away), so the match may have moved on, or even ended, before the first state she
        # gets: its recap then shows the bots' moves.
        while not _bots_moved(state):
            if 0 in state["awaiting"] and state["legal"]:
                client.send("action", action=state["legal"][0]["action"], version=state["version"])
            state = wait_state(client, _after(state["version"]))
        assert state["version"] > 0


def _bots_moved(state: dict[str, Any]) -> bool:
    """Whether a state's events (or, on joining, its recap of the last ones) show seat 1 or 2 acting."""
    return any(e.get("seat") in (1, 2) for e in [*state["events"], *(state.get("recap") or [])])


def test_awarding_failure_does_not_stop_a_match_from_ending(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> None:
        raise RuntimeError("medals table locked")

    monkeypatch.setattr(hub_module, "record_match_end", broken)  # the awards of a match end (Hub.match_ended)
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        ana = srv.player("Ana")
        room_id = ana.post("/api/solo", {"variant": "sefode", "bots": 1, "level": "easy"}).json()["room_id"]
        client = ana.connect()
        client.join(room_id)
        state = wait_state(client, lambda m: True)
        client.send("action", action={"leave": True}, version=state["version"])
        while True:
            message = client.wait(lambda m: m["type"] in ("error", "state", "match_end"), timeout=60)
            if message["type"] == "match_end":
                break
            if message["type"] == "error":
                assert message["code"] == "action/stale_state"
                client.send("action", action={"leave": True}, version=(client.state or state)["version"])
        assert client.wait(lambda m: m["type"] == "room" and m["room"]["status"] == "waiting")["room"]["last_match"]
