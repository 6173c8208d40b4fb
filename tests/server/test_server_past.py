"""The match's past on demand (docs/protocol.md, "The match's past"): the views leave out what grows with the match
(Fodinha's tricks of every hand); a connection asks for it with ``past`` and gets, to itself alone, what its seat (or a
spectator) has seen, while the match runs, with nothing hidden and no seed in it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, LiveServer, running_server
from table_helpers import table

from sefode.engine import get_game
from sefode.games.fodinha.cards import truco_name

CARD = re.compile(r'"([4567QJKA23][chsd])"')
NAMES = ["Ana", "Bia", "Caio"]


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("past") / "past.sqlite3"
    with running_server(f"sqlite:///{path}", test_hooks=True) as live:
        yield live


def barrier(client: Client) -> None:
    client.send("ping")
    client.wait_type("pong")


def ask_past(client: Client) -> dict[str, Any]:
    barrier(client)  # the state the client holds is the room's latest
    client.send("past")
    message: dict[str, Any] = client.wait_type("past")
    return message


def test_a_seat_and_a_spectator_get_the_tricks_of_the_match_while_it_runs(srv: LiveServer) -> None:
    room_id, seated = table(srv, NAMES, {"variant": "sefode", "players": 3, "lives": 5})
    invite = srv.hub.rooms[room_id].invite_token
    spectator = srv.player("Eve").connect()
    assert spectator.join(room_id, invite=invite, updates=True)["type"] == "room"
    seated[0].send("start", start={"seed": 7, "actions": []})
    for client in [*seated, spectator]:
        client.wait_type("state")
    rng = random.Random(3)
    run = srv.hub.rooms[room_id].match
    assert run is not None
    while run.state.hand_no < 3:  # two hands finished, the third dealt: the past holds more than any view does
        for client in seated:
            barrier(client)
        acting = next(c for c in seated if c.state and c.state["seat"] in c.state["awaiting"] and c.state["legal"])
        assert acting.state is not None
        version = acting.state["version"]
        acting.send("action", action=rng.choice(acting.state["legal"])["action"], version=version)
        acting.wait(lambda m: m["type"] == "state" and m["version"] > version)  # noqa: B023 (waited for at once)
    state = run.state
    played = {truco_name(c) for t in state.match_tricks for _, c in t.plays} | {truco_name(c) for _, c in state.trick}
    hidden = {truco_name(c) for hand in state.hands for c in hand}
    game = get_game("fodinha")
    for seat, client in enumerate(seated):
        past = ask_past(client)
        assert client.state is not None
        assert (past["match_id"], past["seat"], past["version"]) == (run.id, seat, client.state["version"])
        assert past["past"] == game.past(state, seat)
        hands = {entry["hand"] for entries in past["past"]["match_tricks"].values() for entry in entries}
        assert {1, 2} <= hands, "the tricks of finished hands are in the past"
        assert "match_tricks" not in client.state["view"], "the view leaves the match's past out"
        assert set(CARD.findall(json.dumps(past))) <= played, "only played cards"
        # A card of an earlier hand may be held, hidden, now (every hand is dealt from the whole deck): not this hand's.
        now = [e for entries in past["past"]["match_tricks"].values() for e in entries if e["hand"] == state.hand_no]
        assert not set(CARD.findall(json.dumps(now))) & hidden
        assert "seed" not in json.dumps(past)
    watched = ask_past(spectator)
    assert watched["seat"] is None and watched["past"] == game.past(state, None)
    # The match still runs: its history (the seed, the deals) stays closed.
    assert srv.http.get(f"/api/matches/{run.id}/history").status_code == 409
    # The answer went to the asker alone: no other connection got a `past`.
    for client in [*seated, spectator]:
        barrier(client)
    assert sum(1 for m in seated[1].received if m["type"] == "past") == 1
    for client in [*seated, spectator]:
        client.close()


def test_no_past_before_a_match_and_none_kept_out_by_a_game_that_has_none(srv: LiveServer) -> None:
    _room, seated = table(srv, NAMES[:2], {"players": 2}, game="trash")
    assert seated[0].error("past")["code"] == "room/no_match"
    seated[0].send("start", start={"seed": 1, "actions": []})
    seated[0].wait_type("state")
    past = ask_past(seated[0])
    assert past["past"] is None and past["seat"] == 0
    for client in seated:
        client.close()
