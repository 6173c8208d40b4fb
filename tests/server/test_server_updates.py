"""Updates (docs/protocol.md "Updates"): a connection that joined with ``"updates": true`` gets its seat's full state
once, then per action only what changed; folding the updates gives, state after state, exactly what a connection of
the same seat that takes full states receives. Played through the server, for every game of the registry, from a
seeded deal, with every seat and a spectator on two connections (one of each kind)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from server_helpers import LOOSE, Client, LiveServer, Message, running_server
from table_helpers import table

GAMES: list[tuple[str, str, dict[str, Any], int]] = [
    ("fodinha", "fodinha", {"variant": "sefode", "players": 4, "lives": 3}, 4),
    ("sefodejunto", "fodinha", {"variant": "sefode", "players": 4, "teams": True, "lives": 2}, 4),
    ("7letras", "fodinha", {"variant": "7letras", "players": 3, "max_cards": 2}, 3),
    ("king", "king", {}, 4),
    ("trash", "trash", {"players": 2}, 2),
    ("guimenon", "guimenon", {}, 2),
]
MAX_ACTIONS = 400
"""Long games are followed this far (the conformance suite folds whole matches of every game in-process)."""
NAMES = ["Ana", "Bia", "Caio", "Duda"]


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("updates") / "updates.sqlite3"
    fast = dataclasses.replace(LOOSE, connection_messages_burst=1e6, connection_messages_per_s=1e6)
    with running_server(f"sqlite:///{path}", test_hooks=True, limits=fast) as live:
        yield live


def barrier(client: Client) -> None:
    """Everything the server queued for ``client`` before now has arrived (a ping's pong comes after it)."""
    client.send("ping")
    client.wait_type("pong")


def states(client: Client) -> list[Message]:
    return [{k: v for k, v in m.items() if k != "recap"} for m in client.received if m["type"] == "state"]


@pytest.mark.parametrize(("label", "game", "options", "seats"), GAMES, ids=[g[0] for g in GAMES])
def test_folding_the_updates_gives_every_seat_its_full_states(
    srv: LiveServer, label: str, game: str, options: dict[str, Any], seats: int
) -> None:
    room_id, plain = table(srv, NAMES[:seats], options, game=game)
    invite = srv.hub.rooms[room_id].invite_token
    folding = [client.player.connect() for client in plain]
    for client in folding:
        assert client.join(room_id, updates=True)["type"] == "room"
    watcher = srv.player("Eve")
    spectators = [watcher.connect(), watcher.connect()]
    assert spectators[0].join(room_id, invite=invite)["type"] == "room"
    assert spectators[1].join(room_id, invite=invite, updates=True)["type"] == "room"
    everyone = [*plain, *folding, *spectators]
    plain[0].send("start", start={"seed": 20261203, "actions": []})
    first = plain[0].wait_type("state")
    for client in everyone:
        barrier(client)
    rng = random.Random(label)
    state = first
    resynced = False
    for acted in range(MAX_ACTIONS):
        if state["over"] or not state["awaiting"]:
            break
        seat = rng.choice(state["awaiting"])
        actor = plain[seat]
        barrier(actor)
        mine = actor.state
        assert mine is not None and mine["seat"] == seat and mine["legal"], mine
        actor.send("action", action=rng.choice(mine["legal"])["action"], version=mine["version"])
        seq = mine["seq"]
        state = actor.wait(lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)
        for client in everyone:  # read as it comes (a client that stops reading stops answering keepalive pings)
            client.poll()
        if acted == 20 and not resynced:  # a client asks for its full state again: updates go on from it
            resynced = True
            barrier(folding[seat])
            folding[seat].send("resync")
            full = folding[seat].wait_type("state")
            assert full["view"] == state["view"] and full["events"] == [] and full["seq"] > state["seq"]
            folding[seat].received.remove(full)
    for client in everyone:
        barrier(client)
    assert resynced or state["over"]
    for i in range(seats):
        assert folding[i].updates, f"seat {i} got no update"
        assert states(folding[i]) == states(plain[i]), f"seat {i}: the folded states differ from the full ones"
    assert spectators[1].updates and states(spectators[1]) == states(spectators[0])
    assert len(states(plain[0])) > 5
    for client in everyone:
        client.close()


def test_an_update_goes_only_to_a_connection_whose_state_the_server_knows(srv: LiveServer) -> None:
    """A connection that joins mid-match gets the full state first; one that did not ask gets only full states."""
    room_id, plain = table(srv, NAMES[:2], {"variant": "sefode", "players": 2, "lives": 1})
    plain[0].send("start", start={"seed": 5, "actions": []})
    state = plain[0].wait_type("state")
    late = plain[0].player.connect()
    late.join(room_id, updates=True)
    joined = late.wait_type("state")
    assert joined["seq"] >= state["seq"] and "recap" in joined and late.updates == []
    seat = state["awaiting"][0]
    mover = plain[seat]
    barrier(mover)
    assert mover.state is not None
    before = mover.state["seq"]
    mover.send("action", action=mover.state["legal"][0]["action"], version=mover.state["version"])
    mover.wait(lambda m: m["type"] == "state" and m["seq"] > before)
    barrier(late)
    assert len(late.updates) == 1  # it follows the joined state: "base" is said only when it is not seq - 1
    assert late.updates[0].get("base", late.updates[0]["seq"] - 1) == joined["seq"]
    assert all(m["type"] != "update" for m in plain[0].received + plain[1].received)
    for client in [*plain, late]:
        client.close()
