"""The guard against endless matches at a server's table (issue 26): a match of a game whose play cycles for ever
(``cycling_game``) ends at the game's longest match as its no-winner outcome, and the published history says why."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cycling_game import Cycle
from server_helpers import LiveServer, running_server
from table_helpers import start, table

from sefode.engine import register, unregister


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    register(Cycle())
    try:
        with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
            yield live
    finally:
        unregister("cycle")


def test_a_match_that_reaches_the_games_longest_match_ends_with_no_winner_and_the_history_says_why(
    srv: LiveServer,
) -> None:
    _, (ana,) = table(srv, ["Ana"], {"players": 2, "longest": 12}, bots={"1": "hard"})
    state = start(ana)
    while True:
        if state["legal"] and 0 in state["awaiting"]:
            ana.send("action", action=state["legal"][0]["action"], version=state["version"])
        message = ana.wait(lambda m: m["type"] in ("state", "match_end"))
        if message["type"] == "match_end":
            break
        state = message
    assert message["no_winner"] is True and message["placements"] == [2, 2]
    final = ana.state
    assert final is not None and final["over"] is True and final["awaiting"] == []
    assert ana.error("action", action={"name": "c"}, version=final["version"])["code"] == "room/no_match"
    history = srv.http.get(message["history_url"]).json()
    assert len(history["actions"]) == 12 and "12 decisions" in history["result"]["guard"]
    replayed = srv.http.get(f"/api/matches/{message['match_id']}/replay").json()["replay"]
    assert replayed["over"] is True and replayed["placements"] == [2, 2] and "12 decisions" in replayed["guard"]
