"""WebSocket protocol (docs/protocol.md): every message type, error code and permission."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, LiveServer, running_server
from table_helpers import at_version, drive, start, table, wait_state
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        yield live


def after(version: int) -> Callable[[dict[str, Any]], bool]:
    """An error, or a state newer than ``version``."""
    return lambda m: m["type"] == "error" or (m["type"] == "state" and m["version"] > version)


def leave(client: Client) -> None:
    """Forfeit, retrying while bots keep the version moving.

    Every message after the send is read in order: a bot's move may arrive before the state that carries the
    leave, and once that state is in, the client no longer holds a seat.
    """
    while True:
        state = client.state
        assert state is not None and state["seat"] is not None
        seat = state["seat"]
        version = state["version"]
        client.send("action", action={"leave": True}, version=version)
        while True:
            answer = client.next()
            if answer["type"] == "state" and any(e == {"type": "leave", "seat": seat} for e in answer["events"]):
                return
            if answer["type"] == "error":
                assert answer["code"] == "action/stale_state", answer
                break


def refused(client: Client, kind: str, **fields: object) -> str:
    code: str = client.error(kind, **fields)["code"]
    return code


# ---------------------------------------------------------------------- connection, validation, limits
def test_websocket_without_session_is_refused_with_auth_required(srv: LiveServer) -> None:
    # Without a session cookie, the first message must authenticate; anything else is refused with 4401.
    with connect(srv.ws_url) as ws:
        ws.send(json.dumps({"type": "ping"}))
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "error" and first["code"] == "auth/required"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    with connect(srv.ws_url) as ws:
        ws.send(json.dumps({"type": "auth", "token": "forged"}))
        assert json.loads(ws.recv(timeout=10))["code"] == "auth/required"
    # A token in the URL is not a way in (URLs end up in logs).
    ana = srv.player("Ana")
    with connect(f"{srv.ws_url}?token={ana.token}") as ws:
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10))["code"] == "auth/required"


def test_hello_and_ping_pong(srv: LiveServer) -> None:
    ana = srv.player("Ana")
    client = ana.connect()
    assert client.received[0] == {"type": "hello", "protocol": 5, "player_id": ana.id, "name": "Ana"}
    client.send("ping")
    assert client.wait_type("pong")["at"] > 0


def test_malformed_messages_get_message_invalid_and_change_nothing(srv: LiveServer) -> None:
    client = srv.player().connect()
    bad = [
        "not json",
        "[1, 2]",
        '{"no": "type"}',
        '{"type": 5}',
        '{"type": "fly"}',
        '{"type": "ping", "extra": 1}',
        '{"type": "sit", "seat": "0"}',
        '{"type": "sit", "seat": true}',
        '{"type": "sit"}',
        '{"type": "chat", "text": ""}',
        '{"type": "chat", "text": "' + "a" * 501 + '"}',
        '{"type": "action", "action": [1], "version": 0}',
        '{"type": "action", "action": {"bid": 1}, "version": -1}',
        '{"type": "set_seat", "seat": 1, "bot": "god"}',
        '{"type": "set_teams", "teams": [{"colour": "red"}]}',
        '{"type": "pause", "vote": "yes"}',
        '{"type": "join", "room": ""}',
        '{"type": "ping", "ref": {"a": 1}}',
        "[" * 2000 + "]" * 2000,
        "\udcff".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
    ]
    for raw in bad:
        client.send_raw(raw)
        error = client.wait_type("error")
        assert error["code"] == "message/invalid", (raw[:40], error)
        assert error["message"]
    client.send_raw(b"\xff\xfe binary")
    assert client.wait_type("error")["code"] == "message/invalid"
    client.send_raw(json.dumps({"type": "sit", "seat": -1, "ref": "r1"}))
    assert client.wait_type("error") == {
        "type": "error",
        "code": "message/invalid",
        "message": "'seat' must be a whole number from 0 to 7",
        "ref": "r1",
    }
    client.send("ping")
    assert client.wait_type("pong")


def test_message_over_the_size_limit_is_refused_as_too_large(srv: LiveServer) -> None:
    client = srv.player().connect()
    client.send("chat", text="x" * 5000)
    assert client.wait_type("error")["code"] == "message/too_large"
    client.send("ping")
    assert client.wait_type("pong")
    assert srv.http.get("/api/health").status_code == 200


def test_flooding_is_rate_limited_then_disconnected(srv: LiveServer) -> None:
    client = srv.player().connect()
    for _ in range(60):
        client.send("ping")
    codes = []
    for _ in range(60):
        message = client.next()
        codes.append(message.get("code", message["type"]))
    assert "rate/limited" in codes
    assert codes.count("pong") >= 20
    flood = srv.player("Flood").connect()
    with pytest.raises(ConnectionClosed):
        for _ in range(600):  # more than the burst plus the 200 refusals a connection is allowed
            flood.send("ping")
        while True:
            flood.next()
    assert srv.http.get("/api/health").status_code == 200


# ---------------------------------------------------------------------- joining rooms
def test_room_messages_need_a_joined_room(srv: LiveServer) -> None:
    client = srv.player().connect()
    cases: list[tuple[str, dict[str, Any]]] = [
        ("sit", {"seat": 0}),
        ("stand", {}),
        ("start", {}),
        ("chat", {"text": "oi"}),
        ("pause", {"vote": True}),
        ("action", {"action": {"bid": 0}, "version": 0}),
        ("set_seat", {"seat": 0, "bot": None}),
        ("set_teams", {"draw": True}),
    ]
    for kind, fields in cases:
        assert refused(client, kind, **fields) == "room/not_joined", kind
    assert refused(client, "join", room="nope") == "room/not_found"


def test_password_room_needs_the_right_password(srv: LiveServer) -> None:
    ana = srv.player("Ana")
    room = ana.create_room(name="Senha", visibility="password", password="segredo", options={"players": 3})
    bia = srv.player("Bia").connect()
    assert bia.join(room["room_id"])["code"] == "room/bad_password"
    assert bia.join(room["room_id"], password="errada")["code"] == "room/bad_password"
    assert bia.join(room["room_id"], password="segredo")["type"] == "room"
    owner = ana.connect()
    assert owner.join(room["room_id"])["type"] == "room"  # the owner needs no password


def test_invite_room_needs_the_invite_token(srv: LiveServer) -> None:
    ana = srv.player("Ana")
    room = ana.create_room(name="Convite", visibility="invite", options={"players": 3})
    bia = srv.player("Bia").connect()
    assert bia.join(room["room_id"])["code"] == "room/bad_invite"
    assert bia.join(room["room_id"], invite="wrong-token")["code"] == "room/bad_invite"
    joined = bia.join(room["room_id"], invite=room["invite_token"])
    assert joined["type"] == "room"
    assert joined["room"]["your_seat"] is None and joined["room"]["spectators"] == 1
    assert joined["room"]["invite_token"] == room["invite_token"]  # anyone inside may share the link


# ---------------------------------------------------------------------- seating and owner powers
def test_seats_and_owner_powers(srv: LiveServer) -> None:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], {"players": 4})
    room = bia.room
    assert room is not None and room["owner"] == ana.player.id and room["your_seat"] == 1
    assert refused(bia, "sit", seat=0) == "room/seat_taken"
    assert refused(bia, "sit", seat=6) == "room/bad_seat"
    assert refused(bia, "set_seat", seat=2, bot="easy") == "room/not_owner"
    assert refused(bia, "start") == "room/not_owner"
    assert refused(bia, "set_teams", draw=True) == "room/not_owner"
    assert refused(ana, "set_teams", draw=True) == "room/no_teams"
    bia.send("sit", seat=3)
    moved = bia.wait(lambda m: m["type"] == "room" and m["room"]["your_seat"] == 3)
    assert moved["room"]["seats"][1]["player_id"] is None
    bia.send("stand")
    stood = bia.wait(lambda m: m["type"] == "room" and m["room"]["your_seat"] is None)
    assert stood["room"]["seats"][3]["player_id"] is None
    assert refused(bia, "stand") == "room/not_seated"
    bia.send("sit", seat=1)
    bia.wait(lambda m: m["type"] == "room" and m["room"]["your_seat"] == 1)
    ana.send("set_seat", seat=2, bot="hard")
    ana.wait(lambda m: m["type"] == "room" and m["room"]["seats"][2]["bot"] == "hard")
    ana.send("set_seat", seat=1, bot="easy")  # the owner may replace a human by a bot
    kicked = bia.wait(lambda m: m["type"] == "room" and m["room"]["seats"][1]["bot"] == "easy")
    assert kicked["room"]["your_seat"] is None
    ana.send("set_seat", seat=1, bot=None)
    ana.wait(lambda m: m["type"] == "room" and m["room"]["seats"][1]["bot"] is None)
    state = start(ana, [bia])
    assert state["seat"] == 0
    room_now = ana.room  # the room message comes just before the first state
    assert room_now is not None and room_now["status"] == "playing"
    match = room_now["match"]
    assert [s["bot"] for s in match["seats"]] == [None, "normal", "hard", "normal"]  # empty seats get a bot
    assert len(match["seed_hash"]) == 64
    assert refused(ana, "start") == "room/match_on"
    assert refused(ana, "set_seat", seat=3, bot="easy") == "room/match_on"
    assert refused(ana, "stand") == "room/match_on"
    assert room_id


def test_owner_draws_or_assigns_pairs_and_names_them(srv: LiveServer) -> None:
    _, (ana, bia, carl, dani) = table(srv, ["Ana", "Bia", "Carl", "Dani"], {"players": 4, "teams": True})
    ids = [c.player.id for c in (ana, bia, carl, dani)]
    room = dani.room
    assert room is not None and [t["seats"] for t in room["teams"]] == [[0, 2], [1, 3]]
    ana.send("set_teams", pairs=[[0, 1], [2, 3]], teams=[{"name": "Os Bons", "colour": "#112233", "symbol": "★"}])
    done = ana.wait(lambda m: m["type"] == "room" and m["room"]["teams"][0]["name"] == "Os Bons")["room"]
    assert [s["player_id"] for s in done["seats"]] == [ids[0], ids[2], ids[1], ids[3]]
    assert done["teams"][0] == {"name": "Os Bons", "colour": "#112233", "symbol": "★", "seats": [0, 2]}
    assert done["teams"][1]["name"] and done["teams"][1]["colour"].startswith("#")
    assert refused(ana, "set_teams", pairs=[[0, 1], [1, 3]]) == "message/invalid"
    ana.send("set_teams", draw=True, ref="draw")
    drawn = ana.wait(lambda m: m["type"] == "room" and m["room"]["teams"][0]["name"] == "Os Bons")["room"]
    assert sorted(s["player_id"] for s in drawn["seats"]) == sorted(ids)
    state = start(ana, [bia, carl, dani])
    assert state["view"]["teams"] == [0, 1, 0, 1]
    assert refused(ana, "set_teams", draw=True) == "room/match_on"


# ---------------------------------------------------------------------- actions
def test_action_checks_in_order_and_refusals_change_nothing(srv: LiveServer) -> None:
    room_id, (ana, bia, carl) = table(srv, ["Ana", "Bia", "Carl"], {"players": 3})
    dave = srv.player("Dave").connect()
    assert dave.join(room_id)["type"] == "room"
    assert refused(ana, "action", action={"bid": 0}, version=0) == "room/no_match"
    first = start(ana, [bia, carl])
    clients = {c.player.id: c for c in (ana, bia, carl)}
    spectator = wait_state(dave, lambda m: True)
    assert spectator["seat"] is None and spectator["view"]["hands"] == [None, None, None]
    # one-card hand: a seat sees every card but its own
    hands = first["view"]["hands"]
    assert hands[0] is None and hands[1] is not None and hands[2] is not None
    [turn] = first["awaiting"]
    assert "turn" not in first["view"] and isinstance(first["deadline"], int)  # the view leaves it to ``awaiting``
    seats = {c.state["seat"]: c for c in clients.values() if c.state is not None}
    on_turn, off_turn = seats[turn], seats[(turn + 1) % 3]
    assert refused(dave, "action", action={"bid": 0}, version=0) == "room/not_seated"
    assert refused(on_turn, "action", action={"bid": 0}, version=3) == "action/stale_state"
    assert refused(off_turn, "action", action={"bid": 0}, version=0) == "action/not_your_turn"
    assert refused(on_turn, "action", action={"bid": "x"}, version=0) == "action/bad_bid"
    assert refused(on_turn, "action", action={"fly": 1}, version=0) == "action/invalid"
    assert refused(on_turn, "action", action={"play": "Ks"}, version=0) == "action/must_bid"
    assert refused(on_turn, "action", action={"bid": 2}, version=0) == "action/bad_bid"
    assert refused(on_turn, "action", action={"show": True}, version=0) == "action/no_show"
    assert refused(on_turn, "action", action={"join": True}, version=0) == "action/no_join"
    on_turn.send("action", action={"bid": 0}, version=0)
    after = wait_state(on_turn, lambda m: m["version"] == 1)
    assert after["events"] == [{"type": "bid", "seat": turn, "bid": 0}]
    # a double click: the same action again is stale
    assert refused(on_turn, "action", action={"bid": 0}, version=0) == "action/stale_state"
    second = seats[after["awaiting"][0]]
    second.send("action", action={"bid": 0}, version=1)
    last = wait_state(ana, lambda m: m["version"] == 2)
    forbidden = last["view"]["forbidden_bid"]
    assert forbidden == 1  # pé rule: bids 0 + 0, the last bidder may not make them add up to 1
    dealer = seats[last["awaiting"][0]]
    assert refused(dealer, "action", action={"bid": 1}, version=2) == "action/foot_rule"
    dealer.send("action", action={"bid": 0}, version=2)
    two = wait_state(ana, lambda m: m["version"] == 3 and m["view"]["cards"] == 2)
    kinds = [e["type"] for e in two["events"]]
    assert kinds[:5] == ["bid", "play", "play", "play", "trick"] and "deal" in kinds
    # hand 2: every seat sees only its own hand
    for client in clients.values():
        state = at_version(client, 3)
        seat = client.player_seat = state["seat"]
        assert [h is not None for h in state["view"]["hands"]] == [s == seat for s in range(3)]
    held = {c for client in clients.values() for c in at_version(client, 3)["view"]["hands"][client.player_seat]}
    missing = next(f"{r}{s}" for r in "4567QJKA23" for s in "chsd" if f"{r}{s}" not in held)
    bidder = seats[two["awaiting"][0]]
    for bid in range(2):
        bidder.send("action", action={"bid": bid}, version=3 + bid)
        bidder = seats[at_version(bidder, 4 + bid)["awaiting"][0]]
    last_bidder = bidder
    allowed = [a["action"]["bid"] for a in at_version(last_bidder, 5)["legal"]]
    last_bidder.send("action", action={"bid": allowed[0]}, version=5)
    playing = wait_state(ana, lambda m: m["version"] == 6)
    assert playing["view"]["phase"] == "playing"
    leader = seats[playing["awaiting"][0]]
    assert refused(leader, "action", action={"play": missing}, version=6) == "action/card_not_in_hand"
    assert refused(leader, "action", action={"bid": 1}, version=6) == "action/must_play"
    assert refused(leader, "action", action={"play": "Zz"}, version=6) == "action/bad_card"
    leader.send("ping")
    leader.wait_type("pong")
    assert (leader.state or {})["version"] == 6  # nothing changed


def test_chat_reaches_everyone_in_the_room(srv: LiveServer) -> None:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], {"players": 3})
    dave = srv.player("Dave").connect()
    dave.join(room_id)
    dave.send("chat", text="boa sorte!")
    for client in (ana, bia, dave):
        chat = client.wait_type("chat")
        assert chat["text"] == "boa sorte!"
        assert chat["from"] == {"player_id": dave.player.id, "name": "Dave", "bot": False}


def test_pause_needs_a_majority_of_seated_humans(srv: LiveServer) -> None:
    room_id, (ana, bia, carl) = table(srv, ["Ana", "Bia", "Carl"], {"players": 4}, bots={"3": "easy"})
    dave = srv.player("Dave").connect()
    dave.join(room_id)
    assert refused(ana, "pause", vote=True) == "room/no_match"
    state = start(ana, [bia, carl])
    assert refused(dave, "pause", vote=True) == "pause/not_allowed"
    ana.send("pause", vote=True)
    one = ana.wait(lambda m: m["type"] == "room" and m["room"]["pause"]["votes"] == [ana.player.id])["room"]
    assert one["status"] == "playing" and one["pause"]["needed"] == 2
    bia.send("pause", vote=True)
    paused = ana.wait(lambda m: m["type"] == "room" and m["room"]["status"] == "paused")["room"]
    assert paused["pause"]["until"] is not None
    assert wait_state(ana, lambda m: True)["deadline"] is None  # clocks frozen
    version = max(c.state["version"] for c in (ana, bia, carl) if c.state)
    assert refused(carl, "action", action={"bid": 0}, version=version) in ("room/paused",)
    bia.send("pause", vote=False)
    resumed = ana.wait(lambda m: m["type"] == "room" and m["room"]["status"] == "playing")["room"]
    assert resumed["pause"]["votes"] == []
    assert state["match_id"]


def test_leave_forfeits_and_a_bot_plays_the_seat(srv: LiveServer) -> None:
    _, (ana, bia, carl) = table(srv, ["Ana", "Bia", "Carl"], {"players": 3, "lives": 2})
    start(ana, [bia, carl])
    version = (ana.state or {})["version"]
    ana.send("action", action={"leave": True}, version=version)
    left = wait_state(bia, lambda m: any(e["type"] == "leave" for e in m["events"]))
    assert left["events"] == [{"type": "leave", "seat": 0}]
    assert left["view"]["left"][0] is True
    room = bia.room  # sent just before the state
    assert room is not None and room["match"]["seats"][0]["left"] is True
    ana_view = wait_state(ana, lambda m: m["version"] == version + 1)
    assert ana_view["seat"] is None  # the leaver now watches
    assert refused(ana, "action", action={"bid": 0}, version=version + 1) == "room/not_seated"
    assert refused(ana, "pause", vote=True) == "pause/not_allowed"
    seat0_played: list[dict[str, Any]] = []

    def note(client: Client, message: dict[str, object]) -> None:
        if message["type"] == "state":
            events = message["events"]
            assert isinstance(events, list)
            seat0_played.extend(e for e in events if e.get("seat") == 0 and e["type"] in ("bid", "play"))

    drive([bia, carl], lambda: bool(seat0_played), on_message=note)
    assert seat0_played  # the stand-in played seat 0's turn


def test_disconnected_player_is_covered_by_a_bot_and_comes_back_to_the_seat(srv: LiveServer) -> None:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], {"players": 2})
    start(ana, [bia])
    state = bia.state
    assert state is not None
    bia_seat = state["seat"]
    bia.close()
    # Ana plays her turns; Bia's are played by a bot while she is away.
    covered: list[dict[str, Any]] = []

    def note(client: Client, message: dict[str, object]) -> None:
        if message["type"] == "state":
            events = message["events"]
            assert isinstance(events, list)
            covered.extend(e for e in events if e.get("seat") == bia_seat and e["type"] == "bid")

    drive([ana], lambda: bool(covered), on_message=note)
    back = bia.player.connect()
    room = back.join(room_id)["room"]
    assert room["your_seat"] == bia_seat
    resumed = wait_state(back, lambda m: True)
    assert resumed["seat"] == bia_seat
    assert resumed["version"] >= 1 and resumed["events"] == []
    assert any(e.get("seat") == bia_seat for e in resumed["recap"])
    assert all("version" in e for e in resumed["recap"])
    assert resumed["view"]["hands"][bia_seat] is not None or resumed["view"]["cards"] == 1


def test_turn_clock_runs_out_and_a_bot_plays(tmp_path: Path) -> None:
    # The room's 5 s clock in 0.5 s of real time; nobody acts, so nothing races it.
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", clock_unit_s=0.1) as live:
        _, (ana, bia) = table(live, ["Ana", "Bia"], {"players": 2}, clock_s=5)
        first = start(ana, [bia])
        assert first["deadline"] is not None
        [turn] = first["awaiting"]
        played = wait_state(ana, lambda m: m["version"] == 1, timeout=30)
        assert played["events"][0]["seat"] == turn  # nobody acted: the clock's bot did


# ---------------------------------------------------------------------- late arrivals
def test_sefode_late_arrival_watches_then_sits_at_the_next_match(srv: LiveServer) -> None:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], {"players": 3, "lives": 1})
    start(ana, [bia])
    carl = srv.player("Carl").connect()
    carl.join(room_id)
    watching = wait_state(carl, lambda m: True)
    assert watching["seat"] is None
    assert refused(carl, "action", action={"join": True}, version=watching["version"]) in (
        "action/no_join",
        "action/stale_state",
    )
    carl.send("sit", seat=2)  # seat 2 is played by a bot in this match
    room = carl.wait(lambda m: m["type"] == "room" and m["room"]["seats"][2]["player_id"] == carl.player.id)["room"]
    assert room["your_seat"] == 2 and room["match"]["seats"][2]["bot"] == "normal"
    for client in (ana, bia):
        leave(client)
    carl.wait_type("match_end", timeout=60)
    ana.send("start")
    mine = wait_state(carl, lambda m: m["seat"] == 2)
    assert mine["view"]["seat"] == 2


def test_sete_letras_late_arrival_joins_at_a_round_boundary(srv: LiveServer) -> None:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], {"variant": "7letras", "players": 2})
    first = start(ana, [bia])
    carl = srv.player("Carl").connect()
    carl.join(room_id)
    wait_state(carl, lambda m: True)
    carl.send("action", action={"join": True}, version=first["version"])
    joined = wait_state(carl, lambda m: m["seat"] == 2)
    assert joined["view"]["seats"] == 3 and joined["events"][0]["type"] == "join"
    room = carl.room  # sent just before the state
    assert room is not None and room["your_seat"] == 2
    assert len(room["match"]["seats"]) == 3 and len(room["seats"]) == 3
    # after a bid it is no longer a round boundary
    seats = {c.state["seat"]: c for c in (ana, bia, carl) if c.state}
    for client in (ana, bia):
        wait_state(client, lambda m: m["version"] == joined["version"])
    [turn] = joined["awaiting"]
    seats[turn].send("action", action={"bid": 0}, version=joined["version"])
    wait_state(carl, lambda m: m["version"] == joined["version"] + 1)
    dave = srv.player("Dave").connect()
    dave.join(room_id)
    assert refused(dave, "action", action={"join": True}, version=joined["version"] + 1) == "action/not_boundary"


def test_seat_that_is_out_cannot_act_or_vote(srv: LiveServer) -> None:
    _, clients = table(srv, ["Ana", "Bia", "Carl"], {"players": 3, "lives": 1})
    start(clients[0], clients[1:])
    out_client: Client | None = None

    def someone_out() -> bool:
        nonlocal out_client
        for client in clients:
            view = client.state["view"] if client.state else None
            if view and view["phase"] != "over" and False in view["alive"]:
                out_seat = view["alive"].index(False)
                out_client = next(c for c in clients if c.state and c.state["seat"] == out_seat)
                return True
        return False

    # Everyone bids 0 whenever allowed: the seat that takes the trick misses its bid and is out (1 life).
    acted: dict[int, int] = {}
    while out_client is None:
        for client in clients:
            client.poll()
            if someone_out():
                break
            state = client.state
            if state and state["seat"] in state["awaiting"] and acted.get(id(client)) != state["version"]:
                acted[id(client)] = state["version"]
                legal = [entry["action"] for entry in state["legal"]]
                choice = {"bid": 0} if {"bid": 0} in legal else legal[0]
                client.send("action", action=choice, version=state["version"])
    assert out_client is not None
    for client in [*(c for c in clients if c is not out_client), out_client]:
        client.send("ping")  # nobody acts any more: after the pongs, every client holds the last state
        client.wait_type("pong")
    state = out_client.state
    assert state is not None
    assert refused(out_client, "action", action={"bid": 0}, version=state["version"]) == "action/seat_out"
    assert refused(out_client, "pause", vote=True) == "pause/not_allowed"


def test_hard_bots_decide_in_a_worker_process_and_finish_the_match(srv: LiveServer) -> None:
    ana = srv.player("Ana")
    answer = ana.post("/api/solo", {"variant": "sefode", "bots": 2, "level": "hard"})
    room_id = answer.json()["room_id"]
    client = ana.connect()
    client.join(room_id)
    wait_state(client, lambda m: True)
    leave(client)  # the stand-in (normal) and the two hard bots play on
    end = client.wait_type("match_end", timeout=120)
    assert sorted(end["placements"])[0] == 1
    assert srv.hub.workers.procs is not None and srv.hub.workers.bot_processes == 1  # a worker process, no fallback


def test_pause_ends_by_itself_at_its_limit(tmp_path: Path) -> None:
    # The messages queue up: however soon the pause ends, Ana reads "paused" before "playing".
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", pause_limit_s=0.3) as live:
        _, (ana, bia) = table(live, ["Ana", "Bia"], {"players": 2})
        start(ana, [bia])
        ana.send("pause", vote=True)
        bia.send("pause", vote=True)
        paused = ana.wait(lambda m: m["type"] == "room" and m["room"]["status"] == "paused")["room"]
        assert paused["pause"]["until"] is not None
        resumed = ana.wait(lambda m: m["type"] == "room" and m["room"]["status"] == "playing", timeout=30)["room"]
        assert resumed["pause"]["votes"] == []
        state = wait_state(ana, lambda m: True)  # clocks run again
        assert state["deadline"] is not None


def test_a_player_who_left_the_match_counts_as_watching_it(srv: LiveServer) -> None:
    """Issue 22: after leaving a match you watch it, and the room's count of people watching says so (the room keeps
    your seat for the next match, which made it say "0 assistindo")."""
    _, (ana, bia) = table(srv, ["Ana", "Bia"], {"players": 3, "lives": 3})
    start(ana, [bia])
    assert bia.room is not None and bia.room["spectators"] == 0
    leave(bia)  # the room message comes just before the state that carries the leave
    room = bia.room
    assert room is not None and room["spectators"] == 1
    assert room["match"] is not None, "the match goes on, a bot in Bia's seat"
    ana.wait(lambda m: m["type"] == "room" and m["room"]["spectators"] == 1)
