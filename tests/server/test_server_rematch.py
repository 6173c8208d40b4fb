"""Rematch (docs/protocol.md, ``rematch``): who may vote, stale and repeated votes, a decline, every human accepting,
the rate limit, a vote in progress across a restart, and tournament rooms."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import LOOSE, Client, LiveServer, Message, running_server
from table_helpers import drive, start, table

from sefode.server.limits import Limits

OPTIONS = {"players": 3, "lives": 1}
BOTS = {"2": "easy"}


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        yield live


def ended(client: Client) -> bool:
    return any(m["type"] == "match_end" for m in client.received)


def finish(clients: list[Client]) -> str:
    """Play the match on to its end (random legal moves: one life each, it ends within a few hands); its id."""
    state = clients[0].state
    assert state is not None
    match_id: str = state["match_id"]
    drive(clients, lambda: all(ended(c) for c in clients))
    for client in clients:
        if client.room is None or client.room["rematch"] is None:
            client.wait(lambda m: m["type"] == "room" and m["room"]["rematch"] is not None)
    return match_id


def offered(client: Client) -> dict[str, Any]:
    assert client.room is not None
    rematch: dict[str, Any] = client.room["rematch"]
    return rematch


def quiet(client: Client) -> list[Message]:
    """Whatever reached ``client`` before the answer to a ping (a message sent before it comes before the pong)."""
    client.send("ping")
    seen = []
    while (message := client.next())["type"] != "pong":
        seen.append(message)
    return seen


def voted(accepted: list[str], declined: list[str] | None = None) -> Any:
    return lambda m: (
        m["type"] == "room"
        and m["room"]["rematch"] is not None
        and m["room"]["rematch"]["accepted"] == accepted
        and m["room"]["rematch"]["declined"] == (declined or [])
    )


def test_when_every_seated_human_accepts_the_next_match_starts_with_the_same_seats_options_and_bots(
    srv: LiveServer,
) -> None:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], OPTIONS, BOTS)
    first = start(ana, [bia])
    before = ana.room
    assert before is not None and before["rematch"] is None
    match_id = finish([ana, bia])
    assert offered(ana) == {"match": match_id, "voters": [ana.player.id, bia.player.id], "accepted": [], "declined": []}
    ana.send("rematch", accept=True, match=match_id)
    bia.wait(voted([ana.player.id]))
    assert not any(m["type"] == "state" for m in quiet(bia))  # one vote of two: no match yet
    bia.send("rematch", accept=True)
    state = bia.wait(lambda m: m["type"] == "state" and m["match_id"] != first["match_id"])
    ana.wait(lambda m: m["type"] == "state" and m["match_id"] == state["match_id"])
    after = bia.room
    assert after is not None and after["status"] == "playing" and after["rematch"] is None
    assert after["match"]["number"] == 2
    assert after["options"] == before["options"]
    assert [(s["player_id"], s["bot"]) for s in after["seats"]] == [(s["player_id"], s["bot"]) for s in before["seats"]]
    assert [(s["player_id"], s["bot"]) for s in after["match"]["seats"]] == [
        (ana.player.id, None),
        (bia.player.id, None),
        (None, "easy"),
    ]
    stored = srv.hub.rooms[room_id]
    assert stored.rematch is None and stored.data()["rematch"] is None


def test_a_decline_holds_the_rematch_back_and_the_owner_may_still_start(srv: LiveServer) -> None:
    _room_id, (ana, bia) = table(srv, ["Ana", "Bia"], OPTIONS, BOTS)
    start(ana, [bia])
    match_id = finish([ana, bia])
    bia.send("rematch", accept=False)
    ana.wait(voted([], [bia.player.id]))
    ana.send("rematch", accept=True)
    bia.wait(voted([ana.player.id], [bia.player.id]))
    assert not any(m["type"] == "state" for m in quiet(ana) + quiet(bia))
    assert ana.room is not None and ana.room["status"] == "waiting"
    # Changing one's mind: the decline was the only thing missing.
    bia.send("rematch", accept=True)
    ana.wait(lambda m: m["type"] == "state" and m["match_id"] != match_id)


def test_the_owners_manual_start_clears_a_vote(srv: LiveServer) -> None:
    _room_id, (ana, bia) = table(srv, ["Ana", "Bia"], OPTIONS, BOTS)
    start(ana, [bia])
    match_id = finish([ana, bia])
    bia.send("rematch", accept=False)
    ana.wait(voted([], [bia.player.id]))
    second = start(ana, [bia])
    assert second["match_id"] != match_id and ana.room is not None and ana.room["rematch"] is None
    assert bia.error("rematch", accept=True, match=match_id)["code"] == "rematch/stale"


def test_only_the_humans_seated_in_the_match_that_ended_may_vote(srv: LiveServer) -> None:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], {"players": 4, "lives": 1}, BOTS)
    invite = srv.hub.rooms[room_id].invite_token
    carl = srv.player("Carl").connect()
    carl.join(room_id, invite=invite)
    dani = srv.player("Dani").connect()
    dani.join(room_id, invite=invite)
    start(ana, [bia])
    dani.send("sit", seat=3)  # during the match: seated for the next one only
    dani.wait(lambda m: m["type"] == "room" and m["room"]["seats"][3]["player_id"] == dani.player.id)
    finish([ana, bia])
    assert offered(ana)["voters"] == [ana.player.id, bia.player.id]  # no bot seat, no spectator, no late sitter
    carl.wait(lambda m: m["type"] == "room" and m["room"]["rematch"] is not None)
    assert carl.error("rematch", accept=True)["code"] == "rematch/not_allowed"  # a spectator
    dani.wait(lambda m: m["type"] == "room" and m["room"]["rematch"] is not None)
    assert dani.error("rematch", accept=True)["code"] == "rematch/not_allowed"  # not seated in the match that ended
    assert offered(ana)["accepted"] == [] and srv.hub.rooms[room_id].rematch["accepted"] == []
    # A voter who gives the seat up counts as declining.
    bia.send("stand")
    ana.wait(voted([], [bia.player.id]))


def test_stale_votes_change_nothing(srv: LiveServer) -> None:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], OPTIONS, BOTS)
    assert ana.error("rematch", accept=True)["code"] == "rematch/stale"  # no match has ended
    start(ana, [bia])
    assert ana.error("rematch", accept=True)["code"] == "rematch/stale"  # a match is on
    match_id = finish([ana, bia])
    error = ana.error("rematch", accept=True, match="0123456789abcdef")  # a vote for another match
    assert error["code"] == "rematch/stale"
    assert offered(bia)["accepted"] == [] and srv.hub.rooms[room_id].rematch["match"] == match_id
    invalid = ana.error("rematch", accept="yes")
    assert invalid["code"] == "message/invalid"


def test_a_repeated_vote_changes_nothing_and_sends_nothing(srv: LiveServer) -> None:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], OPTIONS, BOTS)
    start(ana, [bia])
    finish([ana, bia])
    ana.send("rematch", accept=True)
    bia.wait(voted([ana.player.id]))
    ana.wait(voted([ana.player.id]))
    stored = dict(srv.hub.rooms[room_id].rematch)
    ana.send("rematch", accept=True)
    assert quiet(ana) == [] and quiet(bia) == []
    assert srv.hub.rooms[room_id].rematch == stored


def test_rematch_votes_are_rate_limited(tmp_path: Path) -> None:
    limits = Limits(**{**LOOSE.__dict__, "votes_burst": 3, "votes_per_s": 0.001})
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits) as live:
        _room_id, (ana, bia) = table(live, ["Ana", "Bia"], OPTIONS, BOTS)
        start(ana, [bia])
        finish([ana, bia])
        for accept in (False, True, False):
            ana.send("rematch", accept=accept)
            bia.wait(lambda m: m["type"] == "room")
        assert ana.error("rematch", accept=True)["code"] == "rate/limited"
        assert quiet(bia) == []
        assert offered(bia)["declined"] == [ana.player.id]


def test_a_vote_in_progress_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with running_server(url) as first:
        room_id, (ana, bia) = table(first, ["Ana", "Bia"], OPTIONS, BOTS)
        start(ana, [bia])
        match_id = finish([ana, bia])
        ana.send("rematch", accept=True)
        bia.wait(voted([ana.player.id]))
        ana.close()
        bia.close()
    with running_server(url) as second:
        again = bia.player.connect(second)
        room = again.join(room_id)["room"]
        assert room["status"] == "waiting" and room["last_match"]["id"] == match_id
        assert room["rematch"] == {
            "match": match_id,
            "voters": [ana.player.id, bia.player.id],
            "accepted": [ana.player.id],
            "declined": [],
        }
        again.send("rematch", accept=True, match=match_id)
        state = again.wait(lambda m: m["type"] == "state")
        assert state["match_id"] != match_id and again.room is not None and again.room["match"]["number"] == 2


def test_a_tournament_room_offers_no_rematch(srv: LiveServer) -> None:
    ana_player, bia_player = srv.player("Ana"), srv.player("Bia")
    created = ana_player.create_room(name="Copa", options={"players": 2, "lives": 1}, clock_s=300, tournament=3)
    room_id = created["room_id"]
    ana = ana_player.connect()
    ana.join(room_id)
    bia = bia_player.connect()
    bia.join(room_id, invite=created["invite_token"])
    bia.send("sit", seat=1)
    bia.wait(lambda m: m["type"] == "room" and m["room"]["seats"][1]["player_id"] == bia_player.id)
    start(ana, [bia])
    drive([ana, bia], lambda: ended(ana) and ended(bia))
    if ana.room is None or ana.room["last_match"] is None:
        ana.wait(lambda m: m["type"] == "room" and m["room"]["last_match"] is not None)
    assert ana.room is not None and ana.room["rematch"] is None
    assert srv.hub.rooms[room_id].rematch["tournament"] is True
    assert ana.error("rematch", accept=True)["code"] == "rematch/tournament"
