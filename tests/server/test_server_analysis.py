"""The move analysis on the server (issue 15 §3): started by POST, reported with progress by GET, cached per match and
seat, only for finished matches."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import WAIT_S, LiveServer, running_server
from table_helpers import drive


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        live.app.state.analysis_budget_s = 3.0
        live.app.state.coach_budget_s = 1.0
        yield live


@pytest.fixture
def waiting_srv(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose tables wait for an absent player (a long grace): a solo match stays on until the player's
    connection comes, however slow it is. With no grace a loaded machine once saw the table play the player's seat
    to the end of the match before her join arrived, and the test waited for hands that had all been played."""
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", disconnect_grace_s=60.0) as live:
        live.app.state.analysis_budget_s = 3.0
        live.app.state.coach_budget_s = 1.0
        yield live


def _poll(srv: LiveServer, path: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    """GET the analysis until it is done (each answer kept); the deadline only turns a hang into a failure."""
    answers = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        answer = srv.http.get(path, headers=headers).json()
        answers.append(answer)
        if answer["status"] != "running":
            return answers
        time.sleep(0.1)
    raise AssertionError(f"the analysis never finished: {answers[-1]}")


def test_the_analysis_of_a_finished_match_runs_on_the_server_and_is_cached(srv: LiveServer) -> None:
    ana = srv.player("Ana")
    solo = ana.post("/api/solo", {"bots": 1, "level": "normal", "options": {"players": 2, "lives": 2}})
    assert solo.status_code == 200, solo.text
    room_id = solo.json()["room_id"]
    client = ana.connect()
    client.join(room_id)
    # The table may play Ana's seat (absent: the test server gives no grace) to the end before her join arrives; she
    # then sees the match over in her first state, with no match_end message.
    drive([client], lambda: client.state is not None and bool(client.state["over"]))
    assert client.state is not None
    match_id = client.state["match_id"]
    path = f"/api/matches/{match_id}/analysis?seat=0"
    assert srv.http.get(path, headers=ana.auth).json()["error"]["code"] == "analysis/not_started"
    started = srv.http.post(path, headers=ana.auth)
    assert started.status_code == 200, started.text
    assert started.json()["status"] in ("running", "done") and started.json()["total"] >= 1
    answers = _poll(srv, path, ana.auth)
    done = answers[-1]
    assert done["status"] == "done", done
    assert all(a["done"] <= a["total"] for a in answers)
    analysis = done["analysis"]
    assert analysis["seat"] == 0 and analysis["format"] == "sefode-analysis/1"
    history = srv.http.get(f"/api/matches/{match_id}/history").json()
    indexes = [d["index"] for d in analysis["decisions"]]
    assert indexes and all(history["actions"][i]["seat"] == 0 for i in indexes)
    for d in analysis["decisions"]:
        entry = {k: v for k, v in history["actions"][d["index"]].items() if k != "seat"}
        assert d["chosen"] == entry
    # Cached: a second POST answers the same analysis at once.
    again = srv.http.post(path, headers=ana.auth).json()
    assert again["status"] == "done" and again["analysis"] == analysis


def test_no_analysis_before_the_end_nor_of_a_seat_the_match_lacks(waiting_srv: LiveServer) -> None:
    srv = waiting_srv
    ana = srv.player("Ana")
    solo = ana.post("/api/solo", {"bots": 1, "level": "normal", "options": {"players": 2}}).json()
    client = ana.connect()
    client.join(solo["room_id"])
    state = client.wait_type("state", WAIT_S)
    running = srv.http.post(f"/api/matches/{state['match_id']}/analysis?seat=0", headers=ana.auth)
    assert running.status_code == 409 and running.json()["error"]["code"] == "match/not_over"
    assert srv.http.post("/api/matches/nope/analysis?seat=0", headers=ana.auth).status_code == 404
    # Starting a search needs a session.
    anonymous = srv.http.post(f"/api/matches/{state['match_id']}/analysis?seat=0")
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "auth/required"


def test_the_solo_coach_judges_my_decisions_of_the_match_on_and_only_at_a_solo_table(waiting_srv: LiveServer) -> None:
    srv = waiting_srv
    ana = srv.player("Ana")
    solo = ana.post("/api/solo", {"bots": 1, "level": "normal", "options": {"players": 2}}).json()
    client = ana.connect()
    client.join(solo["room_id"])
    ends: list[int] = []

    def hand_ends(_c: Any, m: dict[str, Any]) -> None:
        if m["type"] == "state" and any(e["type"] == "hand_end" for e in m["events"]):
            ends.append(m["version"])

    drive([client], lambda: len(ends) >= 2, on_message=hand_ends)
    coach = srv.http.get(f"/api/rooms/{solo['room_id']}/coach?since=0", headers=ana.auth)
    assert coach.status_code == 200, coach.text
    data = coach.json()
    assert data["seat"] == 0 and data["decisions"]
    for d in data["decisions"]:
        actions = [o["action"] for o in d["options"]]
        assert d["chosen"] in actions and d["preferred"] in actions
    assert "seed" not in coach.text
    # The second hand alone (between the table's versions at the first two ends of a hand): its bid is always named,
    # as the headline decision, and the other decisions only when they are mistakes.
    hand = srv.http.get(
        f"/api/rooms/{solo['room_id']}/coach?since={ends[0]}&until={ends[1]}", headers=ana.auth
    ).json()
    assert hand["since"] == ends[0] and hand["until"] == ends[1]
    indexes = [d["index"] for d in hand["decisions"]]
    assert indexes and all(ends[0] <= i < ends[1] for i in indexes)
    bids = [d for d in hand["decisions"] if "bid" in d["chosen"]]
    assert len(bids) == 1 and bids[0]["headline"] and "bid" in bids[0]["preferred"]
    assert all(d["headline"] == ("bid" in d["chosen"]) for d in hand["decisions"])
    assert bids[0]["index"] in hand["highlights"] and set(hand["highlights"]) <= set(indexes)
    assert all(d["mistake"] for d in hand["decisions"] if d["index"] in hand["highlights"] and not d["headline"])
    # One request at a time per player: a second one while the first is answered is refused, not queued.
    srv.app.state.analyses.coaching.add(ana.id)
    busy = srv.http.get(f"/api/rooms/{solo['room_id']}/coach", headers=ana.auth)
    srv.app.state.analyses.coaching.discard(ana.id)
    assert busy.status_code == 429 and busy.json()["error"]["code"] == "rate/limited"
    assert srv.http.get(f"/api/rooms/{solo['room_id']}/coach?until=x", headers=ana.auth).status_code == 400
    # Not for someone who does not play the match, and not at a table with another person.
    bia = srv.player("Bia")
    assert srv.http.get(f"/api/rooms/{solo['room_id']}/coach", headers=bia.auth).json()["error"]["code"] == (
        "room/not_seated"
    )
    room = ana.create_room(name="Mesa", options={"players": 2}, clock_s=300)
    ana_room = ana.connect()
    ana_room.join(room["room_id"])
    bia_client = bia.connect()
    bia_client.join(room["room_id"], invite=room["invite_token"])
    bia_client.send("sit", seat=1)
    ana_room.wait(lambda m: m["type"] == "room" and m["room"]["seats"][1]["player_id"] == bia.id)
    ana_room.send("start")
    ana_room.wait_type("state")
    refused = srv.http.get(f"/api/rooms/{room['room_id']}/coach", headers=ana.auth)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "coach/not_solo"
